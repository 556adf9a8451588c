import type { FrameworkError } from '../errors/framework-error'
import { runtimeError } from '../errors/runtime-codes'
import type { ScopeImpl } from './scope'
import { checkRouteOptions } from './option-checks'
import type { Handler, RouteOptions, RouteShorthandOptions } from '../types'

const supportedMethods: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** A route as declared, after onRoute hooks; compiled at boot. */
export interface RouteDefinition {
  readonly scope: ScopeImpl
  readonly methods: readonly string[]
  /** Prefix and path joined. */
  readonly url: string
  readonly options: RouteOptions
  /** The module or plugin that declared it (introspection only). */
  readonly origin: string
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

function invalid(scope: ScopeImpl, what: string): FrameworkError {
  return runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route in ${scope.path}`, problem: what })
}

/**
 * Records a route of `scope`. `prefix` is the scope's own, or a lifted plugin's registration
 * prefix (prefixed-view.ts): the one place a route path meets a prefix.
 */
export function declareRoute(scope: ScopeImpl, input: RouteOptions, prefix: string = scope.prefix): void {
  scope.assertDeclarable('route()')
  if (input === null || typeof input !== 'object') throw invalid(scope, 'route() takes an options object')
  const options: RouteOptions = { ...input }
  const rawPath = options.url ?? options.path
  if (typeof rawPath !== 'string') throw invalid(scope, 'url (or path) must be a string')
  // Fastify 3 would serve '' as '/' (or as the prefix); an empty url is nearly always a bug.
  if (rawPath === '' && scope.prefix === '') throw invalid(scope, `${String(options.method)}: the url is empty; use '/' for the root`)
  if (typeof options.handler !== 'function') throw invalid(scope, `${String(options.method)} ${rawPath} has no handler function (got ${typeof options.handler})`)
  checkRouteOptions(options, `${String(options.method)} ${rawPath} in ${scope.path}`)
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
  // The router matches decoded paths: a route declared percent-encoded (`/caf%C3%A9`) is stored
  // decoded, so it matches. decodeURI keeps reserved escapes (%2F, %3F, %23) as they are.
  options.url = safeDecodeURI(joinPath(prefix, rawPath))
  options.path = options.url
  const withRoutePath = options as RouteOptions & { routePath?: string; prefix?: string }
  withRoutePath.routePath = rawPath
  withRoutePath.prefix = prefix
  // onRoute hooks see (and may amend) the options before they are recorded, ancestors' first.
  const chain: ScopeImpl[] = []
  for (let s: ScopeImpl | null = scope; s !== null; s = s.parent) chain.unshift(s)
  for (const owner of chain) for (const hook of owner.hooks.own('onRoute')) hook.fn.call(hook.scope, options)
  const finalMethods = (Array.isArray(options.method) ? options.method : [options.method]).map((m) => String(m).toUpperCase())
  scope.context.routes.push({ scope, methods: finalMethods, url: options.url, options, origin: scope.currentOrigin() })
}

export function shortcut(scope: ScopeImpl, method: string | string[], path: string, a: Handler | RouteShorthandOptions, b?: Handler, prefix: string = scope.prefix): void {
  const options = typeof a === 'function' ? { handler: a } : { ...a, handler: b ?? (a as RouteOptions).handler }
  declareRoute(scope, { ...options, method, url: path } as RouteOptions, prefix)
}

function safeDecodeURI(url: string): string {
  if (!url.includes('%')) return url
  try {
    return decodeURI(url)
  } catch {
    return url
  }
}
