import { fastifyLogSerializers } from '../shared/log-serializers'
import type { ReplyImpl } from './reply'
import type { RequestImpl } from './request'
import type { ServeContext } from './serve-context'

/**
 * The access log, in Fastify's shape: "incoming request" with `req` (method, url, version,
 * hostname, remote address and port, through Fastify's serializers) when the request arrives, "request completed" with `res.statusCode`
 * and `responseTime` (ms) when the response is finished; both carry the request id. Every
 * answer is logged, also a 401 from an auth hook or a 422 from a custom error handler, which
 * never pass through the built-in error reply. 5xx at error level, the rest at info; a client
 * that left first gives "request aborted". Runs only when request logging is on.
 */
export function logRequest(ctx: ServeContext, request: RequestImpl, reply: ReplyImpl): void {
  const started = request.startTime
  // A logger Enclave made serializes the request and reply itself (Fastify's serializers, or the
  // user's `serializers.req`/`res`, which then read what they read in Fastify); any other logger
  // gets the same fields as plain objects.
  const own = ctx.logSerializers
  request.log.info(ctx.idFields(request.id, { req: own ? request : fastifyLogSerializers.req(request) }), 'incoming request')
  let finished = false
  // 'finish' (the response is handed to the OS) rather than 'close': in-process inject() emits
  // 'close' only on the next tick, after the caller already has its response.
  reply.raw.once('finish', () => {
    finished = true
    const statusCode = reply.raw.statusCode
    const fields = ctx.idFields(request.id, { res: own ? reply : { statusCode }, responseTime: performance.now() - started })
    if (statusCode >= 500) request.log.error(fields, 'request completed')
    else request.log.info(fields, 'request completed')
  })
  reply.raw.once('close', () => {
    if (!finished) request.log.info(ctx.idFields(request.id, { res: own ? reply : { statusCode: reply.raw.statusCode }, responseTime: performance.now() - started }), 'request aborted')
  })
}
