import { replyWithError } from './error-reply'
import { schemaBuildFailure } from './schema-build-failure'
import type { CompiledRoute } from './compiled-route'
import type { ReplyImpl } from './reply'

/**
 * The first request to a route under schemaCompilation 'lazy' builds its validators and
 * serializers, before onRequest, so that every stage (an early 401 from a hook too) sees them;
 * with the default serializer compiler, a status's serializer is built when it is first sent
 * (schemas/deferred-serializer.ts).
 * False when they do not compile: the request then gets a 500 carrying the boot error's code
 * and a message without the schema's details; the details go to the log (boot/route-schemas.ts).
 */
export function compileOnFirstRequest(route: CompiledRoute, reply: ReplyImpl): boolean {
  try {
    route.lazy?.compile('first request')
    return true
  } catch (error) {
    replyWithError(reply, schemaBuildFailure(route, error))
    return false
  }
}
