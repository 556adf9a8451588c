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
  // A logger Enclave made serializes the request and reply itself (Fastify's serializers, or the
  // user's `serializers.req`/`res`, which then read what they read in Fastify); any other logger
  // gets the same fields as plain objects, unless the route's logSerializers name the field.
  const routeSerializers = reply.route.logSerializers
  const ownReq = ctx.logSerializers || routeSerializers?.req !== undefined
  accessLine(ctx, request, 'info', { req: ownReq ? request : fastifyLogSerializers.req(request) }, 'incoming request')
  const res = reply.raw as ServerResponse & AccessState
  res[accessWatch] = new AccessWatch(ctx, request, reply, ctx.logSerializers || routeSerializers?.res !== undefined)
  // One object per request and two listener functions shared by every response, rather than a
  // closure per event and once()'s wrapper around it: the response is gone after one request,
  // so the listeners need no removing. 'finish' (the response is handed to the OS) rather than
  // 'close': in-process inject() emits 'close' only on the next tick, after the caller already
  // has its response.
  res.on('finish', accessOnFinish)
  res.on('close', accessOnClose)
}

/** What the access line of one response needs once it ends. */
export class AccessWatch {
  finished = false
  written = false
  /** A route's onResponse hooks run first; they write the line (deferAccessLine). */
  deferred = false
  // Not readonly: reply.callNotFound() hands the response to the not-found route's reply (undeferAccessLine).
  constructor(readonly ctx: ServeContext, readonly request: RequestImpl, public reply: ReplyImpl, readonly own: boolean) {}

  shownResponse(): unknown {
    return this.own ? this.reply : { statusCode: this.reply.raw.statusCode }
  }
}

function accessOnFinish(this: ServerResponse & AccessState): void {
  const watch = this[accessWatch]
  // node:http2's response also emits 'finish' when the client resets the stream before the reply
  // ended: only writableEnded tells that abort apart (as in pipeline.ts); its 'close' logs it.
  if (watch === undefined || watch.finished || !this.writableEnded) return
  watch.finished = true
  if (!watch.deferred) completeAccessLine(watch)
}

function accessOnClose(this: ServerResponse & AccessState): void {
  const watch = this[accessWatch]
  if (watch === undefined || watch.finished) return
  // Closed first: the client left before the response was handed over.
  watch.finished = true
  accessLine(watch.ctx, watch.request, 'info', { res: watch.shownResponse(), responseTime: performance.now() - watch.request.startTime }, 'request aborted')
}

/** Fastify 3's access line for a response whose onResponse hook failed; also the line of an end hook's failure (pipeline.ts). */
export const REQUEST_ERRORED = 'request errored'

/** "request completed", or "request errored" with the first onResponse hook's failure; once per response. */
export function completeAccessLine(watch: AccessWatch, failure?: unknown): void {
  if (watch.written) return
  watch.written = true
  const responseTime = performance.now() - watch.request.startTime
  if (failure === undefined) accessLine(watch.ctx, watch.request, 'info', { res: watch.shownResponse(), responseTime }, 'request completed')
  else accessLine(watch.ctx, watch.request, 'error', { res: watch.shownResponse(), err: failure, responseTime }, REQUEST_ERRORED)
}

const accessWatch = Symbol('enclave.accessWatch')
interface AccessState { [accessWatch]?: AccessWatch }

/**
 * A route with onResponse hooks: its "request completed" line waits for them, as in Fastify 3, so
 * that what they log comes first, and a failing one gives "request errored" (with `err`, at error
 * level) in its place. Called when the hooks are set to watch the response, before it finishes;
 * returns the watch to hand to completeAccessLine(), or null when the access log is off.
 */
export function deferAccessLine(res: ServerResponse): AccessWatch | null {
  const watch = (res as ServerResponse & AccessState)[accessWatch]
  if (watch === undefined) return null
  watch.deferred = true
  return watch
}

/** One access line, through guardedLogLine (a user's serializer that throws costs the line a field). */
function accessLine(ctx: ServeContext, request: RequestImpl, level: 'info' | 'error', fields: Record<string, unknown>, msg: string): void {
  guardedLogLine(request.log, level, ctx.idFields(request.id, fields), msg)
}

/**
 * The route whose onResponse hooks the line waited for no longer ends the response
 * (reply.callNotFound()): `reply`, the not-found route's, does. A `res` serializer then reads the
 * reply that answered (its 404), as Fastify 3's reads its one reply (differential logs 4:220).
 */
export function undeferAccessLine(res: ServerResponse, reply: ReplyImpl): void {
  const watch = (res as ServerResponse & AccessState)[accessWatch]
  if (watch === undefined) return
  watch.deferred = false
  watch.reply = reply
}
