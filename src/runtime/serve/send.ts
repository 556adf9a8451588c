import type { Readable } from 'node:stream'
import type { FrameworkError } from '../errors/framework-error'
import { runtimeError, runtimeErrors } from '../errors/runtime-codes'
import { asOwnFailure, handleError } from './error-reply'
import { isHttp2 } from './http2-request'
import { runPayloadHooks } from './hook-runner'
import { endDeadline } from './handler-timeout'
import type { ReplyImpl } from './reply'
import { accept, commit, isWritten, reopen, stageHead, uncommit, writeHead } from './reply-state'
import { pickSerializer } from '../schemas'
import { DeferredBuildError } from '../schemas/deferred-serializer'
import { schemaBuildFailure } from './schema-build-failure'
import { declaredLengthGuard } from './stream-length'
import { pumpCheckedChunks } from './stream-chunks'
import { isEventStream, trackEventStream } from './event-streams'
import { responseGone } from './response-gone'
import { describeValue } from '../schemas/schema-codes'
import { replyAt } from './reply-at'
import { cancelWebPayload, nodeBody, webPayloadOf, type WebPayload } from './web-reply'

const JSON_TYPE = 'application/json; charset=utf-8'
const TEXT_TYPE = 'text/plain; charset=utf-8'
const BINARY_TYPE = 'application/octet-stream'

function isStream(payload: object): payload is Readable {
  return typeof (payload as { pipe?: unknown }).pipe === 'function'
}

function warnAlreadySent(reply: ReplyImpl): void {
  reply.request.log.warn(reply.route.serve.idFields(reply.request.id, { code: 'ENC_ERR_REPLY_ALREADY_SENT' }), runtimeErrors.ENC_ERR_REPLY_ALREADY_SENT.message({}))
}

/**
 * reply.send(): Errors go to the error handlers; strings, Buffers and streams are sent as they
 * are; anything else is JSON through preSerialization, then the reply's serializer, the scope's
 * setReplySerializer(), the route's response schema for the status, or JSON.stringify. Every payload then passes onSend.
 */
export function sendReply(reply: ReplyImpl, payload: unknown): void {
  if (reply.inOnError) {
    // Fastify throws too (FST_ERR_SEND_INSIDE_ONERR): onError observes, the error reply goes on.
    // Logged as well, since a hook may catch it and carry on as if it had answered.
    const refused = runtimeError('ENC_ERR_REPLY_SEND_INSIDE_ON_ERROR', { at: replyAt(reply) })
    reply.request.log.error({ reqId: reply.request.id, err: refused }, 'reply.send() inside an onError hook; refused')
    throw refused
  }
  if (reply.sent) {
    warnAlreadySent(reply)
    return
  }
  if (payload instanceof Error && !reply.errorPayload) { handleError(reply, payload); return }
  accept(reply)
  const headers = reply.headerMap
  // A type set on reply.raw (a middleware's res.setHeader) is the reply's type, as in Fastify 3.
  if (headers['content-type'] === undefined && reply.raw.hasHeader('content-type')) headers['content-type'] = reply.raw.getHeader('content-type') as string
  if (payload === undefined || typeof payload === 'string') {
    if (payload !== undefined) {
      const type = headers['content-type']
      if (type === undefined) headers['content-type'] = TEXT_TYPE
      // As Fastify 3: a string sent with a type chosen goes through reply.serializer() too, and
      // the type stays as chosen.
      else if (reply.customSerializer !== null) { serializeStage(reply, payload); return }
      else if (typeof type === 'string') headers['content-type'] = withJsonCharset(type)
    }
    onSendStage(reply, payload)
    return
  }
  if (typeof payload === 'object' && payload !== null) {
    if (Buffer.isBuffer(payload) || isStream(payload)) {
      if (headers['content-type'] === undefined) headers['content-type'] = BINARY_TYPE
      onSendStage(reply, payload)
      return
    }
    // The one test the JSON replies pay: plain objects and arrays have no Symbol.toStringTag, where
    // typed arrays, ReadableStream and Response have one (Fastify 5 sends those, not their JSON).
    // (Read guarded: a tag getter that throws is a JSON reply, as before, not an uncaught throw.)
    const web = webPayloadOf(payload)
    if (web !== null) { sendWebPayload(reply, web); return }
  }
  const type = headers['content-type']
  if (type !== undefined && reply.customSerializer === null) {
    // null under a type that is not JSON is no body at all, as in Fastify 3: `reply.type('text/plain').send(null)`.
    if (payload === null && (typeof type !== 'string' || !type.includes('json'))) {
      onSendStage(reply, payload)
      return
    }
    // An object is JSON; sent with another type it would be mislabelled (Fastify 3 refuses it too).
    if (typeof type !== 'string' || !type.includes('json')) {
      // An onSend hook may still make it text (an object rendered under text/html): as in Fastify 3,
      // the hooks see the value itself and the refusal waits for what they give.
      if (reply.route.onSend !== null) { onSendStage(reply, payload, String(type)); return }
      reopen(reply)
      handleError(reply, runtimeError('ENC_ERR_REPLY_INVALID_PAYLOAD_TYPE', { at: replyAt(reply), contentType: String(type) }))
      return
    }
    headers['content-type'] = withJsonCharset(type)
  }
  const route = reply.route
  if (route.preSerialization !== null && !reply.errorPayload) {
    runPayloadHooks(route.preSerialization, reply.request, reply, payload, (p) => serializeStage(reply, p), (e) => failSend(reply, e))
  } else {
    serializeStage(reply, payload)
  }
}

/**
 * Fastify 5's rules: a typed array is its bytes (octet-stream unless a type is set), under any
 * type and whatever the response schema says; a web stream is a stream reply; a Response goes to
 * onSend as it is and is unwrapped at write() (web-reply.ts). None is serialized, as Fastify 5.
 */
function sendWebPayload(reply: ReplyImpl, web: WebPayload): void {
  // A Response's own headers (its type among them) are applied at write(): no default here.
  if (reply.headerMap['content-type'] === undefined && !web.response) reply.headerMap['content-type'] = BINARY_TYPE
  onSendStage(reply, web.body)
}

/**
 * What a serializer gave instead of text. JSON.stringify gives undefined for a function or a Symbol
 * (Fastify 3 sends an empty 200): the payload is at fault then, not a serializer the user never set.
 */
function invalidSerializedPayload(reply: ReplyImpl, payload: unknown, text: unknown): FrameworkError {
  const byDefault = reply.customSerializer === null && reply.route.replySerializer === null
  if (byDefault && text === undefined && (typeof payload === 'function' || typeof payload === 'symbol')) {
    return runtimeError('ENC_ERR_REPLY_INVALID_PAYLOAD_TYPE', { at: replyAt(reply), status: reply.statusCode, noJson: `a ${typeof payload}` })
  }
  const got = text === null ? 'null' : Array.isArray(text) ? 'an array' : typeof text
  return runtimeError('ENC_ERR_REPLY_INVALID_PAYLOAD_TYPE', { at: replyAt(reply), status: reply.statusCode, got })
}

function serializeStage(reply: ReplyImpl, payload: unknown): void {
  let text: unknown
  try {
    if (reply.customSerializer !== null) {
      text = reply.customSerializer(payload)
    } else if (reply.route.replySerializer !== null) {
      // setReplySerializer() wins over the response schema, as in Fastify 3 (lib/reply.js).
      text = reply.route.replySerializer(payload, reply.statusCode)
    } else {
      const serialize = reply.route.serializers === null ? null : pickSerializer(reply.route.serializers, reply.statusCode)
      text = serialize === null ? JSON.stringify(payload) : serialize(payload)
    }
  } catch (error) {
    // A lazy route's serializer for this status, built now, did not compile: the payload is not at fault.
    failSend(reply, error instanceof DeferredBuildError ? schemaBuildFailure(reply.route, error.cause) : serializationError(reply, error))
    return
  }
  // As Fastify 3 (FST_ERR_REP_INVALID_PAYLOAD_TYPE): a serializer's text is a string or a Buffer, nothing else.
  if (typeof text !== 'string' && !Buffer.isBuffer(text)) {
    failSend(reply, invalidSerializedPayload(reply, payload, text))
    return
  }
  // reply.serializer() output is whatever its author made it: no JSON type is implied (Fastify).
  if (reply.headerMap['content-type'] === undefined && reply.customSerializer === null) reply.headerMap['content-type'] = JSON_TYPE
  onSendStage(reply, text)
}

function serializationError(reply: ReplyImpl, cause: unknown): FrameworkError {
  const message = cause instanceof Error ? cause.message : String(cause)
  // The serializer's message is in ours already; as a `cause` too, pino's err serializer would
  // print it twice ("...: message: message"), and its stack points into generated code.
  const hooked = reply.route.preSerialization !== null && !reply.errorPayload
  const error = runtimeError('ENC_ERR_REPLY_SERIALIZATION', { at: replyAt(reply), status: reply.statusCode, reason: message, hooked })
  // Which response failed, for error handlers (Fastify 4's error.serialization).
  Object.defineProperty(error, 'serialization', { value: { method: reply.request.method, url: reply.route.path ?? reply.request.url, statusCode: reply.statusCode }, enumerable: false })
  return error
}

/** `application/json` (and `+json` types) get `; charset=utf-8` when they name no charset, as Fastify does. */
function withJsonCharset(type: string): string {
  return type.includes('json') && !type.includes('charset') ? `${type}; charset=utf-8` : type
}

/** What write() sends as it is: no body, text, bytes, a stream, a web payload. */
function isSendable(p: unknown): boolean {
  if (p === null || p === undefined || typeof p === 'string') return true
  return typeof p === 'object' && (Buffer.isBuffer(p) || isStream(p) || webPayloadOf(p) !== null)
}

/** `untyped`: the payload is a value with no text form under that content type, refused unless the hooks made it text. */
function onSendStage(reply: ReplyImpl, payload: unknown, untyped?: string): void {
  const hooks = reply.route.onSend
  if (hooks === null) { write(reply, payload); return }
  // onSend hooks read the status on raw too (@fastify/circuit-breaker): code() keeps it in step,
  // and this covers `reply.statusCode = 503`, a setter of raw.statusCode in Fastify.
  reply.raw.statusCode = reply.statusCode
  const done = untyped === undefined ? (p: unknown) => write(reply, p) : (p: unknown) => {
    if (isSendable(p)) write(reply, p)
    else failSend(reply, runtimeError('ENC_ERR_REPLY_INVALID_PAYLOAD_TYPE', { at: replyAt(reply), contentType: untyped }))
  }
  // A hook that fails on a 4xx payload (an error reply's, say) must not send its message under that 4xx.
  runPayloadHooks(hooks, reply.request, reply, payload, done, (e) => failSend(reply, isWritten(reply) ? e : asOwnFailure(reply, e)))
}

/** A failure after send() was accepted: reopen the reply so that the error handlers can answer. */
function failSend(reply: ReplyImpl, error: unknown): void {
  // The handler timeout already answered while this payload was in the hooks: nothing to reopen.
  if (isWritten(reply)) {
    reply.request.log.error(reply.route.serve.idFields(reply.request.id, { err: error }), 'sending a reply failed after the reply was written')
    return
  }
  reopen(reply)
  handleError(reply, error)
}

/** A failure inside write() itself, after it marked the reply written: the same, reopened. */
function failWrite(reply: ReplyImpl, error: unknown): void {
  uncommit(reply)
  failSend(reply, error)
}

function write(reply: ReplyImpl, payload: unknown): void {
  const res = reply.raw
  // A payload that arrives after the handler timeout wrote its 503 past the hooks is dropped.
  if (!commit(reply)) { discard(payload); return }
  endDeadline(reply)
  // The handler answered on reply.raw itself (`reply.raw.end(...)`) and then sent: as Fastify 3, a
  // second answer, logged at warn and ignored (Node would refuse the head: an error line over HTTP,
  // and none under inject, where the ended response also reads as destroyed).
  if (res.writableEnded) { warnAlreadySent(reply); discard(payload); return }
  // The client is gone: nothing to write, but a stream payload (a file, say) must still be closed.
  if (res.destroyed) { discard(payload); return }
  // A Response or web stream (sent, or returned by an onSend hook) becomes its Node form here.
  if (typeof payload === 'object' && payload !== null && !Buffer.isBuffer(payload) && !isStream(payload)) {
    try {
      payload = nodeBody(reply, payload)
    } catch (error) {
      discard(payload)
      failWrite(reply, error)
      return
    }
  }
  const headers = reply.headerMap
  if (payload === undefined || payload === null) {
    // A declared HEAD route announces no length unless its handler does (the length a GET would
    // send), as in Fastify 3: its empty payload says nothing about the GET body. A GET route
    // answering HEAD by itself announces the GET body's, 0 (Fastify 3's exposeHeadRoutes).
    const head = reply.request.method === 'HEAD'
    const announce = !head || (reply.route.implicitHead && headers['content-length'] === undefined)
    if (reply.statusCode !== 204 && reply.statusCode !== 304 && announce) headers['content-length'] = '0'
    if (writeHeadOrFail(reply)) res.end()
    return
  }
  // A 204 or 304 has no body (RFC 9110 §15.3.5, §15.4.5): a payload given with one is dropped,
  // and no length is announced for it (nor a type, for a 204), as Fastify 5 does.
  if (reply.statusCode === 204 || reply.statusCode === 304) {
    delete headers['content-length']
    if (reply.statusCode === 204) delete headers['content-type']
    discard(payload)
    if (writeHeadOrFail(reply)) res.end()
    return
  }
  // A HEAD handler's own Content-Length (the GET body's) is kept over its payload's, as in Fastify 3.
  const keepLength = reply.request.method === 'HEAD' && headers['content-length'] !== undefined && headers['content-length'] !== ''
  if (typeof payload === 'string') {
    if (!keepLength) headers['content-length'] = String(Buffer.byteLength(payload))
  } else if (Buffer.isBuffer(payload)) {
    if (!keepLength) headers['content-length'] = String(payload.length)
  } else if (typeof payload === 'object' && isStream(payload)) {
    writeStream(reply, payload)
    return
  } else {
    failWrite(reply, runtimeError('ENC_ERR_REPLY_SERIALIZATION', {}))
    return
  }
  // A HEAD reply carries the GET reply's headers and no body. Node's own socket drops the body, but
  // inject() (light-my-request) would hand it to the caller: end without it in every case.
  if (writeHeadOrFail(reply)) res.end(reply.request.method === 'HEAD' ? undefined : payload)
}

/** Node refuses some header values (a newline, say) by throwing: that is an error reply too. */
function writeHeadOrFail(reply: ReplyImpl): boolean {
  try {
    writeHead(reply)
    return true
  } catch (error) {
    failHead(reply, error)
    return false
  }
}

/** Node refused the head (a header value with a newline, say): that is an error reply too. */
function failHead(reply: ReplyImpl, error: unknown): void {
  // Node set the refused status's reason phrase before refusing: the error reply needs its own.
  // HTTP/2 has no reason phrase (setting one only prints an UnsupportedWarning).
  if (!isHttp2(reply.request.raw)) reply.raw.statusMessage = ''
  // Node's "Cannot write headers after they are sent" says only what, not why: the message does, once.
  if ((error as { code?: unknown } | null)?.code === 'ERR_HTTP_HEADERS_SENT') {
    failWrite(reply, runtimeError('ENC_ERR_REPLY_INVALID_HEADER', { at: replyAt(reply), started: true }))
    return
  }
  const reason = error instanceof Error ? error.message : String(error)
  failWrite(reply, runtimeError('ENC_ERR_REPLY_INVALID_HEADER',
    { at: replyAt(reply), reason: (error as { code?: unknown } | null)?.code === 'ERR_INVALID_CHAR' ? reason + INVALID_CHAR_HINT : reason }, { cause: error }))
}

// The usual way to get there is a download named after an upload ("日本.pdf"): say how to encode it.
const INVALID_CHAR_HINT = '. A header value takes Latin-1 text without control characters (CR, LF): percent-encode anything else; ' +
  "a file name goes in Content-Disposition as filename*=UTF-8''${encodeURIComponent(name)} (RFC 6266), after an ASCII filename=\"...\" fallback"

function writeStream(reply: ReplyImpl, stream: Readable): void {
  const res = reply.raw
  if (reply.request.method === 'HEAD') { writeHeadStream(reply, stream); return }
  let staged: string[] = []
  // An object-mode stream may give what a response cannot take: its chunks are checked on the way.
  const objectMode = stream.readableObjectMode === true
  // Once headers are out a failure can no longer become an error reply: the honest signal to
  // the client is a connection closed before the end of the body. Before the first byte (the
  // head is only staged until then) it is an error reply, as in Fastify 3.
  let settled = false
  // Set once the source is piped: a source failing before that has written nothing.
  let detach: (() => void) | null = null
  const fail = (error: unknown): void => {
    settled = true
    // Logged here only when no error reply will log it (Fastify 3's line and level).
    if (res.headersSent) {
      reply.request.log.warn(reply.route.serve.idFields(reply.request.id, { err: error }), 'response terminated with an error with headers already sent')
      res.destroy()
      return
    }
    // The error reply answers: whatever the source still gives must not reach the response (under
    // the staged head, or after the error reply's end). Under a length guard the source feeds the
    // guard, not the response: both hops are cut.
    detach?.()
    for (const name of staged) res.removeHeader(name)
    failWrite(reply, error)
  }
  stream.once('error', fail)
  stream.once('end', () => { settled = true })
  try {
    staged = stageHead(reply)
  } catch (error) {
    closeSource(stream)
    for (const name of Object.keys(reply.headerMap)) res.removeHeader(name)
    failHead(reply, error)
    return
  }
  res.once('close', () => { if (stream.destroyed !== true) closeSource(stream) })
  // An event stream's head goes out now, not with its first event (which may be minutes away):
  // the client's EventSource fires 'open' and a test sees the 200 at once. A failure of the
  // stream before its first event then closes the connection instead of answering an error.
  // Read from the staged head: a length set on reply.raw (a middleware's setHeader) goes out too.
  const declared = res.getHeader('content-length')
  const eventStream = declared === undefined && isEventStream(res.getHeader('content-type'))
  if (eventStream) res.flushHeaders()
  // Node would write whatever the stream gives under a length it does not check (stream-length.ts).
  const guard = declared === undefined ? null : declaredLengthGuard(Number(declared), (streamed) => {
    reply.request.log.error(reply.route.serve.idFields(reply.request.id, {
      err: runtimeError('ENC_ERR_REPLY_STREAM_LENGTH', { at: replyAt(reply), declared: String(declared), streamed }),
    }), 'the response stream did not match its Content-Length')
    res.destroy()
    closeSource(stream)
  })
  const dest = guard ?? res
  let stopPiping: () => void
  if (objectMode) {
    stopPiping = pumpCheckedChunks(stream, dest, (chunk) => stream.destroy(runtimeError('ENC_ERR_REPLY_STREAM_CHUNK', { at: replyAt(reply), got: describeValue(chunk) })))
  } else {
    stream.pipe(dest)
    // A legacy stream (the `send` module's SendStream) has pipe() but no unpipe().
    stopPiping = () => { if (typeof stream.unpipe === 'function') stream.unpipe(dest) }
  }
  if (guard === null) detach = stopPiping
  else {
    guard.pipe(res)
    detach = () => { stopPiping(); guard.unpipe(res) }
  }
  // A source destroyed before its end (a hub dropping a slow client, a producer giving up) gives
  // the response nothing more, not even its end: without this the client waited for ever. As
  // Fastify 3 and 5 (pump's premature close): an error reply before the first byte, else the
  // connection is cut, so the client sees an incomplete body, not a complete one.
  // The client leaving closes the source too (closeSource above): no failure then, over HTTP/2
  // either, whose response has no `destroyed` (responseGone reads its stream).
  const onSourceClose = (): void => {
    if (settled || dest.writableEnded || dest.destroyed || responseGone(res)) return
    fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }))
  }
  if (stream.destroyed === true) process.nextTick(onSourceClose); else stream.once('close', onSourceClose)
  // An event stream has no end of its own: close() ends it (a length declared for one is held to instead).
  if (eventStream && dest === res) trackEventStream(reply.route.serve, res, stopPiping, () => closeSource(stream))
}

/**
 * A HEAD reply computed by a GET handler that answers with a stream: the headers go out, the
 * stream is closed unread. An error it still emits (its source failed while opening) is logged,
 * as Fastify 3 does, and touches neither the reply already written nor the connection.
 */
function writeHeadStream(reply: ReplyImpl, stream: Readable): void {
  stream.on('error', (error) => {
    reply.request.log.error(reply.route.serve.idFields(reply.request.id, { err: error }), 'Error on Stream found for HEAD route')
  })
  if (writeHeadOrFail(reply)) reply.raw.end()
  closeSource(stream)
}

/**
 * Stops a source the response no longer reads, in Fastify 3's order: destroy(), else close(),
 * else abort(). Not every stream sent is a stream.Readable: a legacy stream (the `send` module's)
 * or a hand-made source may lack destroy(), and calling it anyway threw from a 'close' listener,
 * an uncaught exception that took the process down.
 */
function closeSource(stream: Readable): void {
  const source = stream as unknown as { destroy?: unknown; close?: unknown; abort?: unknown }
  if (typeof source.destroy === 'function') stream.destroy()
  else if (typeof source.close === 'function') (source.close as (callback: () => void) => void)(() => {})
  else if (typeof source.abort === 'function') (source.abort as () => void)()
}

function discard(payload: unknown): void {
  if (typeof payload !== 'object' || payload === null) return
  if (isStream(payload)) closeSource(payload); else cancelWebPayload(payload)
}
