import { runtimeError } from '../errors/runtime-codes'
import { assertNotAsyncWithDone } from '../declare/hooks'
import { bindHook, requestHookNames, type BoundHook } from '../shared/bound-hook'
import { CompiledRoute } from '../serve/compiled-route'
import { resolveScope } from './scope-resolution'
import { routeSchemas } from './route-schemas'
import { hostConstraintWarnings, routeRegexWarnings } from './route-regex-warnings'
import { reportInBootOrder } from './boot-warnings'
import { allScopes } from './all-scopes'
import { SerializerBatch } from './serializer-batch'
import { defaultNotFoundHandler, badUrlHandler, methodNotAllowedHandler } from '../serve/system-handlers'
import { handlerDeadlineOf } from '../serve/handler-timeout'
import { bodyDeadlineOf } from '../serve/body/route-body-timeout'
import { servedUrls, type RouteDefinition } from '../declare/route-declaration'
import type { BootContext } from './boot-context'
import type { RouteRecord } from './route-record'
import type { ScopeImpl } from '../declare/scope'
import type { Handler, NotFoundOptions, RouteOptions } from '../types'
import type { RouteConstraints } from '../serve/router'
import { RouteSpellings } from './route-spellings'
import type { CompiledRouteSchemas } from '../schemas'

const routeHookNames = requestHookNames

/**
 * Boot, phase 2: every route becomes one CompiledRoute per method, stored in the router.
 * Schema parts are compiled once per route (not per method). A GET route also answers HEAD
 * unless a HEAD route was declared for the same path.
 */
export function compileServer(boot: BootContext): void {
  // ajv 6 ignores a misspelt keyword in a shared schema as it does in a route's: refused the same way.
  for (const scope of allScopes(boot.rootScope)) {
    const own = scope.schemas.own()
    for (const id of Object.keys(own)) boot.schemaCompilers.checkKeywords(own[id], scope.schemas, `addSchema() in scope ${scope.path}: shared schema '${id}'`)
  }
  const owners = new Map<string, RouteDefinition>()
  const spelled = new RouteSpellings<RouteDefinition>(boot.routing.ignoreTrailingSlash)
  const implicitHead: Array<[RouteRecord, (method: string, url: string) => CompiledRoute, ReturnType<typeof constraintsKeyed>]> = []
  // Enclave's own work now, then every validator, then every serializer (serializer-batch.ts). With the schema cache
  // little is compiled, and its warnings keep their place among the routes' own.
  const batch = boot.schemaCompilers.codeCache === null || boot.schemaCompilers.codeCache === undefined ? new SerializerBatch() : null
  boot.serializerBatch = batch
  // Routes whose validators the batch fills in after they were created: installed again then.
  const filledLater: Array<[CompiledRoute, CompiledRouteSchemas]> = []
  try {
    // Indexed loops: at boot this runs before V8 optimizes it, and for-of allocated an iterator
    // and its results per route, url and method (~0.6 MB per 1,000 routes).
    const routes = boot.declared.routes
    for (let r = 0; r < routes.length; r++) {
      const def = routes[r]
      const [record, compiled, schemas] = compileDefinition(boot, def)
      const keyed = constraintsKeyed(def)
      const urls = urlsOf(boot, def)
      for (let u = 0; u < urls.length; u++) {
        const url = urls[u]
        for (let m = 0; m < def.methods.length; m++) {
          const method = def.methods[m]
          if (yieldsBareTwin(boot, def, keyed, url, method)) continue
          const route = compiled(method, url)
          addRoute(boot, owners, spelled, def, keyed, url, method, route)
          if (batch !== null && schemas !== null) filledLater.push([route, schemas])
        }
      }
      // Only paths with a regex parameter are read: a `(` is rare in a route path.
      if (def.url.includes('(')) {
        reportInBootOrder(routeRegexWarnings(`${def.methods.join(',')} ${def.url}`, def.scope.path, def.url), boot)
      }
      reportInBootOrder(hostConstraintWarnings(def.methods, def.url, def.scope.path, keyed.constraints?.host), boot)
      const exposeHead = def.options.exposeHeadRoute ?? boot.routing.exposeHeadRoutes
      if (exposeHead && def.methods.includes('GET') && !def.methods.includes('HEAD')) implicitHead.push([record, compiled, keyed])
    }
  } catch (error) {
    throw batch === null ? error : batch.failed(error)
  } finally {
    boot.serializerBatch = null
    boot.partReuse.release()
  }
  batch?.flush()
  for (const [route, schemas] of filledLater) route.installSchemas(schemas)
  // After every explicit route, so that a HEAD route declared later still wins over the implicit one.
  for (const [record, compiled, keyed] of implicitHead) {
    const { def } = record
    let added = false
    for (const url of urlsOf(boot, def)) {
      // As Fastify 3, which looks the HEAD route up (under ignoreTrailingSlash, any spelling).
      if (boot.serve.router.has('HEAD', url, keyed.constraints) || spelled.owner(`HEAD${keyed.key}`, url) !== undefined) continue
      addRoute(boot, owners, spelled, def, keyed, url, 'HEAD', compiled('HEAD', url))
      added = true
    }
    if (added) record.implicitHead.push('HEAD')
  }
  compileNotFound(boot)
}

/**
 * A route `/` in a prefixed plugin answers both `/prefix` and `/prefix/` (Fastify's default
 * prefixTrailingSlash 'both', route-declaration.ts); with ignoreTrailingSlash one registration
 * covers both.
 */
export function urlsOf(boot: BootContext, def: RouteDefinition): readonly string[] {
  return boot.routing.ignoreTrailingSlash ? [def.url] : servedUrls(def)
}

/**
 * A prefixed `/` route's `/prefix` half gives way to a route already declared there (a `''` route
 * of the same scope or a lifted plugin): Fastify 3 (lib/route.js) registers the two halves in one
 * `after()` and the first half's duplicate error is lost when the second half calls done again, so
 * it boots with `/prefix` answered by the earlier route and `/prefix/` by the `/` route. Declared in
 * the other order, the `''` route is a duplicate there as here.
 */
function yieldsBareTwin(boot: BootContext, def: RouteDefinition, keyed: ConstraintsKeyed, url: string, method: string): boolean {
  return def.withTrailingSlash && !boot.routing.ignoreTrailingSlash && url === def.url && boot.serve.router.has(method, url, keyed.constraints)
}

/**
 * find-my-way's constraints of a route: its `constraints` option, with Fastify 3's older
 * `version` option folded in as `constraints.version`; null when it has none.
 */
export function constraintsOf(def: RouteDefinition): RouteConstraints | null {
  const { constraints, version } = def.options
  if (version === undefined) return constraints === undefined || Object.keys(constraints).length === 0 ? null : constraints
  return { ...constraints, version }
}

/** A route's constraints and their part of the duplicate keys, worked out once per definition. */
interface ConstraintsKeyed { readonly constraints: RouteConstraints | null; readonly key: string }

function constraintsKeyed(def: RouteDefinition): ConstraintsKeyed {
  const constraints = constraintsOf(def)
  return { constraints, key: constraints === null ? '' : constraintsKey(constraints) }
}

function addRoute(boot: BootContext, owners: Map<string, RouteDefinition>, spelled: RouteSpellings<RouteDefinition>, def: RouteDefinition, keyed: ConstraintsKeyed,
  url: string, method: string, route: CompiledRoute): void {
  const { constraints } = keyed
  const key = `${method} ${boot.routing.ignoreTrailingSlash ? normalizeForDuplicates(url) : url}${keyed.key}`
  const tableKey = method + keyed.key
  const sharing = spelled.owner(tableKey, url)
  if (sharing !== undefined) {
    throw runtimeError('ENC_ERR_ROUTE_DUPLICATE', { method, url, first: declaredBy(sharing.owner), second: declaredBy(def), ...(sharing.other ? { ignoreTrailingSlash: true as const } : {}) })
  }
  try {
    boot.serve.router.on(method, url, route, constraints, (def.options as { routePath?: string }).routePath)
  } catch (cause) {
    const first = owners.get(key)
    // find-my-way also refuses what it cannot store (a version constraint that is not numeric
    // semver, such as 'v1' or '>=1'): that is a malformed route, not a second declaration.
    if (first === undefined && !(cause instanceof Error && cause.message.includes('already declared'))) {
      throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${method} ${url} in ${def.scope.path}`, problem: `the router refused it: ${cause instanceof Error ? cause.message : String(cause)}` }, { cause })
    }
    throw runtimeError('ENC_ERR_ROUTE_DUPLICATE', { method, url, first: first === undefined ? 'in another scope' : declaredBy(first), second: declaredBy(def) }, { cause })
  }
  owners.set(key, def)
  spelled.take(tableKey, url, def)
  boot.serve.methods.add(method)
}

/** The constraints part of the duplicate key: every constraint, built-in or custom, in name order. */
function constraintsKey(constraints: RouteConstraints): string {
  return Object.keys(constraints).sort().map((name) => ` ${name}=${String(constraints[name])}`).join('')
}

function normalizeForDuplicates(url: string): string {
  return url.length > 1 ? url.replace(/\/+$/, '') : url
}

function compileDefinition(boot: BootContext, def: RouteDefinition): [RouteRecord, (method: string, url: string) => CompiledRoute, CompiledRouteSchemas | null] {
  const { scope, options } = def
  const resolution = resolveScope(boot, scope)
  const { schemas, lazy, normalized } = routeSchemas(boot, def, resolution)
  const hooks = routeHooks(scope, options, resolution.hooks)
  const errorHandlers = options.errorHandler === undefined ? resolution.errorHandlers
    : [{ fn: options.errorHandler, scope: scope as never }, ...resolution.errorHandlers]
  const record: RouteRecord = { def, resolution, get schema() { return normalized() }, hooks, errorHandlers, implicitHead: [] }
  boot.routeRecords.push(record)
  // One object behind request.routeConfig, request/reply.context.config and routeOptions.config.
  // As in Fastify 3 (lib/route.js), it also names the route's full url and its declared method(s),
  // which request.routerPath and routerMethod read. Fastify 3 declares the implicit HEAD route and
  // a prefix root's `/prefix/` twin as routes of their own: each has its own config naming its url
  // and method.
  const config: Record<string, unknown> = { ...options.config, url: def.declaredUrl, method: options.method }
  // Only an implicit HEAD route or a `/prefix/` twin has a config of its own: made when first asked.
  let twinConfigs: Map<string, Record<string, unknown>> | null = null
  const serverBodyLimit = boot.serve.limits.bodyLimit
  const handlerDeadline = handlerDeadlineOf(boot.serve, options.handlerTimeout)
  const bodyDeadline = bodyDeadlineOf(boot.serve, options.bodyTimeout, def)
  return [record, (method: string, url: string) => {
    const implicitHead = method === 'HEAD' && !def.methods.includes('HEAD')
    const routeConfig = !implicitHead && url === def.url ? config : twinConfig(twinConfigs ??= new Map(), def, method, url, implicitHead)
    return new CompiledRoute({
    method,
    path: url,
    scope,
    serve: boot.serve,
    handler: options.handler,
    Request: resolution.Request,
    Reply: resolution.Reply,
    hooks,
    schemas,
    lazy,
    schemaErrorFormatter: options.schemaErrorFormatter ?? resolution.schemaErrorFormatter,
    replySerializer: resolution.replySerializer,
    attachValidation: options.attachValidation === true,
    parsers: resolution.parsers,
    bodyLimit: options.bodyLimit ?? null,
    errorHandlers,
    config: routeConfig,
    hasParams: def.url.includes(':') || def.url.includes('*'),
    routeOptions: () => routeOptionsView(def, method, routeConfig, serverBodyLimit, boot),
    handlerDeadline,
    bodyDeadline,
    // '' is Fastify's 'not set' (what onRoute hooks see): the server logger's level.
    logLevel: options.logLevel || null,
    logSerializers: def.scope.logSerializers === null && options.logSerializers === undefined ? null : { ...def.scope.logSerializers, ...options.logSerializers },
    implicitHead,
  })
  }, schemas]
}

/** The config of `def`'s implicit HEAD route or `/prefix/` twin at `url`: one per method and url, kept in `twins`. */
function twinConfig(twins: Map<string, Record<string, unknown>>, def: RouteDefinition, method: string, url: string, implicitHead: boolean): Record<string, unknown> {
  const key = `${implicitHead ? 'HEAD' : ''} ${url}`
  let twin = twins.get(key)
  // The HEAD copy at the route's own url names it as declared too: Fastify 3 declares that copy
  // from the declared path, whatever an onRoute hook made of the url (plugin-api 36:178).
  if (twin === undefined) twins.set(key, twin = { ...def.options.config, url: url === def.url ? def.declaredUrl : url, method: implicitHead ? method : def.options.method })
  return twin
}

/**
 * Fastify's request.routeOptions: the declared options, with this method and the config's url (as
 * Fastify 5's getter reads `context.config.url`: the url as declared even where an onRoute hook
 * moved the route, a twin's own url for a twin), and
 * what Fastify 5's getter (lib/request.js) fills in when the route did not say: exposeHeadRoute
 * (the server's exposeHeadRoutes), prefixTrailingSlash ('both') and handlerTimeout (the route's own,
 * else the server's; 0 is off, as in Fastify 5). `version` is the request's, added by
 * request.routeOptions.
 */
function routeOptionsView(def: RouteDefinition, method: string, config: Record<string, unknown>, serverBodyLimit: number, boot: BootContext): Readonly<Record<string, unknown>> {
  const { options } = def
  return Object.freeze({
    ...options,
    method,
    url: config.url,
    config,
    schema: options.schema,
    bodyLimit: options.bodyLimit ?? serverBodyLimit,
    attachValidation: options.attachValidation === true,
    exposeHeadRoute: options.exposeHeadRoute ?? boot.routing.exposeHeadRoutes,
    prefixTrailingSlash: options.prefixTrailingSlash || 'both',
    handlerTimeout: options.handlerTimeout ?? boot.serve.limits.handlerTimeout,
    bodyTimeout: options.bodyTimeout ?? boot.serve.limits.bodyTimeout,
  })
}

/**
 * The scope's resolved hooks, then the route's own options (`preHandler: [a, b]`), last. Most routes
 * declare no hooks of their own: they get the scope's resolved (read-only) record itself.
 */
function routeHooks(scope: ScopeImpl, options: RouteOptions, inherited: Readonly<Record<string, readonly BoundHook[]>>): Record<typeof routeHookNames[number], readonly BoundHook[]> {
  let out: Record<string, readonly BoundHook[]> | null = null
  // Indexed: at boot this runs before V8 optimizes it, and for-of allocated an iterator result per
  // name (about 0.9 MB over 1,000 routes that declare no hooks of their own).
  for (let i = 0; i < routeHookNames.length; i++) {
    const name = routeHookNames[i]
    const own = options[name as keyof RouteOptions] as Function | Function[] | undefined
    if (own === undefined) continue
    const list = Array.isArray(own) ? own : [own]
    for (const fn of list) {
      if (typeof fn !== 'function') throw runtimeError('ENC_ERR_HOOK_INVALID_HANDLER', { where: `route ${options.url} in ${scope.path}`, problem: 'not-a-function-option', option: name })
      assertNotAsyncWithDone(name, fn, `route ${options.url} in ${scope.path}, option ${name}`)
    }
    if (list.length === 0) continue
    out ??= { ...inherited }
    out[name] = [...inherited[name], ...list.map((fn) => bindHook(name, fn, scope as never))]
  }
  return (out ?? inherited) as Record<typeof routeHookNames[number], readonly BoundHook[]>
}

/**
 * Not-found handlers are encapsulated by prefix: a request no route matches is handled by the
 * deepest scope with its own handler whose prefix covers the URL, with that scope's hooks.
 */
function compileNotFound(boot: BootContext): void {
  const byPrefix = new Map<string, ScopeImpl>()
  for (const scope of allScopes(boot.rootScope)) {
    if (scope.notFoundHandler === null) continue
    const prefix = scope.prefix === '/' ? '' : scope.prefix
    const existing = byPrefix.get(prefix)
    if (existing !== undefined && existing !== scope) {
      throw runtimeError('ENC_ERR_NOT_FOUND_DUPLICATE', { path: scope.path, existing: existing.path, prefix })
    }
    byPrefix.set(prefix, scope)
  }
  const entries = [...byPrefix.entries()].filter(([prefix]) => prefix !== '')
    .sort((a, b) => b[0].length - a[0].length)
    .map(([prefix, scope]) => ({ prefix, route: systemRoute(boot, scope, scope.notFoundHandler as Handler, scope.notFoundOptions), bare: !scope.routePrefix.endsWith('/') }))
  const root = boot.rootScope
  entries.push({ prefix: '', route: systemRoute(boot, root, root.notFoundHandler ?? defaultNotFoundHandler, root.notFoundHandler === null ? {} : root.notFoundOptions), bare: true })
  boot.serve.fallbacks = {
    notFound: entries,
    notFoundOfScope: notFoundOfScope(boot.rootScope, entries),
    badUrl: systemRoute(boot, root, badUrlHandler),
    methodNotAllowed: systemRoute(boot, root, methodNotAllowedHandler),
  }
}

/**
 * reply.callNotFound() answers with the not-found handler of the calling route's scope (its own,
 * else its nearest ancestor's), as Fastify 3 does, not with the one whose prefix covers the URL: a
 * sibling plugin at the same prefix with a handler of its own is not the route's.
 */
function notFoundOfScope(root: ScopeImpl, entries: readonly { route: CompiledRoute }[]): Map<unknown, CompiledRoute> {
  const own = new Map<unknown, CompiledRoute>()
  for (const { route } of entries) own.set(route.scope, route)
  const out = new Map<unknown, CompiledRoute>()
  // allScopes() lists every parent before its children.
  for (const scope of allScopes(root)) out.set(scope, own.get(scope) ?? out.get(scope.parent ?? root) ?? own.get(root) as CompiledRoute)
  return out
}

function systemRoute(boot: BootContext, scope: ScopeImpl, handler: Handler, own: NotFoundOptions = {}): CompiledRoute {
  const resolution = resolveScope(boot, scope)
  return new CompiledRoute({
    method: '*', path: null, scope, serve: boot.serve, handler, Request: resolution.Request, Reply: resolution.Reply,
    hooks: routeHooks(scope, { method: '*', url: scope.prefix, handler, preValidation: own.preValidation, preHandler: own.preHandler }, resolution.hooks),
    schemas: null, lazy: null, schemaErrorFormatter: resolution.schemaErrorFormatter, replySerializer: resolution.replySerializer, attachValidation: false,
    parsers: resolution.parsers, bodyLimit: null, errorHandlers: resolution.errorHandlers, config: {}, hasParams: false,
    routeOptions: Object.freeze({ method: undefined, url: undefined, config: {}, schema: undefined, bodyLimit: boot.serve.limits.bodyLimit, handlerTimeout: boot.serve.limits.handlerTimeout, bodyTimeout: boot.serve.limits.bodyTimeout }),
    handlerDeadline: boot.serve.handlerDeadline,
    bodyDeadline: boot.serve.bodyDeadline,
  })
}

/**
 * One side of a duplicate: the handler by name where it has one and the scope. A controller's
 * handler is named `UsersController.list` (modules/controller-routes.ts), so two controllers in one
 * prefix are told apart by class and method, not only by their modules' paths.
 */
function declaredBy(def: RouteDefinition): string {
  const name = typeof def.options.handler === 'function' ? def.options.handler.name : ''
  return `${name === '' ? '' : `by ${name} `}in ${def.scope.path}`
}
