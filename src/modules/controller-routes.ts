import type { Handler, Reply, Request, RouteOptions, Scope } from '../runtime'
import { describeDefaultStatus } from '../runtime/internal'
import { getClassRouteConfig, getClassRouteHooks, getControllerMeta, getMethodRouteConfig, getMethodHttpCodes, getMethodInterceptors, getMethodRouteHooks, getOwnRoutes, type Class, type RouteHookMeta, type RouteHookName, type RouteMeta } from '../decorators/internal'
import { buildHandler, checkUndecorated } from './argument-builder'
import { withParamSchemas } from './param-schemas'
import { moduleError } from './module-error'
import { joinPaths } from './module-tree'
import type { DeclaredMethodRoute } from './declared-method-route'
import type { HookResolver } from './route-guards'
import { checkBodyReadable } from './body-on-get'
import { classInterceptors, withInterceptors, type RouteInterceptors } from './interceptors'
import { controllerOf, inRequestScope, PerRequestController, releaseAtEnd } from './request-instances'
import { isPerRequestPart } from './per-request-classes'

/**
 * The runtime route definitions of one controller instance. Route methods may be inherited:
 * a subclass serves its base class's routes (with its own overrides of the methods), and a
 * method it re-decorates replaces the base's routes for that method.
 */
export function controllerRoutes(controller: Class, instance: object | PerRequestController, modulePath: string, resolveHook: HookResolver, moduleHooks: readonly ResolvedRouteHooks[], interceptors: RouteInterceptors, jsonShorthand = true): DeclaredMethodRoute[] {
  const prefix = getControllerMeta(controller)!.prefix
  const routes: DeclaredMethodRoute[] = []
  // The controller's class-level hooks (base classes first) are the same for each of its routes.
  const classHooks = [...moduleHooks, ...resolved(classRouteHooks(controller), resolveHook)]
  const classConfig = classRouteConfig(controller)
  const outerInterceptors = [...interceptors.outer, ...classInterceptors(controller).map(interceptors.resolve)]
  const collected = collectRoutes(controller)
  for (const { declaringClass, route } of collected) {
    const where = `${route.methods.join(',')} route ${controller.name}.${String(route.propertyKey)} in ${modulePath}`
    const method = route.methods.length === 1 ? route.methods[0] : [...route.methods]
    const status = getMethodHttpCodes(declaringClass).get(route.propertyKey)
    if (status !== undefined) checkStatusCovered(status, route.options.schema, where)
    // Interceptors wrap the method's call only: @HttpCode's status is set before the outermost runs.
    const own = (getMethodInterceptors(declaringClass).get(route.propertyKey) ?? []).map(interceptors.resolve)
    if ((route.options as { websocket?: unknown }).websocket !== true) checkUndecorated(declaringClass, route.propertyKey, where)
    const called = instance instanceof PerRequestController
      ? buildHandler(controller.prototype as object, declaringClass, route.propertyKey, where, controllerOf)
      : buildHandler(instance, declaringClass, route.propertyKey, where)
    const routeInterceptors = own.length === 0 ? outerInterceptors : [...outerInterceptors, ...own]
    const intercepted = withInterceptors(called, routeInterceptors, controller, route.propertyKey)
    const hooks = routeHooks(classHooks, declaringClass, route, resolveHook)
    // A request-scoped guard or hook class may build without the handler: the route releases at its end too.
    const scopedHooks = Object.values(hooks).some((list) => list.some(isPerRequestPart))
    // One after the handler needs the instances then: the release waits for the end of the request.
    const untilEnd = scopedHooks && lateStages.some((stage) => hooks[stage]?.some(isPerRequestPart) === true)
    const inScope = instance instanceof PerRequestController || scopedHooks || routeInterceptors.some(isPerRequestPart)
    // Inside withStatus: its default-status mark stays on the outermost function.
    const handler = withStatus(inScope ? inRequestScope(instance instanceof PerRequestController ? instance.recipe : null, intercepted, untilEnd) : intercepted, status)
    // Named after the method, so explain() and logs read `NotesController.create`, wrapped or not.
    Object.defineProperty(handler, 'name', { value: `${controller.name}.${String(route.propertyKey)}` })
    // The controller's @Route('/users') is part of the route's path; scope prefixes are the runtime's.
    const url = joinPaths([prefix], route.path)
    const siblings = collected.filter((other) => other.route !== route && other.declaringClass === declaringClass && other.route.propertyKey === route.propertyKey)
    checkBodyReadable(declaringClass, route.propertyKey, where, [...route.methods, ...siblings.flatMap((other) => other.route.methods)])
    const schema = withParamSchemas(route.options.schema, declaringClass, route.propertyKey, where, siblings.length > 0 ? url : undefined, route.methods.map((m) => m.toUpperCase()), jsonShorthand)
    const options: RouteOptions = { ...route.options, ...(schema === route.options.schema ? {} : { schema: schema as RouteOptions['schema'] }), ...(hooks as Partial<RouteOptions>), ...(scopedHooks ? endOfRequestRelease(hooks, route) : {}), ...routeConfig(classConfig, declaringClass, route), method, url, handler }
    // routeMetadata() values with no route hook or interceptor that could read them: the scope's hooks are known only after boot (unread-metadata.ts).
    const metadataKeys = [...Object.keys(classConfig ?? {}), ...Object.keys(getMethodRouteConfig(declaringClass).get(route.propertyKey) ?? {})]
    const unguarded = metadataKeys.length > 0 && routeInterceptors.length === 0 && Object.values(hooks).every((list) => list.length === 0)
    routes.push({ declaringClass, key: route.propertyKey, where, options, ...(unguarded ? { unreadMetadata: [...new Set(metadataKeys)] } : {}) })
  }
  return routes
}

/** The stages after the handler: a request-scoped hook class there keeps the request's instances until its end. */
const lateStages: readonly RouteHookName[] = ['preSerialization', 'onSend', 'onResponse', 'onError', 'onTimeout']

/**
 * The end-of-request release (releaseAtEnd): what request-scoped guards and hook classes built when
 * the handler never ran, or everything when a late hook needs the instances until the end. Appended
 * to the route's onResponse and onRequestAbort hooks, after the route's own (a request-scoped
 * onResponse hook class included).
 */
function endOfRequestRelease(hooks: Partial<Record<RouteHookName, Function[]>>, route: RouteMeta): Partial<RouteOptions> {
  // routeHooks() merged the route options' own onResponse already (it ran: a guard is declared);
  // onRequestAbort is not a decorator stage, so the options' own is taken here.
  const ownAbort = (route.options as { onRequestAbort?: Function | Function[] }).onRequestAbort
  return {
    onResponse: [...(hooks.onResponse ?? []), releaseAtEnd],
    onRequestAbort: [...(ownAbort === undefined ? [] : Array.isArray(ownAbort) ? ownAbort : [ownAbort]), releaseAtEnd],
  } as Partial<RouteOptions>
}

/**
 * `@HttpCode(status)`: the status is set before the method runs, so the method's own
 * `reply.code()` and any error's status still win. Only a route that declares one pays for the wrapper.
 */
function withStatus(handler: Handler, status: number | undefined): Handler {
  if (status === undefined) return handler
  return describeDefaultStatus(function (this: Scope, request: Request, reply: Reply) {
    reply.code(status)
    return handler.call(this, request, reply)
  } as Handler, status)
}

/**
 * A route that declares response schemas filters its answers through the one for the status sent;
 * an @HttpCode status none of them covers would send the method's value unfiltered (a `200` schema
 * leaving out `passwordHash` does nothing for a 201). A route without success schemas (none, or
 * error statuses only) is Fastify's plain JSON either way.
 */
function checkStatusCovered(status: number, schema: unknown, where: string): void {
  const response = (schema as { response?: unknown } | undefined)?.response
  if (response === null || typeof response !== 'object') return
  const keys = Object.keys(response)
  // Only error schemas (`404`): the success answer was never filtered, with or without @HttpCode.
  if (!keys.some((key) => /^[123]/.test(key) || key === 'default')) return
  const range = `${Math.floor(status / 100)}xx`
  if (keys.some((key) => key === String(status) || key.toLowerCase() === range || key === 'default')) return
  throw moduleError('ENC_ERR_MODULE_HTTP_CODE_UNCOVERED', { where, status, keys })
}

const routeHookNames: readonly RouteHookName[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse', 'onError', 'onTimeout']

/** Route hooks of one stage with each hook class already turned into its function. */
export interface ResolvedRouteHooks { readonly name: RouteHookName; readonly hooks: readonly Function[] }

/** Hook classes turned into their functions (for `meta.name`'s stage) by the module's resolver. */
export function resolved(metas: readonly RouteHookMeta[], resolveHook: HookResolver): ResolvedRouteHooks[] {
  return metas.map((meta) => ({ name: meta.name, hooks: meta.hooks.map((hook) => resolveHook(hook, meta.name)) }))
}

/**
 * The route's `@OnRequest()`-style hooks as route options, merged once here: its modules'
 * (outermost first), the controller's (base classes first), the method's, then the route options'
 * own, in that order (NestJS runs global guards, then class guards, then method guards). The hook
 * functions are passed as they are, so a guard marked with describeSecurity() still marks the route
 * in the OpenAPI document.
 */
function routeHooks(outerHooks: readonly ResolvedRouteHooks[], declaringClass: Function, route: RouteMeta, resolveHook: HookResolver): Partial<Record<RouteHookName, Function[]>> {
  const declared = [...outerHooks, ...resolved(getMethodRouteHooks(declaringClass).get(route.propertyKey) ?? [], resolveHook)]
  const merged: Partial<Record<RouteHookName, Function[]>> = {}
  if (declared.length === 0) return merged
  const own = route.options as Partial<Record<RouteHookName, Function | Function[]>>
  for (const name of routeHookNames) {
    const given = own[name]
    const hooks = [...declared.filter((d) => d.name === name).flatMap((d) => d.hooks), ...(given === undefined ? [] : Array.isArray(given) ? given : [given])]
    if (hooks.length > 0) merged[name] = hooks
  }
  return merged
}

/**
 * routeMetadata() values as the route's `config`, merged once here: the controller's (base classes
 * first), then the route options' own `config`, then the method's, so the nearest declaration wins
 * (NestJS's getAllAndOverride([handler, class])). A route without any keeps its options as they are.
 */
function routeConfig(classConfig: Readonly<Record<string, unknown>> | undefined, declaringClass: Function, route: RouteMeta): { config?: Record<string, unknown> } {
  const methodConfig = getMethodRouteConfig(declaringClass).get(route.propertyKey)
  if (classConfig === undefined && methodConfig === undefined) return {}
  return { config: { ...classConfig, ...route.options.config, ...methodConfig } }
}

/** routeMetadata() values on the controller class and its base classes, base classes' first (overridden by the subclass's). */
function classRouteConfig(controller: Class): Readonly<Record<string, unknown>> | undefined {
  let merged: Record<string, unknown> | undefined
  for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const own = getClassRouteConfig(c as Function)
    if (own !== undefined) merged = { ...own, ...merged }
  }
  return merged
}

/** `@OnRequest()`-style hooks on the controller class and its base classes, base classes first. */
function classRouteHooks(controller: Class): RouteHookMeta[] {
  const classes: Function[] = []
  for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) classes.unshift(c as Function)
  return classes.flatMap(getClassRouteHooks)
}

export function collectRoutes(controller: Class): Array<{ declaringClass: Function; route: RouteMeta }> {
  const found: Array<{ declaringClass: Function; route: RouteMeta }> = []
  const overridden = new Set<string | symbol>()
  for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const own = getOwnRoutes(c as Function).filter((r) => !overridden.has(r.propertyKey))
    for (const route of own) found.push({ declaringClass: c as Function, route })
    for (const route of own) overridden.add(route.propertyKey)
  }
  return found
}
