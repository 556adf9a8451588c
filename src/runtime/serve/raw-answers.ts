import { STATUS_CODES, type ServerResponse } from 'node:http'
import { runtimeError } from '../errors/runtime-codes'
import type { Logger } from '../types'
import { errorPayloadSerializer } from './error-payload'
import { isHttp2 } from './http2-request'
import { lingerWhenClosed } from './lingering-close'
import type { HeadProblem } from './request-head'

// Error answers written on the raw response, before a request has its Request and Reply (or
// instead of them): no hook or error handler runs, the JSON error shape is written as it is.

/**
 * `return503OnClosing`: a request that arrives once close() has started is refused before any
 * hook runs (Fastify 3), and its connection is closed after the answer.
 */
export function answerClosing(res: ServerResponse): void {
  const error = runtimeError('ENC_ERR_SERVER_CLOSING')
  const body = errorPayloadSerializer({ statusCode: 503, code: error.code, error: 'Service Unavailable', message: error.message })
  res.writeHead(503, closingHead(res, body))
  lingerIfUnread(res)
  res.end(body)
}

const HEAD_CODES = {
  'no-host': 'ENC_ERR_REQUEST_NO_HOST',
  'bad-host': 'ENC_ERR_REQUEST_BAD_HOST',
  'transfer-coding': 'ENC_ERR_REQUEST_TRANSFER_CODING',
  malformed: 'ENC_ERR_REQUEST_MALFORMED',
} as const

/**
 * A request whose header lines break a rule checked before routing (serve/request-head.ts): a
 * Host missing (HTTP/1.1), repeated or no host[:port] is a 400 (RFC 9112 §3.2); a transfer
 * coding other than chunked a 501 (RFC 9112 §6.1); a request Node cannot serve (a PRI one, see
 * pipeline.ts) a 400 ENC_ERR_REQUEST_MALFORMED. Node would answer a missing Host itself with
 * an empty body (requireHostHeader), outside the JSON error shape: the server turns that off and
 * answers here, before any hook, closing the connection (the body, if any, is never read).
 */
export function answerHeadRefused(res: ServerResponse, problem: HeadProblem): void {
  const error = runtimeError(HEAD_CODES[problem])
  const status = problem === 'transfer-coding' ? 501 : 400
  const body = errorPayloadSerializer({ statusCode: status, code: error.code, error: STATUS_CODES[status] as string, message: error.message })
  res.writeHead(status, closingHead(res, body))
  lingerIfUnread(res)
  res.end(body)
}

/**
 * The head of an answer that closes its HTTP/1 connection. HTTP/2 has no Connection header: Node
 * would drop it with an UnsupportedWarning on stderr, and the stream ends by itself.
 */
function closingHead(res: ServerResponse, body: string): Record<string, string> {
  const head: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) }
  if (!isHttp2(res.req)) head.connection = 'close'
  return head
}

/** These answers close the connection; a client still sending the body must get to read them first (lingering-close.ts). */
function lingerIfUnread(res: ServerResponse): void {
  // An HTTP/2 stream has no connection of its own to linger on (its socket is the session's).
  if (res.req.complete === false && res.socket !== null && !isHttp2(res.req)) lingerWhenClosed(res.socket)
}

/** A failure before the request and reply objects exist (genReqId, a decorator factory). */
export function answerWithoutReply(res: ServerResponse, log: Logger, error: unknown): void {
  log.error({ err: error }, 'the request could not be set up')
  const body = errorPayloadSerializer({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) })
  res.end(body)
}
