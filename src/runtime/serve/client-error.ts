import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Http2ServerResponse } from 'node:http2'
import type { Socket } from 'node:net'
import { errorPayloadSerializer } from './error-payload'
import { runtimeErrors } from '../errors/runtime-codes'
import type { Logger } from '../types'
import { answerBeforeBodyEnd } from './unread-body'
import { lingeringClose } from './lingering-close'

type ClientErrorCode = 'ENC_ERR_REQUEST_HEADERS_TOO_LARGE' | 'ENC_ERR_REQUEST_TIMEOUT' | 'ENC_ERR_REQUEST_MALFORMED'

/** Node's parser error codes to our stable code (status and message from the table); anything else is a malformed request. */
const clientErrors: Record<string, ClientErrorCode> = {
  HPE_HEADER_OVERFLOW: 'ENC_ERR_REQUEST_HEADERS_TOO_LARGE',
  ERR_HTTP_REQUEST_TIMEOUT: 'ENC_ERR_REQUEST_TIMEOUT',
  HPE_HEADERS_TIMEOUT: 'ENC_ERR_REQUEST_TIMEOUT',
}

/** Connections already given their error answer (weak: a closed socket leaves the set by itself). */
const answered = new WeakSet<Socket>()

/** Node keeps the response being written on the socket; not in its public types. */
type HttpSocket = Socket & { _httpMessage?: (ServerResponse & { req?: { complete?: boolean } }) | null }

/**
 * Errors Node's HTTP parser raises outside any route (oversized headers, a malformed request
 * line, smuggling shapes such as Content-Length with Transfer-Encoding, a request or headers
 * timeout): answered with the JSON error shape, then the connection is closed, since nothing
 * that follows on it can be trusted to be framed right. Written straight to the socket: there
 * is no request object to go through the pipeline with.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // Already destroyed (the client reset it, another listener closed it): nothing can be written,
  // and nothing is left to close (Fastify 3's default handler returns here too).
  if (socket.destroyed) return
  // Node's parser stays failed and reports every later packet again: one answer per connection.
  if (answered.has(socket)) return
  answered.add(socket)
  if (error.code === 'ECONNRESET' || !socket.writable || failedTls(error)) { socket.destroy(); return }
  // The request in progress was answered before its body arrived (a 414, a 401 from a guard):
  // a second, unsolicited response would be read as the answer to the next request.
  const given = answerBeforeBodyEnd(socket)
  if (given !== undefined) { closeOnceAnswered(given, socket); return }
  answerInTurn(error, socket)
}

/**
 * Closes the connection once `given` has gone out. Pipelined, that answer may still wait in
 * Node's queue behind the answers to earlier requests: destroying the socket at once lost them
 * all (GET /a + a POST answered 414 at its head whose chunked body then turned out malformed got
 * no answer at all). An answer that already closes the connection is closed by Node after it.
 */
function closeOnceAnswered(given: ServerResponse, socket: Socket): void {
  if (given.writableFinished) { lingeringClose(socket); return }
  const close = (): void => {
    given.removeListener('finish', close)
    given.removeListener('close', close)
    if (!socket.destroyed && socket.writable) lingeringClose(socket)
  }
  given.once('finish', close)
  given.once('close', close)
}

/**
 * Answers once every request fully received before the bad bytes has had its answer. Node sends
 * pipelined answers in order, one at a time (a queued one may still be running its handler, or be
 * written already and waiting for the socket): this looks again at whichever response Node has
 * moved on to after each one finishes, rather than answering right after the first.
 */
function answerInTurn(error: NodeJS.ErrnoException, socket: Socket, rechecks = 0): void {
  const pending = (socket as HttpSocket)._httpMessage
  // Written out, but Node moves on to the next queued answer only at its 'finish', which follows
  // the write's callback: look again shortly (bounded), or a queued answer would follow our close.
  if (pending !== null && pending !== undefined && pending.writableFinished && rechecks < 8) {
    setImmediate(() => answerInTurn(error, socket, rechecks + 1))
    return
  }
  if (pending !== null && pending !== undefined && !pending.writableFinished) {
    // An earlier request on this connection is fully received and still being answered (a
    // pipelined client): its answer goes out first, then this one, then the close.
    if (pending.req?.complete === true) {
      const after = (): void => {
        pending.removeListener('close', after)
        pending.removeListener('finish', after)
        // Closed without finishing (the connection went): nothing moved on, nothing to wait for.
        if ((socket as HttpSocket)._httpMessage === pending) writeAndClose(error, socket)
        else answerInTurn(error, socket)
      }
      pending.once('finish', after)
      pending.once('close', after)
      return
    }
    // The failure is inside the request being answered (a bad chunk, a timeout mid-body). Once
    // its headers are out, a closed connection is the only honest signal left.
    if (pending.headersSent) { socket.destroy(); return }
  }
  writeAndClose(error, socket)
}

/**
 * A TLS server (https) reports a failed handshake here too: a plain-HTTP request to the TLS port,
 * a client that rejects our certificate, a handshake timeout. No HTTP answer can reach that
 * client (nothing is encrypted yet, and a plain one would be read as garbage): the connection is
 * closed without a word or a log line, as Node does without a listener.
 */
function failedTls(error: NodeJS.ErrnoException): boolean {
  const code = error.code ?? ''
  return code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || (error as { library?: string }).library === 'SSL routines'
}

function writeAndClose(error: NodeJS.ErrnoException, socket: Socket): void {
  writeCodeAndClose(clientErrors[error.code ?? ''] ?? 'ENC_ERR_REQUEST_MALFORMED', socket)
}

/** The JSON error body of a code whose message takes no arguments (status and message from the table). */
function codedBody(code: keyof typeof runtimeErrors): string {
  const definition = runtimeErrors[code]
  const status = definition.status as number
  return errorPayloadSerializer({ statusCode: status, code, error: STATUS_CODES[status] as string, message: (definition.message as () => string)() })
}

/** Writes a coded error straight to a socket Node no longer answers on, then closes it. */
function writeCodeAndClose(code: keyof typeof runtimeErrors, socket: Socket): void {
  if (!socket.writable) { socket.destroy(); return }
  const status = runtimeErrors[code].status as number
  const reason = STATUS_CODES[status] as string
  const body = codedBody(code)
  socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  // The client may still be sending (the rest of a body, more pipelined requests): destroying the
  // socket now could reset the connection before it reads this answer. Bounded in time and bytes.
  lingeringClose(socket)
}

/**
 * A CONNECT request (the server's 'connect' listener; without one Node closes the connection
 * without a word): 501 in the JSON error shape, then the connection is closed. Node has handed
 * the socket over, so the answer is written to it directly.
 */
export function answerConnect(socket: Socket): void {
  // Node took its own error listener off the socket it handed over: a client that reset the
  // connection (EPIPE, ECONNRESET on our write) would otherwise be an uncaught 'error' event,
  // which takes the process down.
  socket.on('error', () => socket.destroy())
  writeCodeAndClose('ENC_ERR_REQUEST_CONNECT_UNSUPPORTED', socket)
}

/**
 * An HTTP/2 CONNECT (the server's 'connect' listener): the same JSON 501 as over HTTP/1, where
 * Node alone answers a bare 405 and routing never sees the stream. Only the stream ends: the
 * connection carries other requests. A CONNECT stream stays open for the client's data, so once
 * the answer is out it is closed (RST_STREAM NO_ERROR, RFC 9113 §8.1: stop sending) rather than
 * left waiting for the session to end.
 */
export function answerHttp2Connect(res: Http2ServerResponse): void {
  const body = codedBody('ENC_ERR_REQUEST_CONNECT_UNSUPPORTED')
  res.writeHead(501, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) })
  res.end(body, () => { if (!res.stream.closed) res.stream.close() })
}

/**
 * The `clientErrorHandler` server option, called for what Node could not parse. It runs from an
 * event listener of Node's server, where a throw would be an uncaught exception that takes the
 * process down: one that throws is logged, and the built-in answer is given instead.
 */
export function callClientErrorHandler<S>(
  handler: (this: S, error: NodeJS.ErrnoException, socket: Socket) => void,
  scope: S,
  log: Logger,
  error: NodeJS.ErrnoException,
  socket: Socket,
): void {
  try {
    handler.call(scope, error, socket)
  } catch (thrown) {
    log.error({ err: thrown }, 'clientErrorHandler threw')
    answerClientError(error, socket)
  }
}
