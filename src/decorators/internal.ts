/** What src/modules reads of the recorded metadata. Not public API: free to change. */
export {
  getModuleMeta, getControllerMeta, getOwnRoutes, getParams, getSchemaMeta, getRequestDecorators,
  getReplyDecorators, getHooks, getErrorHandlerKey, getErrorResponses, getErrorContentType, constructorDependencies, hasConstructorTypes, injectedParameterIndexes, methodParamCount, methodParamTypes, moduleOnlyDecorations,
  getClassRouteHooks, getMethodRouteHooks, getParamMethods, getClassRouteConfig, getMethodRouteConfig, getMethodHttpCodes, getNotFoundHandler, controllerOnlyDecorations,
  getClassInterceptors, getMethodInterceptors, getRequiredPlugins,
} from './metadata'
export type { NotFoundHandlerMeta } from './metadata'
export { deferredPluginOf } from './use-plugin'
export type { DeferredPlugin } from './use-plugin'
export { schemaOfClass, isSchemaClass, schemaClassOfRef, inlineSchemaClasses, inlinedSchemaOfClass } from './schema-class'
export type {
  ModuleMeta, ControllerMeta, RouteMeta, ParamMeta, ParamSource, DecoratorMeta, HookMeta, Class, ConcreteClass, ProviderToken, PluginEntry,
  ProviderEntry, ProviderScope, RequestEnd, SchemaEntry, RouteHookMeta, RouteHookName, GuardStage,
} from './types'
export { isRequestScopedClass, isTransientClass, isProviderScope, checkProviderScope } from './request-scoped'
export { Reflector } from './reflector'
export { configurationOf } from './configurable-module'
