import { validateHeaderValue } from 'node:http'
import type { ReplyImpl } from './reply'
import { noteUnreadBody } from './unread-body'
import { isHttp2 } from './http2-request'

/**
 * The reply's state machine: the one place its state changes. send.ts, error-reply.ts and
 * handler-timeout.ts drive it through these functions; everyone else reads `reply.sent`.
 *
 *            accept()                 commit()
 *   Open ───────────────▶ Sending ───────────────▶ Written
 *    ▲  ◀───── reopen() ─────┘          │   ▲         (final: bytes are going out;
 *    │   (a payload hook or the         │   │          a later payload is dropped)
 *    │    serializer failed, or an      │   │
 *    │    error handler takes over)     │   └── commit() from Open: writeFallback()
 *    │                                  │       (the fallback 503/500, past every hook)
 *    └── reopen() ◀── uncommit() ◀──────┘
 *         (Node refused the head before a byte went out: Written -> Sending -> Open)
 *
 *   Open:    nothing accepted yet; send() is allowed, `reply.sent` is false.
 *   Sending: send() accepted a payload, it is on its way through preSerialization, the
 *            serializer and onSend; a second send() is logged and ignored.
 *   Written: the head is written (or about to be); nothing can change the answer any more.
 */
export const enum ReplyState { Open = 0, Sending = 1, Written = 2 }

type Stateful = Pick<ReplyImpl, 'state'>

/** send() takes a payload: Open -> Sending. False (and no change) when the reply is not open. */
export function accept(reply: Stateful): boolean {
  if (reply.state !== ReplyState.Open) return false
  reply.state = ReplyState.Sending
  return true
}

/** Back to Open so that the error handlers can answer: from Sending, or from Open itself. */
export function reopen(reply: Stateful): void {
  reply.state = ReplyState.Open
}

/** The head is about to be written: -> Written. False when it already was (the payload is then dropped). */
export function commit(reply: Stateful): boolean {
  if (reply.state === ReplyState.Written) return false
  reply.state = ReplyState.Written
  return true
}

/** writeHead() threw before any byte went out: Written -> Sending, to be reopened for the error reply. */
export function uncommit(reply: Stateful): void {
  reply.state = ReplyState.Sending
}

export function isOpen(reply: Stateful): boolean {
  return reply.state === ReplyState.Open
}

export function isWritten(reply: Stateful): boolean {
  return reply.state === ReplyState.Written
}

/**
 * Writes the status line and headers. While the server is closing, every response asks for its
 * connection to be closed: a keep-alive socket that was busy when close() was called would
 * otherwise stay open until keepAliveTimeout, and close() would wait for it. A reply written
 * before its request's body arrived may close too (unread-body.ts).
 */
export function writeHead(reply: ReplyImpl): void {
  settleFraming(reply)
  reply.raw.writeHead(reply.statusCode, reply.headerMap as Record<string, string>)
}

/**
 * HTTP/2: Node checks no header value, and nghttp2 drops one with CR or LF (a redirect to a URL
 * from the query went out without its Location, a 302 to nowhere) and resets the stream on NUL
 * (the client got no answer). Checked as Node checks them over HTTP/1.1, so either is the same
 * logged 500 (ENC_ERR_REPLY_INVALID_HEADER) on both. An HTTP/1 connection header is refused here
 * too, before anything is staged: Node refuses it only when the head goes out, which for a stream
 * reply is inside the pipe, where the throw was uncaught (the process exited).
 */
// What Node's HTTP/2 mapToHeaders refuses (`connection` it drops itself, with a warning).
const HTTP1_CONNECTION_HEADERS: ReadonlySet<string> = new Set(['transfer-encoding', 'upgrade', 'keep-alive', 'proxy-connection', 'http2-settings'])

function checkHeaderValues(reply: ReplyImpl): void {
  const headers = reply.headerMap
  for (const name in headers) checkHeaderValue(name, headers[name])
  // Headers set on reply.raw (middleware, raw users) go into the same head: checked the same, unless the reply's own replaces them.
  for (const name of reply.raw.getHeaderNames()) if (!(name in headers)) checkHeaderValue(name, reply.raw.getHeader(name))
}

function checkHeaderValue(name: string, value: unknown): void {
  if (HTTP1_CONNECTION_HEADERS.has(name) || (name === 'te' && value !== 'trailers')) {
    throw Object.assign(new TypeError(`HTTP/1 Connection specific headers are forbidden: "${name}"`), { code: 'ERR_HTTP2_INVALID_CONNECTION_HEADERS' })
  }
  if (Array.isArray(value)) for (const one of value) validateHeaderValue(name, String(one))
  else if (value !== undefined) validateHeaderValue(name, String(value))
}

/**
 * The head's last adjustments, for a head written (writeHead) or staged (stageHead) alike: a
 * stream reply's head is staged, and skipping them there let a handler's Transfer-Encoding go out
 * beside a Content-Length (the length guard then cut the chunked body at that length).
 */
function settleFraming(reply: ReplyImpl): void {
  // RFC 9112 §6.2: never both. A Transfer-Encoding the handler set frames the body (Node chunks
  // it), so a Content-Length beside it (the framework's or the handler's) would let a client or
  // proxy that reads the length desynchronise from one that reads the chunks. One that does not
  // end in chunked leaves the body ended only by the connection's close (RFC 9112 §6.3): close it.
  const transferEncoding = reply.headerMap['transfer-encoding']
  if (transferEncoding !== undefined) {
    delete reply.headerMap['content-length']
    // One set on reply.raw would be merged into the head all the same.
    if (reply.raw.hasHeader('content-length')) reply.raw.removeHeader('content-length')
    if (!/chunked[ \t]*$/i.test(String(transferEncoding))) reply.headerMap.connection = 'close'
  }
  // HTTP/2 has no Connection header (Node drops it with a warning): close() sends its sessions GOAWAY instead.
  if (reply.route.serve.closeConnections && !isHttp2(reply.request.raw)) reply.headerMap.connection = 'close'
  if (reply.request.raw.complete === false) noteUnreadBody(reply)
  if (isHttp2(reply.request.raw)) checkHeaderValues(reply)
}

/**
 * The same head, staged on the response (`setHeader`) instead of written: Node writes it with the
 * first chunk of a stream payload, so a stream that fails before its first byte (a file that does
 * not exist) can still be answered with an error reply, as in Fastify 3. Returns the names staged.
 */
export function stageHead(reply: ReplyImpl): string[] {
  settleFraming(reply)
  const res = reply.raw
  const names = Object.keys(reply.headerMap)
  res.statusCode = reply.statusCode
  for (const name of names) res.setHeader(name, reply.headerMap[name] as string)
  return names
}
