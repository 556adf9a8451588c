import FindMyWay from 'find-my-way'
import { parse as parseQueryString } from 'node:querystring'
import type { CompiledRoute } from './compiled-route'

/** Returned by the query parser instead of a truncated object: the pipeline answers 414. */
export const TOO_MANY_QUERY_KEYS: Record<string, unknown> = Object.freeze({})

export interface RouteMatch {
  /** null when find-my-way could not decode the URL (a bad percent-escape). */
  store: CompiledRoute | null
  params: Record<string, unknown>
  searchParams: Record<string, unknown>
}

export interface Router {
  on(method: string, path: string, route: CompiledRoute): void
  find(method: string, url: string): RouteMatch | null
  has(method: string, path: string): boolean
}

/**
 * Node's querystring parser with a key limit that fails loudly: a query with more keys than
 * `maxKeys` is refused, never silently cut. `querystring.parse`'s own `maxKeys` counts pairs and
 * drops the rest without a word (`a=1&a=2&...` would lose values, and the keys after them), so
 * it is turned off (0) and the distinct keys are counted here instead. Parsing every pair is
 * bounded anyway: the URL is part of the request head, which Node caps (16 KiB by default).
 */
export function queryParser(maxKeys: number): (text: string) => Record<string, unknown> {
  // A pair takes at least two characters with its separator, so a text this short cannot hold
  // more than maxKeys keys and needs no count (the common case: no array allocated per request).
  const shortEnough = maxKeys * 2 - 1
  return (text) => {
    if (text.length === 0) return {}
    const parsed = parseQueryString(text, '&', '=', { maxKeys: 0 }) as Record<string, unknown>
    if (text.length > shortEnough && Object.keys(parsed).length > maxKeys) return TOO_MANY_QUERY_KEYS
    return parsed
  }
}

/** find-my-way behind a three-method interface; our compiled route is the `store`. */
export function createRouter(options: { ignoreTrailingSlash: boolean; caseSensitive: boolean; parseQuery: (text: string) => Record<string, unknown> }): Router {
  const noop = (): void => {}
  const router = FindMyWay({
    // Fastify's default: `/a/` is not `/a` unless the server option says so.
    ignoreTrailingSlash: options.ignoreTrailingSlash,
    caseSensitive: options.caseSensitive,
    // Parameter length is checked by the pipeline so that it can answer 414 instead of 404.
    maxParamLength: Number.MAX_SAFE_INTEGER,
    querystringParser: options.parseQuery,
    // Without this hook find() returns null for an undecodable URL, which would read as 404.
    onBadUrl: noop as never,
  })
  return {
    on: (method, path, route) => { router.on(method as never, path, noop as never, route as never) },
    find: (method, url) => router.find(method as never, url) as unknown as RouteMatch | null,
    has: (method, path) => router.hasRoute(method as never, path),
  }
}
