import { AsyncResource } from 'node:async_hooks'
import type { FrameworkError } from '../../errors/framework-error'
import { runtimeError } from '../../errors/runtime-codes'
import type { ReplyImpl } from '../reply'
import { replyWithError } from '../error-reply'
import { endDeadline, startHandlerDeadline } from '../handler-timeout'
import type { RequestImpl } from '../request'
import { mediaTypeOf } from '../../shared/media-type'
import { undecodedCoding } from '../../shared/content-coding'
import type { BodyParser } from '../../shared/body-parser'
import { closeAfterReply, undrainableBody } from '../unread-body'
import { declaredLength } from '../declared-length'
import { inviteBody } from '../expect'
import { describeValue } from '../../schemas/schema-codes'
import { replyAt } from '../reply-at'
import { watchStreamBody } from './stream-body-deadline'
import { collectLimit } from './text-body-limit'
import { responseGone } from '../response-gone'

type Next = (request: RequestImpl, reply: ReplyImpl) => void

/** The AsyncResource options of every body read (read once by its constructor, never kept). */
const manualDestroy = { requireManualDestroy: true } as const
/** The chunks of a body that sent none (`Content-Length: 0`); never written to. */
const noChunks: readonly Buffer[] = Object.freeze([])

/** A request carries a body when it is framed by Content-Length (even `0`) or Transfer-Encoding. */
export function hasBody(request: RequestImpl): boolean {
  const headers = request.raw.headers
  return headers['transfer-encoding'] !== undefined || headers['content-length'] !== undefined
}

function tooLarge(limit: number): FrameworkError {
  return runtimeError('ENC_ERR_CTP_BODY_TOO_LARGE', { limit })
}

function tooSlow(ms: number): FrameworkError {
  return runtimeError('ENC_ERR_CTP_BODY_TIMEOUT', { ms })
}

/**
 * Picks the parser for the request's media type and feeds it the body. The limit is enforced
 * on bytes actually received (chunked bodies too); a declared Content-Length over the limit is
 * refused before reading. After a 413 the connection is closed rather than drained, so a client
 * cannot keep it busy with an endless body. `bodyTimeout` bounds the whole read (not the gap
 * between chunks): a body trickled a byte at a time gets a 408 and a closed connection.
 */
export function parseBody(request: RequestImpl, reply: ReplyImpl, defaultLimit: number, next: Next): void {
  const raw = request.raw
  const header = raw.headers['content-type']
  const declared = declaredLength(raw.headers)
  const mediaType = mediaTypeOf(header)
  // No content type at all, or one that is no media type (`weird`), goes to a RegExp parser that
  // matches it or to a catch-all parser (Fastify's '*'); never to the JSON parser or a typed one.
  const parser = reply.route.parsers.find(mediaType, header)
  if (parser === null) {
    // The body is left unread: not worth draining when chunked or over the limit (unread-body.ts).
    if (undrainableBody(raw, reply.route.bodyLimit ?? defaultLimit)) closeAfterReply(reply)
    reply.send(runtimeError('ENC_ERR_CTP_INVALID_MEDIA_TYPE', { contentType: header ?? 'none' }))
    return
  }
  if (parser.identityOnly === true) {
    const coding = undecodedCoding(request)
    if (coding !== null) {
      if (undrainableBody(raw, reply.route.bodyLimit ?? defaultLimit)) closeAfterReply(reply)
      // RFC 9110 §12.5.3: Accept-Encoding on a 415 says which codings the server takes.
      reply.header('accept-encoding', 'identity')
      reply.send(runtimeError('ENC_ERR_CTP_UNSUPPORTED_ENCODING', { coding }))
      return
    }
  }
  // A client that sent `Expect: 100-continue` is invited once its body is wanted (expect.ts):
  // not for the 415 above nor the 413 below, which its headers alone decide.
  if (parser.mode === 'stream' || parser.mode === 'payload') { inviteBody(raw, reply.raw); runStreamParser(request, reply, parser, next); return }
  const limit = collectLimit(reply.route.bodyLimit ?? parser.bodyLimit ?? defaultLimit, parser)
  if (declared > limit) {
    closeAfterReply(reply)
    reply.send(tooLarge(limit))
    return
  }
  inviteBody(raw, reply.raw)
  // Most bodies arrive in one chunk: it is held alone, and the list made only for a second one
  // (an empty array's first push allocates room for 16: ~150 B per request, bench `items`).
  let first: Buffer | null = null
  let chunks: Buffer[] | null = null
  let received = 0
  let finished = false
  const fromChunks = parser.fromChunks
  const onData = (data: Buffer | Uint8Array | string): void => {
    // A preParsing hook's stream may emit strings (Readable.from(text)) or bare Uint8Arrays: the
    // limit counts bytes, and the JSON parser copies chunks into WebAssembly memory as bytes.
    const chunk = Buffer.isBuffer(data) ? data : typeof data === 'string' ? Buffer.from(data, 'utf8')
      : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : null
    if (chunk === null) {
      // An object-mode stream from a hook: a programming error, answered (and logged) as a 500, never thrown
      // out of this listener, where it would end the process.
      cleanup()
      replyWithError(reply, runtimeError('ENC_ERR_BODY_INVALID_CHUNK', { at: replyAt(reply), got: describeValue(data) }))
      return
    }
    received += chunk.length
    if (received > limit) {
      cleanup()
      closeAfterReply(reply)
      reply.send(tooLarge(limit))
      return
    }
    if (first === null) first = chunk
    else if (chunks === null) chunks = [first, chunk]
    else chunks.push(chunk)
  }
  const onTimeout = (): void => {
    cleanup()
    closeAfterReply(reply)
    reply.send(tooSlow(reply.route.bodyDeadline?.ms ?? reply.route.serve.limits.bodyTimeout))
  }
  // Run in the async context the read starts in: the body's last chunk may arrive from the
  // socket in its own context, and the parser, the later hooks and the handler must still see an
  // AsyncLocalStorage store a hook entered (`storage.run(store, done)` in onRequest), as in Fastify 3.
  // A manually destroyed resource: AsyncResource.bind() cost about 9 µs a call here, this ~40 ns.
  const readContext = new AsyncResource('EnclaveBodyRead', manualDestroy)
  const onEnd = (): void => { readContext.runInAsyncScope(endBody) }
  const endBody = (): void => {
    // A stream that ended emits neither 'data' nor 'end' again: only 'error' still needs removing.
    // Removing the other two cost ~0.25 µs per body (bench `items`, in-process A/B of session 12).
    cleanup(true)
    // Over HTTP/2 a stream reset mid-body (by the client, or by nghttp2 for a body short of its
    // Content-Length) still ends the request: node:http2's compatibility request pushes its end
    // when the stream closes. Nobody is left to answer, as when an HTTP/1.1 client leaves mid-body
    // (onError below): not a 400 for a truncated body, logged for nobody.
    if (responseGone(reply.raw)) { clientLeft(); return }
    // Node's parser frames a body by its Content-Length, so the two differ only for a body it did
    // not frame (inject() given a content-length header of its own): a 400, as in Fastify 3. A
    // preParsing hook's replacement stream is not compared (README differences).
    if (source === raw && !Number.isNaN(declared) && received !== declared) {
      reply.send(runtimeError('ENC_ERR_CTP_INVALID_CONTENT_LENGTH', { received, declared: raw.headers['content-length'] as string }))
      return
    }
    let input: Buffer | string | null = null
    if (fromChunks === undefined) {
      const whole = chunks !== null ? Buffer.concat(chunks, received) : first !== null ? first : Buffer.alloc(0)
      input = parser.parseAs === 'string' ? whole.toString('utf8') : whole
      if (parser.mode === 'callback') { callWithDone(parser, request, reply, input, accept); return }
    }
    let parsed: unknown
    try {
      parsed = fromChunks !== undefined ? fromChunks(chunks ?? (first === null ? noChunks : [first]), received) : parser.fn(request as never, input as Buffer | string)
    } catch (error) {
      replyWithError(reply, error)
      return
    }
    if (parsed !== null && typeof parsed === 'object' && typeof (parsed as PromiseLike<unknown>).then === 'function') {
      (parsed as PromiseLike<unknown>).then((value) => accept(value), (error: unknown) => replyWithError(reply, error))
    } else {
      accept(parsed)
    }
  }
  const accept = (value: unknown): void => {
    // An async parser that took too long: handlerTimeout has answered, the handler must not run.
    if (reply.sent) return
    request.body = value
    // Its data is as finite as JSON text: the validator may skip the finite walk (finite-guard.ts).
    if (fromChunks !== undefined) request.jsonBody = value
    next(request, reply)
  }
  // The client went away mid-body: nobody is left to answer; the socket's close ends the request.
  // A replacement stream that fails (a decompressor fed bad bytes) is an error reply instead, and
  // so is a request stream that fails while its connection stays (inject's `simulate: { error }`):
  // as Fastify 3, a 400 with the stream's message, else nothing would ever answer it.
  const onError = (error: unknown): void => {
    cleanup()
    if (source !== raw) { replyWithError(reply, error); return }
    if (raw.socket !== null && raw.socket.destroyed !== true && !responseGone(reply.raw)) { replyWithError(reply, streamFailure(error)); return }
    clientLeft()
  }
  const clientLeft = (): void => {
    endDeadline(reply)
    request.aborted = true
  }
  // Whatever ends the read (the body, a 413, a 408), the handler's deadline runs again from here.
  const cleanup = (ended = false): void => {
    if (finished) return
    finished = true
    readContext.emitDestroy()
    reply.onBodyTimeout = null
    startHandlerDeadline(reply)
    if (!ended) {
      source.removeListener('data', onData)
      source.removeListener('end', onEnd)
    }
    source.removeListener('error', onError)
  }
  // The handler deadline pauses while the body arrives; bodyTimeout watches this phase instead.
  const route = reply.route
  endDeadline(reply)
  if (route.bodyDeadline !== null) {
    reply.onBodyTimeout = onTimeout
    route.serve.deadlines.enter(route.bodyDeadline, reply)
  }
  // A preParsing hook may have put a stream (decompression, decryption) in place of the socket's.
  const source = request.payloadStream ?? raw
  source.on('data', onData)
  source.on('end', onEnd)
  source.on('error', onError)
  // A replacement stream may come paused (@fastify/compress pauses its decompressor): as Fastify, resume.
  if (source !== raw) source.resume()
}

/** The request stream's error as Fastify 3 answers it: a 400 with its message. */
function streamFailure(error: unknown): Error {
  const failure = error instanceof Error ? error : new Error(String(error))
  ;(failure as Error & { statusCode?: number }).statusCode = 400
  return failure
}

/** bodyTimeout expired for `reply` (deadlines.ts): its reader answers 408 and closes. */
export function onBodyExpired(reply: ReplyImpl): void {
  const onTimeout = reply.onBodyTimeout
  if (onTimeout !== null) onTimeout()
}

/**
 * Fastify 3's `(request, payload, done)` parsers, `(request)` ones reading `request.raw` and the
 * deprecated async `(payload)`: they read the stream themselves, so the limit is theirs to keep
 * (as in Fastify). bodyTimeout (the route's) still bounds the body's arrival, and the handler
 * deadline waits for it as for a body Enclave reads (stream-body-deadline.ts). The payload is the
 * stream a preParsing hook put in place of the socket's, if any, as in Fastify.
 */
function runStreamParser(request: RequestImpl, reply: ReplyImpl, parser: BodyParser, next: Next): void {
  watchStreamBody(request, reply, tooSlow)
  const accept = (value: unknown): void => {
    if (reply.sent) return
    request.body = value
    next(request, reply)
  }
  const payload = request.payloadStream ?? request.raw
  if (parser.fn.length >= 3) { callWithDone(parser, request, reply, payload, accept); return }
  let parsed: unknown
  try {
    parsed = (parser.fn as (first: unknown) => unknown)(parser.mode === 'payload' ? payload : request)
  } catch (error) {
    replyWithError(reply, error)
    return
  }
  Promise.resolve(parsed).then(accept, (error: unknown) => replyWithError(reply, error))
}

/** Calls a parser in the `(request, input, done)` form; done, a throw or a returned promise (its value) settles it once. */
function callWithDone(parser: BodyParser, request: RequestImpl, reply: ReplyImpl, input: unknown, accept: (value: unknown) => void): void {
  let settled = false
  const done = (error: unknown, value?: unknown): void => {
    if (settled) return
    settled = true
    if (error !== null && error !== undefined) replyWithError(reply, error)
    else accept(value)
  }
  try {
    const result = (parser.fn as (request: unknown, input: unknown, done: (error: unknown, value?: unknown) => void) => unknown)(request, input, done)
    if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
      // As Fastify 3's parser runner: a returned promise settles it too, with its value.
      (result as PromiseLike<unknown>).then((value) => done(null, value), (error: unknown) => done(error ?? new Error('parser rejected')))
    }
  } catch (error) {
    done(error)
  }
}
