import type { FrameworkError } from '../errors/framework-error'
import { runtimeError } from '../errors/runtime-codes'
import { asOwnFailure, handleError } from './error-reply'
import { runPayloadHooks } from './hook-runner'
import type { ReplyImpl } from './reply'
import { accept, isWritten, reopen } from './reply-state'
import { pickSerializer } from '../schemas'
import { DeferredBuildError } from '../schemas/deferred-serializer'
import { schemaBuildFailure } from './schema-build-failure'
import { replyAt } from './reply-at'
import { failSend } from './send-failure'
import { isStream } from './stream-source'
import { webPayloadOf, type WebPayload } from './web-reply'
import { warnAlreadySent, write } from './write-payload'
import { serializerIssues } from './serializer-issues'
import { pendingInPayload } from './pending-in-payload'

const JSON_TYPE = 'application/json; charset=utf-8'
const TEXT_TYPE = 'text/plain; charset=utf-8'
const BINARY_TYPE = 'application/octet-stream'

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
      // A promise inside the payload is written as {} by both: a forgotten await, not an answer.
      const pending = typeof text === 'string' ? pendingInPayload(payload, text) : null
      if (pending !== null) {
        failSend(reply, runtimeError('ENC_ERR_REPLY_PENDING_PAYLOAD', { at: replyAt(reply), path: pending }))
        return
      }
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
  const message = (cause instanceof Error ? cause.message : String(cause)) + serializerIssues(cause)
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
