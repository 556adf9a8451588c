import type { IncomingMessage, ServerResponse } from 'node:http'
import { runtimeError } from '../errors/runtime-codes'
import { answerWithoutReply } from './raw-answers'
import type { ServeContext } from './serve-context'

/**
 * The `rewriteUrl` server option (Fastify 3): the url it returns is the one routed, and
 * `request.url`. Before routing, so no route, hook or error handler exists yet: a rewrite that
 * throws or returns something other than a string is a bug in the server's own code, answered
 * 500 and logged with its code. Returns false when it answered.
 */
export function rewriteUrl(ctx: ServeContext, raw: IncomingMessage, res: ServerResponse): boolean {
  const original = raw.url as string
  let url: unknown
  try {
    url = (ctx.rewriteUrl as (raw: IncomingMessage) => unknown)(raw)
  } catch (error) {
    answerWithoutReply(res, ctx.log, error)
    return false
  }
  if (typeof url !== 'string') {
    answerWithoutReply(res, ctx.log, runtimeError('ENC_ERR_REWRITE_URL_INVALID', { url: original, got: url === null ? 'null' : typeof url }))
    return false
  }
  if (url !== original) {
    ctx.log.debug({ originalUrl: original, url }, 'rewrite url')
    raw.url = url
  }
  return true
}
