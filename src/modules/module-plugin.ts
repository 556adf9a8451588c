import { lift, type AsyncPlugin, type NotFoundHandler, type RequestHook, type Scope } from '../runtime'
import { getClassInterceptors, getClassRouteHooks, getErrorContentType, getErrorHandlerKey, getErrorResponses, getHooks, getNotFoundHandler, getReplyDecorators, getRequestDecorators, getRequiredPlugins } from '../decorators/internal'
import { toProviderSpec } from './providers'
import { describeToken, moduleError } from './module-error'
import { controllerRoutes, resolved, type ResolvedRouteHooks } from './controller-routes'
import { guardResolver } from './route-guards'
import { interceptorResolver, type RouteInterceptors } from './interceptors'
import { declareAndCheck } from './declared-routes'
import { registerModuleScope } from './request-resolve'
import { reportPluginFailure } from './plugin-failure'
import type { ModuleWiring } from './injector'
import type { ModuleNode } from './module-tree'

/**
 * Translates one module into runtime calls on `scope` (its own child scope, or its parent's
 * when lifted). Everything was scanned, checked and constructed before: this only declares.
 * Order: decorators, schemas and compilers first, then the context's handlers and hooks, then
 * the children (the runtime runs them after this body), then the routes.
 */
export function applyModule(scope: Scope, node: ModuleNode, wiring: ReadonlyMap<ModuleNode, ModuleWiring>): void {
  const { instance, controllers, container, pluginOptions, overriddenPluginInputs } = wiring.get(node)!
  const type = node.type
  // Named after the method, as a hook function declared in a plugin is: traces otherwise say `bound audit`.
  const member = (key: string | symbol) => {
    const fn = ((instance as Record<string | symbol, Function>)[key]).bind(instance)
    Object.defineProperty(fn, 'name', { value: String(key) })
    return fn
  }

  // For resolveProvider(request, ...) in the runtime-API routes this scope (or a plugin under it) declares.
  registerModuleScope(scope, container)
  // Labels every declaration below with this module, for printTree/explain/openapi.
  scope.annotate({ module: node.path, providers: node.meta.providers.map((p) => describeToken(toProviderSpec(p).token)) })
  for (const d of getRequestDecorators(type)) scope.decorateRequest(d.name, d.value)
  for (const d of getReplyDecorators(type)) scope.decorateReply(d.name, d.value)
  for (const schema of node.schemas) if (!seenHere(scope, schema)) scope.addSchema(schema)
  if (node.meta.validatorCompiler !== null) scope.setValidatorCompiler(node.meta.validatorCompiler)
  if (node.meta.serializerCompiler !== null) scope.setSerializerCompiler(node.meta.serializerCompiler)
  if (node.meta.schemaErrorFormatter !== null) scope.setSchemaErrorFormatter(node.meta.schemaErrorFormatter)
  if (node.meta.schemaCompilation !== null) scope.setSchemaCompilation(node.meta.schemaCompilation)
  const errorHandlerKey = getErrorHandlerKey(type)
  if (errorHandlerKey !== undefined) {
    scope.setErrorHandler(member(errorHandlerKey))
    const responses = getErrorResponses(type)
    if (responses !== undefined) scope.annotate({ errorResponses: responses })
    const contentType = getErrorContentType(type)
    if (contentType !== undefined) scope.annotate({ errorContentType: contentType })
  }
  const notFound = getNotFoundHandler(type)
  if (notFound !== undefined) {
    const handler = member(notFound.propertyKey) as NotFoundHandler
    if (notFound.preValidation.length === 0 && notFound.preHandler.length === 0) scope.setNotFoundHandler(handler)
    else scope.setNotFoundHandler({ preValidation: notFound.preValidation as RequestHook[], preHandler: notFound.preHandler as RequestHook[] }, handler)
  }
  // bind() keeps the method's arity, so a `done` parameter still marks a callback-style hook.
  for (const hook of getHooks(type)) scope.addHook(hook.name as never, member(hook.propertyKey))

  // Prefixes are the runtime's: a module's own goes in its registration (lifted or not), and the
  // runtime joins it with the scope's and applies it to what the module declares.
  // Each entry is followed by an after() step that names it when it fails (plugin-failure.ts).
  node.entries.forEach((entry, index) => {
    if (entry.kind === 'module') {
      registerModule(scope, entry.node, wiring)
      reportPluginFailure(scope, null)
      return
    }
    scope.register(entry.plugin as never, entry.deferred === null ? entry.options ?? {} : pluginOptions.get(entry)!)
    reportPluginFailure(scope, { path: node.path, index, plugin: entry.plugin, usePlugin: entry.deferred !== null, overridden: overriddenPluginInputs.get(entry) ?? [] })
  })

  // The routes are declared once the plugins listed above have loaded, as a Fastify user writes
  // `await app.register(plugin)` before the routes: plugins that act through onRoute hooks
  // (@fastify/rate-limit, compress, swagger) then see the module's own routes.
  if (node.controllers.length === 0) return
  const resolveHook = guardResolver(container)
  scope.after(() => {
    const moduleHooks = moduleRouteHooks(node, wiring)
    const interceptors: RouteInterceptors = { resolve: interceptorResolver(container), outer: moduleInterceptors(node, wiring) }
    for (const controller of node.controllers) {
      deferRequiredPluginCheck(wiring, () => checkRequiredPlugins(scope, controller, node))
      declareAndCheck(scope, controllerRoutes(controller, controllers.get(controller)!, node.path, resolveHook, moduleHooks, interceptors, scope.initialConfig.jsonShorthand !== false))
    }
  })
}

/**
 * `@Requires(plugin)` checks, per app (its wiring), run by checkRequiredPluginsOf() once every
 * module has loaded: an ancestor may list the plugin after the child module (`plugins: [ChildModule,
 * workspace]`), and its decorations and hooks still reach the child's routes at run time.
 */
const requiredPluginChecks = new WeakMap<object, (() => void)[]>()

function deferRequiredPluginCheck(wiring: ReadonlyMap<ModuleNode, ModuleWiring>, check: () => void): void {
  const checks = requiredPluginChecks.get(wiring)
  if (checks === undefined) requiredPluginChecks.set(wiring, [check])
  else checks.push(check)
}

/** Runs the app's deferred `@Requires` checks (createApp, in an after() of the root module). */
export function checkRequiredPluginsOf(wiring: ReadonlyMap<ModuleNode, ModuleWiring>): void {
  const checks = requiredPluginChecks.get(wiring) ?? []
  requiredPluginChecks.delete(wiring)
  for (const check of checks) check()
}

/**
 * `@Requires(plugin)`: checked in the scope the controller's routes are declared in, so what
 * RequestWith<typeof plugin> promises the controller is there at run time.
 */
function checkRequiredPlugins(scope: Scope, controller: Function, node: ModuleNode): void {
  for (const plugin of getRequiredPlugins(controller)) {
    if (!scope.hasPlugin(plugin)) throw moduleError('ENC_ERR_MODULE_PLUGIN_REQUIRED', { controller: controller.name, path: node.path, module: node.type.name, plugin })
  }
}

/**
 * The route hooks of `node`'s module classes and its ancestors' (`@OnRequest(AuthGuard)` on a
 * module), outermost first, each hook class resolved from the container of the module that
 * declares it: a root guard is one instance for every route it guards.
 */
function moduleRouteHooks(node: ModuleNode, wiring: ReadonlyMap<ModuleNode, ModuleWiring>): ResolvedRouteHooks[] {
  const chain: ModuleNode[] = []
  for (let n: ModuleNode | null = node; n !== null; n = n.parent) chain.unshift(n)
  return chain.flatMap((n) => resolved(getClassRouteHooks(n.type), guardResolver(wiring.get(n)!.container)))
}

/** `@UseInterceptors()` on `node`'s module classes and its ancestors', outermost first, each from its declaring module's container. */
function moduleInterceptors(node: ModuleNode, wiring: ReadonlyMap<ModuleNode, ModuleWiring>): RouteInterceptors['outer'] {
  const chain: ModuleNode[] = []
  for (let n: ModuleNode | null = node; n !== null; n = n.parent) chain.unshift(n)
  return chain.flatMap((n) => getClassInterceptors(n.type).map(interceptorResolver(wiring.get(n)!.container)))
}

/** The runtime plugin of a module, named after the class so scope paths read `AppModule > PublicModule`. */
export function modulePlugin(node: ModuleNode, wiring: ReadonlyMap<ModuleNode, ModuleWiring>): AsyncPlugin {
  const plugin = async (scope: Scope) => applyModule(scope, node, wiring)
  Object.defineProperty(plugin, 'name', { value: node.type.name })
  return plugin
}

/** A module as a registration on `scope`: a child scope, or (lifted) the same scope with its prefix on its routes. */
export function registerModule(scope: Scope, node: ModuleNode, wiring: ReadonlyMap<ModuleNode, ModuleWiring>): void {
  const plugin = modulePlugin(node, wiring)
  scope.register(node.lifted ? lift(plugin) : plugin, { prefix: node.meta.prefix })
}

/**
 * The very same schema object already visible in the scope (an ancestor or a lifted module beside
 * this one listed it): listing it again is NestJS's habit (each module lists what it uses), not a
 * second schema with that $id.
 */
function seenHere(scope: Scope, schema: object): boolean {
  const id = (schema as { $id?: unknown }).$id
  return typeof id === 'string' && scope.getSchema(id) === schema
}
