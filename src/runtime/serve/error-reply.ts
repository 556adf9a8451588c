import { STATUS_CODES, type ServerResponse } from 'node:http'
import { runtimeError } from '../errors/runtime-codes'
import { runObserverHooks } from './hook-runner'
import { isThenable } from '../shared/thenable'
import type { ReplyImpl } from './reply'
import { commit, isOpen, reopen, writeHead } from './reply-state'
import { errorPayloadSerializer } from './error-payload'
import type { ErrorHandler, Logger, Scope } from '../types'

export interface ErrorHandlerEntry {
  readonly fn: ErrorHandler
  readonly scope: Scope
}

type AnyError = Error & { statusCode?: unknown; status?: unknown; expose?: unknown; code?: unknown; headers?: unknown }

/**
 * Turns anything thrown into an Error. A thrown string or plain object still ends as the JSON
 * error shape; a plain object's own `statusCode`/`status`/`code`/`message` are kept, as a user would expect.
 */
export function toError(thrown: unknown): AnyError {
  if (thrown instanceof Error) return thrown
  if (thrown !== null && typeof thrown === 'object') {
    const source = thrown as Record<string, unknown>
    const error = new Error(typeof source.message === 'string' ? source.message : 'Non-error value thrown') as AnyError
    if (source.statusCode !== undefined) error.statusCode = source.statusCode
    if (source.status !== undefined) error.status = source.status
    if (source.code !== undefined) error.code = source.code
    return error
  }
  return new Error(`Non-error value thrown: ${String(thrown)}`, { cause: thrown })
}

/**
 * Entry point for every failure of a request: onError hooks (once), then the error handlers
 * nearest first; a handler that throws passes its error to the next one up; the built-in
 * default answers last.
 */
export function handleError(reply: ReplyImpl, thrown: unknown): void {
  const error = toError(thrown)
  const res = reply.raw
  if (res.headersSent || res.destroyed) {
    reply.request.log.error(reply.route.serve.idFields(reply.request.id, { err: error }), 'error after the response had started')
    // Mid-body, a closed connection is the only honest signal left. A response already ended
    // is complete: destroying now would cut the keep-alive connection under the next request.
    if (!res.destroyed && !res.writableEnded) res.destroy()
    return
  }
  reopen(reply)
  reply.customSerializer = null
  const hooks = reply.route.onError
  if (hooks !== null && !reply.onErrorRan) {
    reply.onErrorRan = true
    runObserverHooks(hooks, reply.request, reply, error, true, () => dispatch(reply, error))
    return
  }
  dispatch(reply, error)
}

/**
 * A stage of the request failed (a hook, the handler, a body parser). It goes to the error
 * handlers, never through `reply.send`, so that a thrown string or plain object is an error
 * reply, not a 200 with that value as the body. Once the reply went out there is nobody left
 * to answer: the failure is logged.
 */
export function replyWithError(reply: ReplyImpl, thrown: unknown): void {
  if (!isOpen(reply)) {
    reply.request.log.error(reply.route.serve.idFields(reply.request.id, { err: thrown }), 'a request stage failed after the reply was sent')
    return
  }
  handleError(reply, thrown)
}

function dispatch(reply: ReplyImpl, error: AnyError): void {
  const handlers = reply.route.errorHandlers
  const index = reply.errorDepth
  reply.errorDepth = index + 1
  if (index === handlers.length) { defaultErrorReply(reply, error); return }
  // The built-in reply itself failed, in a preSerialization or onSend hook that fails on every
  // payload: sending once more through the hooks would loop forever, so write it directly.
  if (index > handlers.length) { writeFallback(reply, error); return }
  delete reply.headerMap['content-type']
  delete reply.headerMap['content-length']
  // As in Fastify 3: a handler that sends without choosing a status answers with the error's.
  reply.statusCode = statusOf(error, reply.statusCode)
  const { fn, scope } = handlers[index]
  let result: unknown
  try {
    result = fn.call(scope, error as Error & Record<string, unknown>, reply.request as never, reply as never)
  } catch (thrownAgain) {
    handleError(reply, thrownAgain)
    return
  }
  if (isThenable(result)) {
    result.then((value) => {
      if (reply.sent || value === reply) return
      if (value !== undefined) { reply.send(value); return }
      // Like a handler (pipeline.ts): an async error handler that sends nothing would leave the
      // client hanging; the next handler up answers instead.
      handleError(reply, runtimeError('ENC_ERR_REPLY_NOTHING_SENT', { errorHandlerOf: scope.path, handling: error.message }, { cause: error }))
    }, (thrownAgain: unknown) => { if (!reply.sent) handleError(reply, thrownAgain) })
  } else if (result !== undefined && !reply.sent) {
    reply.send(result)
  }
}

/** Status from `error.statusCode` / `error.status` when it is 4xx/5xx, else the reply's own if >= 400, else 500. */
export function statusOf(error: AnyError, current: number): number {
  const declared = error.statusCode ?? error.status
  if (typeof declared === 'number' && Number.isInteger(declared) && declared >= 400 && declared <= 599) return declared
  return current >= 400 && current <= 599 ? current : 500
}

/** The built-in payload for an error, logged with the request id: 5xx show only the reason phrase unless `expose`. */
function defaultPayload(reply: ReplyImpl, error: AnyError): { statusCode: number; code: string | undefined; error: string; message: string } {
  const status = statusOf(error, reply.statusCode)
  const reason = STATUS_CODES[status] ?? 'Error'
  const exposed = status < 500 || error.expose === true
  const log = reply.request.log
  const serve = reply.route.serve
  if (status >= 500) log.error(serve.idFields(reply.request.id, { err: error }), error.message)
  else log.info(serve.idFields(reply.request.id, { statusCode: status, code: error.code }), error.message)
  return {
    statusCode: status,
    code: exposed && typeof error.code === 'string' ? error.code : undefined,
    error: reason,
    message: exposed && error.message !== '' ? error.message : reason,
  }
}

/**
 * The built-in last handler. A 5xx shows only the reason phrase unless the error is marked
 * `expose`: its message and stack go to the log with the request id, never to the client.
 */
export function defaultErrorReply(reply: ReplyImpl, error: AnyError): void {
  const payload = defaultPayload(reply, error)
  if (error.headers !== null && typeof error.headers === 'object') reply.headers(error.headers as Record<string, string>)
  reply.statusCode = payload.statusCode
  reply.headerMap['content-type'] = 'application/json; charset=utf-8'
  reply.customSerializer = errorPayloadSerializer
  reply.send(payload)
}

/**
 * The last resort, when even the built-in reply failed (a payload hook that always throws, a
 * header Node refuses) or could not finish in time (handler-timeout.ts): only the headers this
 * function sets, straight to the socket. State `Written` makes a payload still on its way
 * through the hooks a no-op when it arrives (send.ts).
 */
export function writeFallback(reply: ReplyImpl, error: AnyError): void {
  const payload = defaultPayload(reply, error)
  const body = errorPayloadSerializer(payload)
  if (reply.deadlineList !== null) reply.route.serve.deadlines.leave(reply)
  commit(reply)
  reply.statusCode = payload.statusCode
  reply.headerMap = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) }
  writeHead(reply)
  reply.raw.end(body)
}

/** A failure before the request and reply objects exist (genReqId, a decorator factory). */
export function answerWithoutReply(res: ServerResponse, log: Logger, error: unknown): void {
  log.error({ err: error }, 'the request could not be set up')
  const body = errorPayloadSerializer({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) })
  res.end(body)
}
