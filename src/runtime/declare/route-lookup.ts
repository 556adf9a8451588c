import FindMyWay from 'find-my-way'
import type { DeclareContext } from './declare-context'
import { versionStrategy } from '../shared/version-strategy'
import { servedUrls } from './route-declaration'

/**
 * Fastify 5's `hasRoute({ method, url, constraints? })` and `findRoute(...)` over the routes
 * declared so far, in every scope (Fastify's router is one for the whole server, and neither
 * method applies the calling scope's prefix). They answer as Fastify's find-my-way does:
 *
 * - hasRoute() matches the route as declared (`/artists/:id`, with the same constraints);
 * - findRoute() matches a URL (`/artists/42`, or the pattern itself, whose params then read
 *   `{ id: ':id' }`) and returns `{ handler, params, searchParams }`, or null. `handler` is the
 *   route's handler as declared (Fastify's is its internal wrapper).
 *
 * The index is a find-my-way router of its own, made on the first call and brought up to date
 * with the routes declared since on each call: the serving router is built at boot, and this
 * one costs nothing to a server whose plugins never ask.
 */

export interface LookupOptions { method?: unknown; url?: unknown; constraints?: unknown }

interface RouteIndex {
  router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>
  /** How many of context.routes are in `router`. */
  indexed: number
}

const indexes = new WeakMap<DeclareContext, RouteIndex>()

function indexOf(context: DeclareContext): RouteIndex {
  let index = indexes.get(context)
  if (index === undefined) {
    const config = context.initialConfig
    index = {
      router: FindMyWay({
        ignoreTrailingSlash: config.ignoreTrailingSlash === true, caseSensitive: config.caseSensitive !== false, maxParamLength: Number.MAX_SAFE_INTEGER,
        // The serving router's version constraint (pre-releases by exact text only), so that
        // findRoute() finds what a request with that Accept-Version reaches.
        // A custom strategy of the server's (createServer({ constraints, versioning })) as it serves.
        constraints: { version: versionStrategy as never, ...context.constraintStrategies as Record<string, never> },
      }),
      indexed: 0,
    }
    indexes.set(context, index)
  }
  const { routes } = context
  const exposeHeadRoutes = context.initialConfig.exposeHeadRoutes !== false
  for (; index.indexed < routes.length; index.indexed++) {
    const def = routes[index.indexed]
    const handler = def.options.handler as unknown as FindMyWay.Handler<FindMyWay.HTTPVersion.V1>
    const constraints = def.options.constraints as Record<string, unknown> | undefined
    const urls = servedUrls(def)
    // The route option wins over the server's, as at boot (compile.ts).
    const exposeHead = (def.options.exposeHeadRoute as boolean | undefined) ?? exposeHeadRoutes
    const methods = exposeHead && def.methods.includes('GET') && !def.methods.includes('HEAD') ? [...def.methods, 'HEAD'] : def.methods
    for (const url of urls) {
      for (const method of methods) {
        // A route boot will refuse (a duplicate, an invalid path) is simply not found here.
        try {
          if (constraints === undefined) index.router.on(method as never, url, handler)
          else index.router.on(method as never, url, { constraints }, handler)
        } catch { /* refused at boot with its own coded error */ }
      }
    }
  }
  return index
}

function methodOf(options: LookupOptions): string | null {
  return typeof options.method === 'string' && options.method !== '' ? options.method.toUpperCase() : null
}

export function hasRoute(context: DeclareContext, options: LookupOptions): boolean {
  if (typeof options !== 'object' || options === null) return false
  const method = methodOf(options)
  if (method === null || typeof options.url !== 'string') return false
  const constraints = typeof options.constraints === 'object' && options.constraints !== null && !Array.isArray(options.constraints)
    ? options.constraints as Record<string, unknown> : undefined
  try {
    return indexOf(context).router.hasRoute(method as never, options.url, constraints ?? {})
  } catch {
    return false
  }
}

export interface FoundRoute {
  readonly handler: Function
  readonly params: Record<string, string | undefined>
  readonly searchParams: Record<string, string>
}

export function findRoute(context: DeclareContext, options: LookupOptions): FoundRoute | null {
  if (typeof options !== 'object' || options === null) return null
  const method = methodOf(options)
  if (method === null || typeof options.url !== 'string') return null
  const constraints = typeof options.constraints === 'object' && options.constraints !== null ? options.constraints as Record<string, unknown> : undefined
  let found: FindMyWay.FindResult<FindMyWay.HTTPVersion.V1> | null
  try {
    found = indexOf(context).router.find(method as never, options.url, constraints)
  } catch {
    return null
  }
  if (found === null) return null
  // A copy each time: changing what one call returned changes nothing for the next (Fastify 5's test).
  return { handler: found.handler, params: { ...found.params }, searchParams: { ...found.searchParams } }
}
