import type { EventEmitter } from 'node:events'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { errorPayloadSerializer } from './error-payload'
import { runtimeError } from '../errors/runtime-codes'
import { lingerWhenClosed } from './lingering-close'
import { isHttp2 } from './http2-request'

/**
 * `Expect: 100-continue`: Node would send `100 Continue` at once, inviting a body the answer may
 * not need (a 413 from the declared length, a 415, a 401 from a guard, a 404). Instead the
 * invitation goes out when the body is about to be read (pipeline.ts), and a reply written
 * without it closes the connection (unread-body.ts): the client may or may not send the body
 * it was never invited to send, so nothing after it on the connection can be framed.
 */
const awaitingContinue = new WeakSet<IncomingMessage>()

/**
 * The server's 'checkContinue' listener: `deferred` (which marks the request, then serves it as
 * any other) while Enclave's own listener is the server's only 'request' listener. Where something
 * took that event over (socket.io's engine.io, a cluster wrapper: they keep Enclave's listener and
 * call it for what they do not serve themselves), the request goes where Node would send it: an
 * immediate `100 Continue` and the 'request' event, since only Enclave's listener knows when its
 * body is wanted.
 */
export function continueListener(server: EventEmitter, own: RequestListener, deferred: RequestListener): RequestListener {
  return (raw, res) => {
    const listeners = server.listeners('request')
    if (listeners.length === 1 && listeners[0] === own) { deferred(raw, res); return }
    res.writeContinue()
    server.emit('request', raw, res)
  }
}

/** Marks a 100-continue request whose body is invited only when it is read (`inviteBody`). */
export function deferContinue(raw: IncomingMessage): void {
  awaitingContinue.add(raw)
}

/** The body is about to be read: invite it, once, if the client waits for that. */
export function inviteBody(raw: IncomingMessage, res: ServerResponse): void {
  if (awaitingContinue.delete(raw) && !res.headersSent) res.writeContinue()
}

/** True while a 100-continue request has not been invited to send its body. */
export function bodyNeverInvited(raw: IncomingMessage): boolean {
  return awaitingContinue.has(raw)
}

/**
 * An `Expect` other than 100-continue (the server's 'checkExpectation' listener): 417 in the JSON
 * error shape, where Node would answer a bare 417. Before routing, as the missing-Host 400.
 */
export function answerExpectationFailed(raw: IncomingMessage, res: ServerResponse): void {
  const error = runtimeError('ENC_ERR_REQUEST_EXPECTATION_FAILED')
  const body = errorPayloadSerializer({ statusCode: 417, code: error.code, error: 'Expectation Failed', message: error.message })
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) }
  // Whether the client sends the announced body anyway cannot be known: nothing after it can be framed.
  if (raw.headers['transfer-encoding'] !== undefined || (raw.headers['content-length'] ?? '0') !== '0') {
    headers.connection = 'close'
    // A client that sends it anyway must get to read the 417 before the close (lingering-close.ts).
    if (!raw.complete && raw.socket !== null && !isHttp2(raw)) lingerWhenClosed(raw.socket)
  }
  res.writeHead(417, headers)
  res.end(body)
}
