import type { FrameworkError } from '../errors/framework-error'
import { runtimeError } from '../errors/runtime-codes'
import type { ScopeImpl } from './scope'
import { checkRouteOptions, looksLikeKnownRouteOption, refuseUnreadRouteOptions } from './route-option-checks'
import type { Handler, RouteOptions, RouteShorthandOptions } from '../types'
import { noteAddedHooks, routeOptionHooks, type OnRouteHookOrigin } from './onroute-hook-origins'
import { checkParamsSchema } from './params-schema-check'

const supportedMethods: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** A route as declared, after onRoute hooks; compiled at boot. */
export interface RouteDefinition {
  readonly scope: ScopeImpl
  readonly methods: readonly string[]
  /** Prefix and path joined, as onRoute hooks left it: where the route is served. */
  readonly url: string
  /**
   * The url before onRoute hooks ran: Fastify 3 (lib/route.js) names the route by it in
   * `context.config.url` (so `request.routerPath`) and serves a prefix root's `/prefix/` twin at
   * it plus '/' whatever a hook made of the url (the twin's onRoute call is skipped).
   */
  readonly declaredUrl: string
  readonly options: RouteOptions
  /**
   * Also served at `url` + '/' unless the server ignores trailing slashes: a route `/` in a
   * prefixed scope with prefixTrailingSlash 'both' (Fastify 3's default).
   */
  readonly withTrailingSlash: boolean
  /** The module or plugin that declared it (introspection only). */
  readonly origin: string
  /** Hooks an onRoute hook added to the options, with the plugin that registered it (introspection only). */
  readonly onRouteHooks: ReadonlyMap<Function, OnRouteHookOrigin>
}

/** Where `def` is served: its url, and for a prefix root with withTrailingSlash its `/prefix/` twin at the declared url. */
export function servedUrls(def: RouteDefinition): readonly string[] {
  return def.withTrailingSlash ? [def.url, `${def.declaredUrl}/`] : [def.url]
}

/** `/v1` + `/` is `/v1`; `/v1` + `users` is `/v1/users`; no double slashes. */
export function joinPath(prefix: string, path: string): string {
  if (prefix === '') return path === '' ? '/' : path.startsWith('/') ? path : `/${path}`
  if (path === '' || path === '/') return prefix
  return prefix.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`)
}

/**
 * A scope prefix is '' or `/segment...` without a trailing slash, whatever the user wrote
 * (`/b/`, `b`, `/`): not-found handlers are matched on it segment by segment.
 */
export function joinPrefix(parentPrefix: string, prefix: string): string {
  return joinPath(parentPrefix, prefix).replace(/\/+$/, '')
}

/** The scope prefix a route prefix makes: no trailing slash (`/v1/` -> `/v1`, `/` -> ''). */
export function trimPrefix(routePrefix: string): string {
  return routePrefix.replace(/\/+$/, '')
}

/**
 * Fastify's rule for a registration prefix (fastify.js buildRoutePrefix): joined to the parent's
 * with one slash between them, and the trailing slash kept as written, since it decides whether
 * a route `/` answers `/v1/` only. No prefix (or '') keeps the parent's.
 */
export function joinRoutePrefix(parentRoutePrefix: string, own: string): string {
  if (own === '') return parentRoutePrefix
  const joined = joinPrefix(parentRoutePrefix, own)
  // `/` alone stays `/` (Fastify's too): a route `/` under it answers `/` and `//`, as prefixTrailingSlash says.
  return own.endsWith('/') ? `${joined}/` : joined
}

/**
 * Where a route is served under a route prefix, as Fastify 3's lib/route.js: a route `/` under
 * `/v1` answers `/v1` and `/v1/` ('both', the default), `/v1/` ('slash') or `/v1` ('no-slash');
 * under `/v1/` (a prefix written with its slash) it answers `/v1/` (and `/v1//` for 'both'), and under
 * `/` alone `/` and `//` (Fastify 3 and 5 join them as written).
 * `path` is what the url adds to the prefix (Fastify's routePath, '' for the prefix itself).
 */
function placeRoute(routePrefix: string, rawPath: string, option: RouteOptions['prefixTrailingSlash']): { url: string; path: string; withTrailingSlash: boolean } {
  const prefix = trimPrefix(routePrefix)
  // Fastify 3 writes prefix + url: an empty url is the prefix as written (`/api/` stays `/api/`).
  if (rawPath === '' && prefix !== '') return { url: routePrefix, path: '', withTrailingSlash: false }
  // Under a prefix written with its slash (`/v1/`) Fastify 3 drops the url's own leading slash, so
  // the routePath an onRoute hook reads is what follows that prefix (`x`, not `/x`).
  if (rawPath !== '/' || routePrefix === '') return { url: joinPath(prefix, rawPath), path: routePrefix.endsWith('/') && rawPath.startsWith('/') ? rawPath.slice(1) : rawPath, withTrailingSlash: false }
  if (option === 'slash') return { url: `${routePrefix}/`, path: '/', withTrailingSlash: false }
  return { url: routePrefix, path: '', withTrailingSlash: option !== 'no-slash' }
}

function invalid(scope: ScopeImpl, what: string): FrameworkError {
  return runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route in ${scope.path}`, problem: what })
}

/**
 * Records a route of `scope`. `routePrefix` is the scope's own, or a lifted plugin's registration
 * prefix (prefixed-view.ts), with its trailing slash as written: the one place a route path
 * meets a prefix.
 */
export function declareRoute(scope: ScopeImpl, input: RouteOptions, routePrefix: string = scope.routePrefix): void {
  scope.assertDeclarable('route()')
  if (input === null || typeof input !== 'object') throw invalid(scope, 'route() takes an options object')
  const url = declareOwnedRoute(scope, { ...input }, routePrefix)
  if (finalUrls.has(input)) finalUrls.set(input, url)
}

/**
 * The url each route was recorded at (prefixes joined, onRoute hooks run), for the route objects
 * a layer above asked about (by setting them to ''): the module layer checks `@Params` names on it.
 */
export const finalUrls = new WeakMap<object, string>()

/** No onRoute hook added a hook to the route: one empty record for all such routes. */
const noOnRouteHooks: ReadonlyMap<Function, OnRouteHookOrigin> = new Map()

/** declareRoute, with `options` already a copy of the user's object (it is amended in place). */
function declareOwnedRoute(scope: ScopeImpl, options: RouteOptions, routePrefix: string): string {
  const rawPath = options.url ?? options.path
  if (typeof rawPath !== 'string') throw invalid(scope, 'url (or path) must be a string')
  // Fastify 3 would serve '' as '/' (or as the prefix); an empty url is nearly always a bug.
  if (rawPath === '' && trimPrefix(routePrefix) === '') throw invalid(scope, `${String(options.method)}: the url is empty; use '/' for the root`)
  if (typeof options.handler !== 'function') throw invalid(scope, `${String(options.method)} ${rawPath} has no handler function (got ${typeof options.handler})`)
  const named = options.handler.name
  // A named handler (a controller's `Books.list`) is named in the errors: it is what to fix.
  const by = named !== '' && named !== 'handler' && named !== 'anonymous' ? ` (handler ${named})` : ''
  const where = `${String(options.method)} ${rawPath}${by} in ${scope.path}`
  // A route without a logLevel takes its plugin's (checked here like its own); onRoute hooks then
  // see Fastify 3's defaults: logLevel '' (the server's level) and attachValidation false.
  if ((options.logLevel === undefined || (options.logLevel as string) === '') && scope.logLevel !== '') options.logLevel = scope.logLevel as RouteOptions['logLevel']
  const pluginKeys = checkRouteOptions(options, where, scope.context.constraintStrategies)
  const methods = (Array.isArray(options.method) ? options.method : [options.method]).map((m) => String(m).toUpperCase())
  for (const method of methods) {
    if (!supportedMethods.has(method)) throw invalid(scope, `${method} ${rawPath}: unsupported method; use one of ${[...supportedMethods].join(', ')}`)
  }
  if (options.bodyLimit !== undefined && (!Number.isInteger(options.bodyLimit) || options.bodyLimit < 0)) {
    throw invalid(scope, `${methods.join(',')} ${rawPath}: bodyLimit must be a non-negative integer`)
  }
  // As Fastify gives them to onRoute: one method as a string, several as an array; the path as
  // declared (routePath) and the scope prefix beside the joined url.
  options.method = Array.isArray(options.method) ? methods : methods[0]
  const placed = placeRoute(routePrefix, rawPath, options.prefixTrailingSlash)
  options.url = placed.url
  options.path = placed.url
  const withRoutePath = options as RouteOptions & { routePath?: string }
  withRoutePath.routePath = placed.path
  options.prefix = routePrefix
  if (options.logLevel === undefined) (options as { logLevel?: string }).logLevel = ''
  if (options.attachValidation === undefined || options.attachValidation === null) options.attachValidation = false
  // Most routes meet no onRoute hook and carry no plugin option: then the hooks' part below (the
  // scope chain, the read-noting proxy, the HEAD copy) would do nothing, and is not run. Kept
  // apart so that this per-route function stays small (V8 optimizes it at boot: issue 16, session 27).
  let finalMethods = methods
  let onRouteHooks = noOnRouteHooks
  if (pluginKeys.length > 0 || hasOnRouteHooks(scope)) {
    const hooked = runOnRouteHooks(scope, options, pluginKeys, methods, where, placed.withTrailingSlash)
    finalMethods = hooked.methods
    onRouteHooks = hooked.onRouteHooks
  }
  // The router matches decoded paths: a url declared percent-encoded (`/caf%C3%A9`), or encoded
  // by an onRoute hook (`encodeURI(route.url)`), is stored decoded, so that it matches its
  // request path. decodeURI keeps reserved escapes (%2F, %3F, %23) as they are.
  const url = safeDecodeURI(String(options.url))
  options.url = url
  // Only a route with a params schema has anything to check (and needs the lookup's closure).
  const params = (options.schema as { params?: unknown } | null | undefined)?.params
  if (params !== undefined && params !== null) checkParamsSchema(options.schema, url, where, (id) => scope.getSchema(id))
  scope.context.routes.push({ scope, methods: finalMethods, url, declaredUrl: safeDecodeURI(placed.url), options, withTrailingSlash: placed.withTrailingSlash, origin: scope.currentOrigin(), onRouteHooks })
  return url
}

/** True when `scope` or an ancestor has an onRoute hook of its own. */
function hasOnRouteHooks(scope: ScopeImpl): boolean {
  for (let s: ScopeImpl | null = scope; s !== null; s = s.parent) if (s.hooks.own('onRoute').length > 0) return true
  return false
}

/**
 * declareOwnedRoute's onRoute part: the hooks of `scope`'s chain see (and may amend) `options`,
 * then the plugin options none read are refused and the HEAD route's call is made. Returns the
 * route's methods as the hooks left them, and the hooks they added with where each came from.
 */
function runOnRouteHooks(scope: ScopeImpl, options: RouteOptions, pluginKeys: readonly string[], methods: readonly string[], where: string, withTrailingSlash: boolean): { methods: string[]; onRouteHooks: ReadonlyMap<Function, OnRouteHookOrigin> } {
  // onRoute hooks see (and may amend) the options before they are recorded, ancestors' first;
  // once per route, whatever the number of urls it is served at (Fastify 3).
  const chain: ScopeImpl[] = []
  for (let s: ScopeImpl | null = scope; s !== null; s = s.parent) chain.unshift(s)
  const unread = new Set(pluginKeys)
  // Plugins read their own route options in onRoute hooks: a proxy notes which ones were read.
  // One that looks like a known option (a typo, or @fastify/websocket's `wsHandler`) counts only
  // when read by name before the hook lists the options: a hook that copies or logs every option
  // (`{ ...route }`, Object.keys, JSON.stringify) lists the keys first, and must not make a typo pass.
  let listed = false
  const seen = unread.size === 0 ? options : new Proxy(options, {
    get(target, key, receiver) {
      if (typeof key === 'string' && (!listed || !looksLikeKnownRouteOption(key))) unread.delete(key)
      return Reflect.get(target, key, receiver)
    },
    has(target, key) {
      if (typeof key === 'string' && (!listed || !looksLikeKnownRouteOption(key))) unread.delete(key)
      return Reflect.has(target, key)
    },
    ownKeys(target) {
      listed = true
      return Reflect.ownKeys(target)
    },
  })
  // Taken before the hooks change anything, as Fastify 3 copies the options for the HEAD route.
  const headOptions = asksForHeadRoute(scope, options, methods) ? { ...options } : null
  let onRouteHooks = noOnRouteHooks
  for (const owner of chain) {
    for (const hook of owner.hooks.own('onRoute')) {
      if (onRouteHooks === noOnRouteHooks) onRouteHooks = new Map()
      // Read through `options`, not the proxy: looking for added hooks reads no plugin option.
      const before = routeOptionHooks(options)
      listed = false
      hook.fn.call(hook.scope, seen)
      const plugin = owner.onRouteHookPlugins.get(hook)
      noteAddedHooks(options, before, onRouteHooks as Map<Function, OnRouteHookOrigin>, { origin: plugin !== undefined ? `plugin ${plugin}` : owner.origins.get(hook) ?? owner.currentOrigin(), scope: owner.path })
    }
  }
  refuseUnreadRouteOptions([...unread], where)
  if (headOptions !== null) callOnRouteForHead(chain, headOptions, withTrailingSlash && scope.context.initialConfig.ignoreTrailingSlash !== true)
  return { methods: (Array.isArray(options.method) ? options.method : [options.method]).map((m) => String(m).toUpperCase()), onRouteHooks }
}

/**
 * Fastify 3 declares the HEAD route of a GET route as a route of its own, so onRoute hooks see it
 * a second time (`method: 'HEAD'`), when HEAD routes were asked for: the server option
 * `exposeHeadRoutes: true` or the route option `exposeHeadRoute: true` (Fastify 3's default is no
 * HEAD route, hence one call; Enclave's default exposes it and keeps that one call). Only a route
 * whose method is the string 'GET', as in Fastify 3.
 */
function asksForHeadRoute(scope: ScopeImpl, options: RouteOptions, methods: readonly string[]): boolean {
  if (Array.isArray(options.method) || methods.length !== 1 || methods[0] !== 'GET') return false
  if (options.exposeHeadRoute !== undefined) return options.exposeHeadRoute === true
  return scope.context.initialConfig.exposeHeadRoutes === true
}

/**
 * The second onRoute call: the GET route's options as declared, with the HEAD method, once per url
 * it is served at (a prefixed '/' is both '/p' and '/p/', as in Fastify 3). The HEAD route is still
 * the GET route's own (its schemas, and what the hooks added for GET): what a hook changes in this
 * copy is not applied (README differences).
 */
function callOnRouteForHead(chain: readonly ScopeImpl[], declared: RouteOptions, withTrailingSlash: boolean): void {
  const urls = withTrailingSlash ? [String(declared.url), `${String(declared.url)}/`] : [String(declared.url)]
  for (const url of urls) {
    const head = { ...declared, method: 'HEAD', url, path: url } as RouteOptions
    for (const owner of chain) for (const hook of owner.hooks.own('onRoute')) hook.fn.call(hook.scope, head)
  }
}

export function shortcut(scope: ScopeImpl, method: string | string[], path: string, a: Handler | RouteShorthandOptions, b?: Handler, routePrefix: string = scope.routePrefix): void {
  // NestJS's app.get(Service) reads a provider; here get() declares a route (Fastify's API).
  if (typeof path === 'function' && a === undefined && method === 'GET') {
    throw invalid(scope, `get(${(path as Function).name || 'a function'}) declares a route (Fastify's API), it does not read a provider (NestJS's app.get(Service)): use resolveProvider(app, ${(path as Function).name || 'Token'}), or t.get() in withApp`)
  }
  // `get('/', '', fn)`, `get('/', [], fn)`, `get('/', undefined, fn)`: the middle argument is not
  // options, so whatever it was meant to say would be dropped. Fastify 3 refuses it too.
  if (typeof b === 'function' && Object.prototype.toString.call(a) !== '[object Object]') {
    throw invalid(scope, `${String(method)} ${path}: the options (second argument) must be an object when the handler is the third, got ${describeArgument(a)}`)
  }
  if (a === undefined) a = {}
  // Two handlers (`get('/', { handler }, fn)`) is a mistake whichever was meant: Fastify 3 refuses it too.
  if (typeof a === 'object' && a !== null && b !== undefined && (a as RouteOptions).handler !== undefined) {
    throw invalid(scope, `${String(method)} ${path}: a handler is given both in the options and as the last argument; keep one`)
  }
  const options = typeof a === 'function' ? { handler: a } : { ...a, handler: b ?? (a as RouteOptions).handler }
  scope.assertDeclarable(`${Array.isArray(method) ? 'all' : method.toLowerCase()}()`)   // named as called: app.get('/late') after boot says get()
  declareRoute(scope, { ...options, method, url: path } as RouteOptions, routePrefix)
}

function describeArgument(value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  if (value === null || value === undefined) return String(value)
  return typeof value === 'string' ? `the string ${JSON.stringify(value)}` : typeof value
}

function safeDecodeURI(url: string): string {
  if (!url.includes('%')) return url
  try {
    return decodeURI(url)
  } catch {
    return url
  }
}
