import { runtimeError } from '../../errors/runtime-codes'
import type { DeadlineList } from '../deadlines'
import type { ServeContext } from '../serve-context'
import { onBodyExpired } from './read-body'

/**
 * The bodyTimeout deadline of a route: the server's, or the route's own `bodyTimeout` option (an
 * integer > 0 in ms, checked at declaration), which replaces it either way: an upload route
 * gives large files on slow links the time they need while every other route keeps the
 * server's short bound on trickled bodies. Node's `requestTimeout` bounds the whole request
 * before any of this and cannot be raised per route, so a route's bodyTimeout past it would
 * never apply: refused at boot, naming the route and both values.
 */
export function bodyDeadlineOf(serve: ServeContext, own: number | undefined, route: { methods: readonly string[], url: string, scope: { path: string } }): DeadlineList | null {
  if (own === undefined) return serve.bodyDeadline
  const requestTimeout = serve.limits.requestTimeout
  if (requestTimeout > 0 && own > requestTimeout) {
    throw runtimeError('ENC_ERR_ROUTE_INVALID', {
      where: `route ${route.methods.join(', ')} ${route.url} in ${route.scope.path}`,
      problem: `its bodyTimeout (${own} ms) is longer than the server's requestTimeout (${requestTimeout} ms), which Node applies to the whole request first; ` +
        `raise requestTimeout to at least ${own} (createServer / createApp options) or shorten the route's bodyTimeout`,
    })
  }
  return serve.deadlines.list(own, onBodyExpired)
}
