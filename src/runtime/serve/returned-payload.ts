import { runtimeError } from '../errors/runtime-codes'
import type { ReplyImpl } from './reply'
import { replyAt } from './reply-at'

/**
 * Sends a value user code returned (a handler's, an error handler's), as reply.send() would. Only
 * a direct reply.send() inside an onError hook throws (Fastify's FST_ERR_SEND_INSIDE_ONERR): a
 * value that arrives while those hooks run, from a promise settling late, is logged and dropped
 * here, since a throw from inside the framework's own callback would be an uncaught exception.
 */
export function sendReturned(reply: ReplyImpl, value?: unknown): void {
  if (!reply.inOnError) { reply.send(value); return }
  const refused = runtimeError('ENC_ERR_REPLY_SEND_INSIDE_ON_ERROR', { at: replyAt(reply) })
  reply.request.log.error(reply.route.serve.idFields(reply.request.id, { err: refused }), 'a payload arrived while onError hooks ran; ignored')
}
