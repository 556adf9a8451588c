import type { FrameworkError } from '../../errors/framework-error'
import { runtimeError } from '../../errors/runtime-codes'
import type { ReplyImpl } from '../reply'
import { replyWithError } from '../error-reply'
import { endDeadline, startHandlerDeadline } from '../handler-timeout'
import type { RequestImpl } from '../request'
import { isJsonMediaType, mediaTypeOf } from '../../shared/media-type'

type Next = (request: RequestImpl, reply: ReplyImpl) => void

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
  const declaredLength = raw.headers['content-length']
  const mediaType = mediaTypeOf(header)
  // No content type at all goes to a catch-all parser if there is one; a malformed one never does.
  const parser = mediaType !== null ? reply.route.parsers.find(mediaType) : header === undefined ? reply.route.parsers.catchAll : null
  if (parser === null) {
    if (header === undefined && declaredLength === '0') { next(request, reply); return }
    reply.header('connection', 'close')
    reply.send(runtimeError('ENC_ERR_CTP_INVALID_MEDIA_TYPE', { contentType: header ?? 'none' }))
    return
  }
  const source = (request.payloadStream ?? raw) as NodeJS.ReadableStream
  // Fastify 3's stream form, `(request, payload, done)`: the parser reads the stream itself
  // (@fastify/multipart hands it to busboy later); nothing is read or buffered here.
  if (parser.style === 'stream') {
    streamParser(request, reply, parser.fn as unknown as StreamParserFn, source, mediaType, next)
    return
  }
  const limit = reply.route.bodyLimit ?? parser.bodyLimit ?? defaultLimit
  if (declaredLength !== undefined && Number(declaredLength) > limit) {
    reply.header('connection', 'close')
    reply.send(tooLarge(limit))
    return
  }
  const chunks: Buffer[] = []
  let received = 0
  let finished = false
  const onData = (chunk: Buffer): void => {
    received += chunk.length
    if (received > limit) {
      cleanup()
      reply.header('connection', 'close')
      reply.send(tooLarge(limit))
      return
    }
    chunks.push(chunk)
  }
  const onTimeout = (): void => {
    cleanup()
    reply.header('connection', 'close')
    reply.send(tooSlow(reply.route.serve.limits.bodyTimeout))
  }
  const onEnd = (): void => {
    cleanup()
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)
    let parsed: unknown
    try {
      const input = parser.parseAs === 'string' ? body.toString('utf8') : body
      if (parser.style === 'callback') {
        // `(request, body, done)`: done(error, value) (@fastify/formbody's form).
        parsed = new Promise((resolve, reject) => {
          const result = (parser.fn as unknown as CallbackParserFn)(request, input, (error, value) => error ? reject(error) : resolve(value))
          if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') (result as PromiseLike<unknown>).then(resolve, reject)
        })
      } else {
        parsed = parser.fn(request as never, input)
      }
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
    request.bodyIsJson = mediaType !== null && isJsonMediaType(mediaType)
    next(request, reply)
  }
  // The client went away mid-body: nobody is left to answer; the socket's close ends the request.
  // A replacement stream that fails (a decompressor fed bad bytes) is an error reply instead.
  const onError = (error: unknown): void => {
    cleanup()
    if (source !== raw) { replyWithError(reply, error); return }
    endDeadline(reply)
    request.aborted = true
  }
  // Whatever ends the read (the body, a 413, a 408), the handler's deadline runs again from here.
  const cleanup = (): void => {
    if (finished) return
    finished = true
    reply.onBodyTimeout = null
    startHandlerDeadline(reply)
    source.removeListener('data', onData)
    source.removeListener('end', onEnd)
    source.removeListener('error', onError)
  }
  // The handler deadline pauses while the body arrives; bodyTimeout watches this phase instead.
  const context = reply.route.serve
  endDeadline(reply)
  if (context.bodyDeadline !== null) {
    reply.onBodyTimeout = onTimeout
    context.deadlines.enter(context.bodyDeadline, reply)
  }
  source.on('data', onData)
  source.on('end', onEnd)
  source.on('error', onError)
  // A replacement stream may come paused (@fastify/compress pauses its decompressor): as Fastify, resume.
  if (source !== raw) source.resume()
}

type CallbackParserFn = (request: RequestImpl, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => unknown
type StreamParserFn = (request: RequestImpl, payload: NodeJS.ReadableStream, done: (error: Error | null, body?: unknown) => void) => unknown

function streamParser(request: RequestImpl, reply: ReplyImpl, fn: StreamParserFn, payload: NodeJS.ReadableStream, mediaType: string | null, next: Next): void {
  let settled = false
  const finish = (error: unknown, body?: unknown): void => {
    if (settled) return
    settled = true
    if (error !== undefined && error !== null) { replyWithError(reply, error); return }
    if (reply.sent) return
    request.body = body
    request.bodyIsJson = mediaType !== null && isJsonMediaType(mediaType)
    next(request, reply)
  }
  let result: unknown
  try {
    result = fn(request, payload, (error, body) => finish(error, body))
  } catch (error) {
    finish(error ?? new Error('content-type parser threw'))
    return
  }
  if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
    (result as PromiseLike<unknown>).then((body) => finish(null, body), (error: unknown) => finish(error ?? new Error('content-type parser rejected')))
  }
}

/** bodyTimeout expired for `reply` (deadlines.ts): its reader answers 408 and closes. */
export function onBodyExpired(reply: ReplyImpl): void {
  const onTimeout = reply.onBodyTimeout
  if (onTimeout !== null) onTimeout()
}
