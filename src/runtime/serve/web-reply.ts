import { Readable } from 'node:stream'
import { isAnyArrayBuffer } from 'node:util/types'
import type { ReadableStream } from 'node:stream/web'
import { runtimeError } from '../errors/runtime-codes'
import type { ReplyImpl } from './reply'
import { replyAt } from './reply-at'
import { markWebSource } from './web-stream-queue'

/**
 * Payloads of the web platform (fetch's `Response`, its `body` ReadableStream, typed arrays), sent
 * as Fastify 5 sends them. Fastify 3 (and Enclave before) wrote them as JSON: `{}` with a 200, the
 * body silently lost. Everything here is reached only for an object that has a Symbol.toStringTag,
 * which plain objects and arrays (the JSON replies) have not.
 */

interface WebResponse {
  readonly status?: unknown
  readonly headers?: unknown
  readonly body: unknown
  readonly bodyUsed?: unknown
}

/** What a web payload is sent as: its bytes (a typed array) or itself (a web stream, a Response). */
export interface WebPayload {
  readonly body: object
  readonly response: boolean
}

/**
 * The web payload `payload` is, or null for a JSON reply. Null at once for an object without a
 * Symbol.toStringTag (plain objects and arrays: the one test JSON replies pay). Getters that
 * throw (the tag's, getReader's: user classes) make it a JSON reply, as it was before web
 * payloads were recognised, instead of a throw out of send().
 */
export function webPayloadOf(payload: object): WebPayload | null {
  try {
    if ((payload as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === undefined) return null
    const bytes = webBytes(payload)
    if (bytes !== null) return { body: bytes, response: false }
    if (isFetchResponse(payload)) return { body: payload, response: true }
    return isWebStream(payload) ? { body: payload, response: false } : null
  } catch {
    return null
  }
}

/** The bytes of a TypedArray, DataView or ArrayBuffer (not a Buffer: the caller has that one), or null. */
export function webBytes(payload: object): Buffer | null {
  if (ArrayBuffer.isView(payload)) return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)
  // Fastify 5 writes a bare ArrayBuffer as `{}`: the bytes are what was meant. Not instanceof: an
  // ArrayBuffer from another realm (a vm context, a worker's transfer) is one too, as its views are.
  if (isAnyArrayBuffer(payload)) return Buffer.from(payload)
  return null
}

/** node:stream/web's ReadableStream (or a look-alike), detected as Fastify 5 does. */
export function isWebStream(payload: unknown): payload is ReadableStream {
  return typeof payload === 'object' && payload !== null && typeof (payload as { getReader?: unknown }).getReader === 'function'
}

/** A fetch Response (undici's, or another with the same tag), detected as Fastify 5 does. */
export function isFetchResponse(payload: unknown): payload is WebResponse {
  return typeof payload === 'object' && payload !== null && Object.prototype.toString.call(payload) === '[object Response]'
}

/**
 * What write() sends for a payload that is neither a string, a Buffer nor a Node stream: a
 * Response gives the reply its status and headers (over the reply's own, as in Fastify 5) and then
 * its body; a web stream becomes a Node stream, so that it gets every guard Node streams get
 * (staged head, Content-Length check, errors before and after the first byte, HEAD, client abort:
 * destroying the Node side cancels the web stream). Anything else is returned as it is. Throws
 * the coded error for a body already read or a stream locked by a reader.
 */
export function nodeBody(reply: ReplyImpl, payload: object): unknown {
  let body: unknown = payload
  if (isFetchResponse(payload)) {
    if (typeof payload.status === 'number') reply.code(payload.status)
    const headers = payload.headers as { forEach?: unknown } & Iterable<[string, string]> | null | undefined
    if (typeof headers === 'object' && headers !== null && typeof headers.forEach === 'function') {
      const entries = [...headers]
      const dropped = hopByHopOf(entries)
      for (const [name, value] of entries) if (!dropped.has(name.toLowerCase())) reply.header(name, value)
    }
    body = payload.body
    if (body === null || body === undefined) return null
    if (payload.bodyUsed === true) throw runtimeError('ENC_ERR_REPLY_RESPONSE_BODY_USED', { at: replyAt(reply) })
  }
  if (!isWebStream(body)) return body
  if (body.locked) throw runtimeError('ENC_ERR_REPLY_WEB_STREAM_LOCKED', { at: replyAt(reply) })
  if (reply.headerMap['content-type'] === undefined && !reply.raw.hasHeader('content-type')) reply.headerMap['content-type'] = 'application/octet-stream'
  // Object mode, so that its chunks are checked on the way (stream-chunks.ts): a web stream of
  // objects is as easy to build as a Node one, and must be refused with a coded error too.
  const node = Readable.fromWeb(body, { objectMode: true })
  // A source that enqueues regardless of desiredSize holds its chunks in the web stream, where the drain watch must look (web-stream-queue.ts).
  markWebSource(node, body)
  return node
}

/**
 * The fields of a Response's headers that describe its own connection, not the message (RFC 9110
 * 7.6.1, which a proxy must drop): a Response is often fetch()'s, from another server, and its
 * `transfer-encoding: chunked` or `connection: close` would frame or end this connection wrongly.
 * The names its Connection field lists go too. Content-Length stays: a stream body that does not
 * match it is cut and logged (ENC_ERR_REPLY_STREAM_LENGTH), as any stream reply's.
 */
function hopByHopOf(entries: ReadonlyArray<readonly [string, string]>): Set<string> {
  const dropped = new Set(HOP_BY_HOP)
  for (const [name, value] of entries) {
    if (name.toLowerCase() !== 'connection') continue
    for (const listed of String(value).split(',')) dropped.add(listed.trim().toLowerCase())
  }
  return dropped
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']

/** A web payload that will not be written (the client left, a 204): its source is released. */
export function cancelWebPayload(payload: object): void {
  // A look-alike (a getReader() method under a Symbol.toStringTag) may have no cancel(), or
  // getters and a cancel() that throw: this runs on the error path, where a throw is uncaught.
  try {
    const body = isFetchResponse(payload) ? payload.body : payload
    if (!isWebStream(body) || body.locked) return
    const cancel = (body as { cancel?: unknown }).cancel
    if (typeof cancel === 'function') Promise.resolve(cancel.call(body)).catch(() => undefined)
  } catch {
    // Nothing more can be released.
  }
}
