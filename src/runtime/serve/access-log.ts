import type { ServerResponse } from 'node:http'
import { guardedLogLine } from './guarded-log'
import { fastifyLogSerializers } from '../shared/log-serializers'
import type { ReplyImpl } from './reply'
import type { RequestImpl } from './request'
import type { ServeContext } from './serve-context'

/**
 * The access log, in Fastify's shape: "incoming request" with `req` (method, url, version,
 * hostname, remote address and port, through Fastify's serializers) when the request arrives, "request completed" with `res.statusCode`
 * and `responseTime` (ms) when the response is finished; both carry the request id. Every
 * answer is logged, also a 401 from an auth hook or a 422 from a custom error handler, which
 * never pass through the built-in error reply. At info level whatever the status, as in Fastify 3
 * (a 5xx's error has its own line at error level); after the onResponse hooks when the route has
 * some (deferAccessLine); a client that left first gives "request aborted". Runs only when request
 * logging is on.
 */
export function logRequest(ctx: ServeContext, request: RequestImpl, reply: ReplyImpl): void {
  const started = request.startTime
  // A logger Enclave made serializes the request and reply itself (Fastify's serializers, or the
  // user's `serializers.req`/`res`, which then read what they read in Fastify); any other logger
  // gets the same fields as plain objects, unless the route's logSerializers name the field.
  const routeSerializers = reply.route.logSerializers
  const ownReq = ctx.logSerializers || routeSerializers?.req !== undefined
  const own = ctx.logSerializers || routeSerializers?.res !== undefined
  accessLine(ctx, request, 'info', { req: ownReq ? request : fastifyLogSerializers.req(request) }, 'incoming request')
  const res = reply.raw as ServerResponse & AccessState
  let finished = false
  let written = false
  const end = (failure?: unknown): void => {
    if (written) return
    written = true
    const shown = own ? reply : { statusCode: reply.raw.statusCode }
    const responseTime = performance.now() - started
    if (failure === undefined) accessLine(ctx, request, 'info', { res: shown, responseTime }, 'request completed')
    else accessLine(ctx, request, 'error', { res: shown, err: failure, responseTime }, 'request errored')
  }
  res[accessEnd] = end
  // 'finish' (the response is handed to the OS) rather than 'close': in-process inject() emits
  // 'close' only on the next tick, after the caller already has its response.
  res.once('finish', () => {
    finished = true
    if (res[accessDeferred] !== true) end()
  })
  res.once('close', () => {
    if (!finished) accessLine(ctx, request, 'info', { res: own ? reply : { statusCode: reply.raw.statusCode }, responseTime: performance.now() - started }, 'request aborted')
  })
}

const accessEnd = Symbol('enclave.accessEnd')
const accessDeferred = Symbol('enclave.accessDeferred')
interface AccessState { [accessEnd]?: (failure?: unknown) => void; [accessDeferred]?: boolean }

/**
 * A route with onResponse hooks: its "request completed" line waits for them, as in Fastify 3, so
 * that what they log comes first, and a failing one gives "request errored" (with `err`, at error
 * level) in its place. Called when the hooks are set to watch the response, before it finishes;
 * returns the function that writes the line, or null when the access log is off.
 */
export function deferAccessLine(res: ServerResponse): ((failure?: unknown) => void) | null {
  const state = res as ServerResponse & AccessState
  const end = state[accessEnd]
  if (end === undefined) return null
  state[accessDeferred] = true
  return end
}

/** One access line, through guardedLogLine (a user's serializer that throws costs the line a field). */
function accessLine(ctx: ServeContext, request: RequestImpl, level: 'info' | 'error', fields: Record<string, unknown>, msg: string): void {
  guardedLogLine(request.log, level, ctx.idFields(request.id, fields), msg)
}

/** The route whose onResponse hooks the line waited for no longer ends the response (reply.callNotFound()). */
export function undeferAccessLine(res: ServerResponse): void {
  (res as ServerResponse & AccessState)[accessDeferred] = false
}
