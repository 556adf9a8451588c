import { HttpError } from '../errors/http-error'
import { replyWithError } from './error-reply'
import type { CompiledRoute } from './compiled-route'
import type { ReplyImpl } from './reply'

/**
 * The first request to a route under schemaCompilation 'lazy' builds its validators and
 * serializers, before onRequest, so that every stage (an early 401 from a hook too) sees them.
 * False when they do not compile: the request then gets a 500 carrying the boot error's code
 * and a message without the schema's details; the details go to the log (boot/route-schemas.ts).
 */
export function compileOnFirstRequest(route: CompiledRoute, reply: ReplyImpl): boolean {
  try {
    route.lazy?.compile('first request')
    return true
  } catch (error) {
    const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined
    replyWithError(reply, new HttpError(500,
      `The schemas of route ${route.method} ${route.path} do not compile (${code ?? 'see the server log'}); see the server log for the route and the fix.`,
      { code, cause: error }))
    return false
  }
}
