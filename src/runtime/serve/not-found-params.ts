/**
 * Where a request with no route lands, and what `request.params` is there, as in Fastify 3.
 *
 * Fastify 3 serves unknown URLs from two routes per not-found handler, `<prefix>` (the root's:
 * `/`) and `<prefix>/*`, so a ported not-found handler or hook reads the rest of the path from
 * `request.params['*']` (a 404 page naming it, a SPA fallback serving it). Enclave has no such
 * routes (a catch-all would make every URL known to the 405 check), so the same params are
 * computed here from the not-found handler's prefix: `{}` on the prefix itself, else
 * `{ '*': <the rest after the prefix's slash, percent-decoded> }`, the value find-my-way gives a
 * declared `/*` route.
 */
import { absolutePathStart, pathEnd } from './request-target'

/** One not-found handler's reach (serve-context.ts FallbackRoutes.notFound). */
export interface NotFoundReach {
  /** The prefix without its trailing slash; '' for the root. */
  readonly prefix: string
  /** The prefix itself is covered (false when it was registered with a trailing slash). */
  readonly bare: boolean
}

/**
 * The path a not-found handler is chosen by: up to the first `?` or `#` (as the router reads it),
 * without the scheme and authority of an absolute-form target (`GET http://host/v1/x`, which
 * Fastify 3 routes by its path). Null for a target that is no path at all (`*`, `*admin`).
 */
export function notFoundPath(url: string): string | null {
  const start = url.charCodeAt(0) === 47 ? 0 : absolutePathStart(url)
  if (start === -1) return null
  return url.slice(start, pathEnd(url, start))
}

/** True when this handler's reach covers the path (the deepest such handler answers). */
export function covers(reach: NotFoundReach, path: string): boolean {
  const { prefix } = reach
  if (prefix === '') return true
  if (!path.startsWith(prefix)) return false
  return path.length === prefix.length ? reach.bare : path.charCodeAt(prefix.length) === 47
}

/**
 * Fastify 3's params for a path its not-found routes take: the prefix's own route has none
 * (`/`, `/v1`, or `/v1/` for a prefix registered as `/v1/`); the wildcard route gives the rest.
 * A rest that does not decode (only a method no route has gets this far with one) gives `{}`.
 */
export function notFoundParams(reach: NotFoundReach, path: string): Record<string, unknown> {
  const { prefix } = reach
  const own = prefix === '' ? 1 : reach.bare ? prefix.length : prefix.length + 1
  if (path.length === own) return {}
  const rest = path.slice(prefix.length + 1)
  if (!rest.includes('%')) return { '*': rest }
  try {
    return { '*': decodeURIComponent(rest) }
  } catch {
    return {}
  }
}
