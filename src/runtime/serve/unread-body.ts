import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Http2ServerResponse } from 'node:http2'
import type { Socket } from 'node:net'
import type { ReplyImpl } from './reply'
import { bodyNeverInvited } from './expect'
import { lingerWhenClosed } from './lingering-close'
import { isHttp2 } from './http2-request'
import { declaredLength } from './declared-length'

/**
 * A reply may go out before its request's body has arrived (a 414, a 415, a 401 from an
 * onRequest guard, a GET with a body nobody reads). Node then reads and discards the rest to
 * keep the connection for the next request: cheap for a sized body no larger than the limit.
 * A larger or unsized (chunked) one could keep the socket busy for as long as the client
 * likes, so such a reply closes the connection instead.
 */
export function undrainableBody(raw: IncomingMessage, limit: number): boolean {
  if (raw.headers['transfer-encoding'] !== undefined) return true
  return declaredLength(raw.headers) > limit
}

/** Connections whose request was answered while its body was still arriving, with that answer (weak: a closed socket leaves by itself). */
const answeredMidBody = new WeakMap<Socket, { raw: IncomingMessage; res: ServerResponse }>()

/**
 * Called as the head is written: a request not received in full yet gets `Connection: close`
 * when what is left of its body is not worth draining, and its socket is remembered, so that a
 * timeout or a bad chunk later in that body does not earn the client a second response.
 * A body a 100-continue client was never invited to send (expect.ts) closes the connection too.
 * `complete` is Node's flag; inject()'s request has none and is skipped.
 */
export function noteUnreadBody(reply: ReplyImpl): void {
  const raw = reply.request.raw
  const headers = raw.headers
  if (headers['transfer-encoding'] === undefined && headers['content-length'] === undefined) return
  // An HTTP/2 stream's unread body ends with the stream (RST_STREAM): no connection to close or linger on.
  if (isHttp2(raw)) return
  if (undrainableBody(raw, reply.route.bodyLimit ?? reply.route.serve.limits.bodyLimit) || (bodyNeverInvited(raw) && headers['content-length'] !== '0')) reply.headerMap.connection = 'close'
  if (raw.socket !== null) {
    answeredMidBody.set(raw.socket, { raw, res: reply.raw })
    // If this answer closes the connection, the client is likely still sending: close it lingering.
    lingerWhenClosed(raw.socket)
  }
}

/** The answer already given to the request in progress on `socket` while its body is still arriving, if any. */
export function answerBeforeBodyEnd(socket: Socket): ServerResponse | undefined {
  const entry = answeredMidBody.get(socket)
  return entry !== undefined && !entry.raw.complete ? entry.res : undefined
}

/**
 * Ends what carries the body this reply gives up on (a 413, a 408, a 415 to an endless body):
 * over HTTP/1.1 the connection (`Connection: close`); over HTTP/2 only the stream, reset with
 * NO_ERROR once the answer is out (RFC 9113 §8.1: a complete response, then "stop sending").
 * Node resets such a stream by itself only when nothing ever read its body: after a body read in
 * part (the 413 at the limit, the 408 of bodyTimeout) it waited for the client to end it, which
 * held one of the session's concurrent streams for as long as the client kept sending. A
 * Connection header is no use there: Node drops it with an UnsupportedWarning on stderr.
 */
export function closeAfterReply(reply: ReplyImpl): void {
  if (isHttp2(reply.request.raw)) resetStreamAfterAnswer(reply.raw as unknown as Http2ServerResponse)
  else reply.header('connection', 'close')
}

function resetStreamAfterAnswer(res: Http2ServerResponse): void {
  // The stream's own 'finish' (the response's comes only once the stream has closed): the answer
  // is handed to the session, which sends its frames before the reset, as for the reset Node
  // gives an unread stream at the same event. close()'s code is NO_ERROR.
  const stream = res.stream
  stream.once('finish', () => { if (!stream.closed && !stream.destroyed) stream.close() })
}
