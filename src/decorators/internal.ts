/** What src/modules reads of the recorded metadata. Not public API: free to change. */
export {
  getModuleMeta, getControllerMeta, getOwnRoutes, getParams, getSchemaMeta, getRequestDecorators,
  getReplyDecorators, getHooks, getErrorHandlerKey, constructorDependencies, methodParamCount, moduleOnlyDecorations,
} from './metadata'
export { schemaOfClass, isSchemaClass } from './schema-class'
export type {
  ModuleMeta, ControllerMeta, RouteMeta, ParamMeta, ParamSource, DecoratorMeta, HookMeta, Class, ConcreteClass, PluginEntry,
  ProviderEntry, SchemaEntry,
} from './types'
