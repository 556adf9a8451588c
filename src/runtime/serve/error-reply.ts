import { STATUS_CODES } from 'node:http'
import type { FrameworkError } from '../errors/framework-error'
import { runtimeError } from '../errors/runtime-codes'
import { HttpError } from '../errors/http-error'
import { runObserverHooks, type ObserverFailure } from './hook-runner'
import { isThenable } from '../shared/thenable'
import type { ReplyImpl } from './reply'
import { undefinedError } from './undefined-error'
import { readableThrown } from './unreadable-thrown'
import { sendReturned } from './returned-payload'
import { commit, isOpen, reopen, writeHead } from './reply-state'
import { errorPayloadSerializer } from './error-payload'
import { pickSerializer } from '../schemas'
import { fastifyLogSerializers } from '../shared/log-serializers'
import { guardedLogLine } from './guarded-log'
import { clipLogText } from '../errors/log-text'
import type { ErrorHandler, Scope } from '../types'
import { multipartParseError } from './multipart-parse-error'
import { isPlainObject } from '../errors/plain-object'
import { warnUnloggedFailure, warnUnloggedLateFailure } from './unlogged-failure'
import { cutResponse } from './cut-response'
import { responseGone } from './response-gone'

export interface ErrorHandlerEntry {
  readonly fn: ErrorHandler
  readonly scope: Scope
}

interface BuiltInPayload { statusCode: number; code: string | undefined; error: string; message: string; details?: Record<string, unknown> }

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
 * Entry point for every failure of a request: the error handlers, nearest first, each given the
 * value as it was thrown (a string, a plain object ...); a handler that throws, or sends an error,
 * passes it to the next one up. Last, the built-in reply, after the onError hooks (once): as in
 * Fastify 3, onError runs after the custom error handler, and only when the error reaches the
 * built-in reply (a handler that answers with a payload handled it).
 */
export function handleError(reply: ReplyImpl, thrown: unknown): void {
  // Nothing to hand to an error handler, as in Fastify 3: a coded Error stands in for it.
  if (thrown === undefined || thrown === null) thrown = undefinedError()
  thrown = multipartParseError(readableThrown(thrown))
  const res = reply.raw
  // responseGone(): over HTTP/2 the compatibility response has no `destroyed`; its stream says it.
  // Without it a reset stream's error went through the error handlers and onError hooks and was
  // logged as answered, where over HTTP/1.1 the same error is logged as sent to nobody.
  if (res.headersSent || responseGone(res)) {
    logUnanswerable(reply, toError(thrown), res.headersSent)
    // Mid-body, a closed connection (an HTTP/2 stream reset) is the only honest signal left. A
    // response already ended is complete: cutting now would cut the keep-alive connection under the next request.
    if (!res.writableEnded) cutResponse(res)
    return
  }
  reopen(reply)
  reply.customSerializer = null
  reply.errorPayload = false
  dispatch(reply, thrown)
}

/**
 * An error with nobody to answer, the same over HTTP/1.1 and HTTP/2 (a reset stream). Before any
 * byte went out it is the client that left (say, mid-upload): the error its leaving caused
 * (`aborted`, ECONNRESET, from reading the body) is logged at info, as the 'request aborted' line
 * is, so each aborted upload is not an error to page about. Any other error keeps the level the
 * built-in reply would have logged it at (Fastify 3's rule): a 5xx is the app's, at error; a 4xx
 * (a client's malformed request that nghttp2 reset, a 404 thrown for a client already gone) at info.
 */
function logUnanswerable(reply: ReplyImpl, error: AnyError, started: boolean): void {
  const fields = reply.route.serve.idFields(reply.request.id, { err: error })
  if (started) {
    reply.request.log.error(fields, 'error after the response had started')
    warnUnloggedLateFailure(reply, error, 'failed after the response had started (the client got a cut-off response)')
    return
  }
  if (error.code === 'ECONNRESET') { reply.request.log.info(fields, 'the client went away before the answer; the error its leaving caused is not sent'); return }
  if (statusOf(error, reply.statusCode) < 500) { reply.request.log.info(fields, 'error after the client went away: nothing was sent'); return }
  reply.request.log.error(fields, 'error after the client went away: nothing was sent')
  warnUnloggedLateFailure(reply, error, 'failed after the client went away: nothing was sent')
}

/**
 * A stage of the request failed (a hook, the handler, a body parser). It goes to the error
 * handlers, never through `reply.send`, so that a thrown string or plain object is an error
 * reply, not a 200 with that value as the body. Once the reply went out there is nobody left
 * to answer: the failure is logged.
 */
export function replyWithError(reply: ReplyImpl, thrown: unknown): void {
  if (!isOpen(reply)) {
    // Guarded: this runs in a promise's rejection handler, where a throwing logger or err serializer was an unhandled rejection.
    guardedLogLine(reply.request.log, 'error', reply.route.serve.idFields(reply.request.id, { err: readableThrown(thrown) }), 'a request stage failed after the reply was sent')
    warnUnloggedLateFailure(reply, readableThrown(thrown), 'a request stage failed after the reply was sent')
    return
  }
  handleError(reply, thrown)
}

/** The reply answers with the error's status (else keeps its own error status), and reply.raw says so. */
function takeErrorStatus(reply: ReplyImpl, thrown: unknown): void {
  reply.statusCode = statusOf(thrown, reply.statusCode)
  reply.raw.statusCode = reply.statusCode
}

function dispatch(reply: ReplyImpl, thrown: unknown): void {
  const handlers = reply.route.errorHandlers
  const index = reply.errorDepth
  reply.errorDepth = index + 1
  if (index >= handlers.length) {
    // The built-in reply itself failed, in a preSerialization or onSend hook that fails on every
    // payload: sending once more through the hooks would loop forever, so write it directly.
    // Logged unless the error that reached the built-in reply already gave an error line: a hook
    // failing on a 4xx payload turns it into a 500 (asOwnFailure) that no line has shown yet.
    if (index > handlers.length) { writeFallback(reply, toError(thrown), !loggedAsError.has(reply)); return }
    // Logged as the error reaches the built-in reply, before the onError hooks (Fastify 3 logs in
    // its default error handler, whose send() then runs them); once, also when the reply fails.
    logBuiltInError(reply, thrown)
    // The status the built-in reply will send, set before the onError hooks read reply.statusCode
    // (a metrics hook counting 5xx): Fastify 3's handleError sets it before its error handler,
    // whose send() then runs them.
    takeErrorStatus(reply, thrown)
    const hooks = reply.route.onError
    if (hooks !== null && !reply.onErrorRan) {
      reply.onErrorRan = true
      reply.inOnError = true
      runObserverHooks(hooks, reply.request, reply, thrown, true, () => { reply.inOnError = false; defaultErrorReply(reply, thrown) }, onErrorFailure)
      return
    }
    defaultErrorReply(reply, thrown)
    return
  }
  delete reply.headerMap['content-type']
  delete reply.headerMap['content-length']
  // send() would take a type set on reply.raw as the reply's (send.ts): it goes too.
  if (reply.raw.hasHeader('content-type')) reply.raw.removeHeader('content-type')
  // As in Fastify 3 (handleError), the error's own headers are on the reply before any handler
  // sees it: a handler that sends its own payload still answers with them.
  applyErrorHeaders(reply, thrown)
  // As in Fastify 3: a handler that sends without choosing a status answers with the error's,
  // and reply.raw.statusCode already says so.
  takeErrorStatus(reply, thrown)
  const { fn, scope } = handlers[index]
  const given = reply.statusCode
  reply.codeChosen = false
  let result: unknown
  try {
    result = fn.call(scope, thrown as Error & Record<string, unknown>, reply.request as never, reply as never)
  } catch (thrownAgain) {
    handleError(reply, failedHandling(reply, given, thrown, thrownAgain))
    return
  }
  // A handler that sent an error on (`reply.send(error)`) has handed the reply to the next one up,
  // which may still be running (async onError hooks before the built-in reply): not "nothing sent".
  const passedOn = (): boolean => reply.errorDepth !== index + 1
  if (isThenable(result)) {
    result.then((value) => {
      if (reply.sent || value === reply || passedOn()) return
      if (value !== undefined) { sendReturned(reply, value); return }
      // `return reply` resolves undefined once the client went away (reply.then): nobody to answer.
      if (reply.request.aborted) return
      // Like a handler (pipeline.ts): an async error handler that sends nothing would leave the
      // client hanging; the next handler up answers instead.
      handleError(reply, nothingSent(scope.path, thrown))
    }, (thrownAgain: unknown) => { if (!reply.sent) handleError(reply, failedHandling(reply, given, thrown, thrownAgain)) })
  } else if (result !== undefined && result !== reply) {
    if (!reply.sent) sendReturned(reply, result)
  } else if (result === undefined && !reply.sent && !passedOn()) {
    // A synchronous handler that neither sent nor returned the reply ("I will send later") would
    // leave the request to handlerTimeout: answered now instead.
    handleError(reply, nothingSent(scope.path, thrown))
  }
}

/**
 * An error handler threw (or rejected with) something other than the error it was given. With no
 * 4xx/5xx status of its own, and no status the handler chose (reply.code()), it is the handler's
 * own failure, not an answer: a 500, so its message (`x is not a function`) never goes out under
 * the 4xx the handler was given (Fastify 5's rule; Fastify 3 kept the 4xx and sent the message).
 * A rethrow of the same error, or an error with its own status, goes on as it is.
 */
function failedHandling(reply: ReplyImpl, given: number, thrown: unknown, thrownAgain: unknown): unknown {
  if (thrownAgain === thrown || reply.statusCode !== given || reply.codeChosen) return readableThrown(thrownAgain)
  return asOwnFailure(reply, thrownAgain)
}

/**
 * A failure of the code producing the answer (an error handler, an onSend hook), not an answer:
 * without a 4xx/5xx status of its own it is a 500, whatever status the reply had, so that its
 * message (`Cannot read properties of null`) never goes out under a 4xx. Returns the value made
 * safe to read (a getter or Proxy trap that throws must not escape here), for handleError.
 */
export function asOwnFailure(reply: ReplyImpl, failure: unknown): unknown {
  const readable = readableThrown(failure)
  if (ownStatus(readable) === undefined) {
    reply.statusCode = 500
    reply.raw.statusCode = 500
  }
  return readable
}

function ownStatus(value: unknown): number | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const source = value as AnyError
  return errorStatus(source.status) ?? errorStatus(source.statusCode)
}

function applyErrorHeaders(reply: ReplyImpl, thrown: unknown): void {
  if (thrown === null || typeof thrown !== 'object') return
  const headers = (thrown as AnyError).headers
  if (headers !== null && typeof headers === 'object') reply.headers(headers as Record<string, string>)
}

function nothingSent(path: string, thrown: unknown): FrameworkError {
  return runtimeError('ENC_ERR_REPLY_NOTHING_SENT', { errorHandlerOf: path, handling: toError(thrown).message }, { cause: thrown })
}

/**
 * Status from `error.status`, then `error.statusCode` (Fastify 3's order), the first that is
 * 4xx/5xx (a number, or its three digits as a string, as Fastify 3 compares them), else the
 * reply's own if >= 400, else 500.
 */
export function statusOf(error: unknown, current: number): number {
  const source = (error !== null && typeof error === 'object' ? error : {}) as AnyError
  const declared = errorStatus(source.status) ?? errorStatus(source.statusCode)
  if (declared !== undefined) return declared
  return current >= 400 && current <= 599 ? current : 500
}

function errorStatus(value: unknown): number | undefined {
  const status = typeof value === 'string' && /^[0-9]{3}$/.test(value) ? Number(value) : value
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined
}

/**
 * The line the built-in error reply writes, in Fastify 3's shape (its defaultErrorHandler): a
 * 5xx at error with `req`, `res` and `err`, anything else at info with `res` and `err`, the
 * error's message as the message. `res` is the status being answered (the reply's own is set
 * just after). A logger Enclave made serializes `req` itself, as in the access log. The status
 * and the value are those defaultErrorReply answers with.
 */
function logBuiltInError(reply: ReplyImpl, thrown: unknown): void {
  if (isPlainObject(thrown) && statusOf(thrown, reply.statusCode) < 500) {
    logErrorReply(reply, statusOf(thrown, reply.statusCode), thrown, typeof thrown.message === 'string' ? thrown.message : 'a plain object was thrown')
    return
  }
  const error = toError(thrown)
  const status = statusOf(error, reply.statusCode)
  if (status >= 500) {
    loggedAsError.add(reply)
    // Only a 5xx whose message the client does not see leaves its cause nowhere (no logger).
    if (!messageExposed(error, status)) warnUnloggedFailure(reply, error, status)
  }
  logErrorReply(reply, status, error, error.message)
}

const onErrorFailure: ObserverFailure = { logLine: 'an onError hook failed', warning: 'an onError hook failed' }

// Replies whose error reached the built-in reply as a 5xx, logged at error: the fallback after it
// does not log again. Only error paths touch it.
const loggedAsError = new WeakSet<ReplyImpl>()

/**
 * One such line: `res` is the status answered, `req` only for a 5xx (Fastify 3's fields). A logger
 * Enclave made, or a route's logSerializers (the user's, which Fastify 3 hands the reply), get the reply
 * itself, seen at the status answered (set on it only just after); guarded, as the access lines.
 */
export function logErrorReply(reply: ReplyImpl, status: number, err: unknown, message: string): void {
  // The line's message is clipped whatever the logger; `err` only by the serializer Enclave's pino has.
  const msg = clipLogText(message)
  const serve = reply.route.serve
  // A route's logSerializers are the user's too, whatever made the logger.
  const routeSerializers = reply.route.logSerializers
  const ownRes = serve.logSerializers || routeSerializers?.res !== undefined
  const ownReq = serve.logSerializers || routeSerializers?.req !== undefined
  const log = reply.request.log
  const req = status >= 500 ? (ownReq ? reply.request : fastifyLogSerializers.req(reply.request)) : undefined
  const line = (res: unknown): void => {
    guardedLogLine(log, status >= 500 ? 'error' : 'info', serve.idFields(reply.request.id, req === undefined ? { res, err } : { req, res, err }), msg)
  }
  if (!ownRes) { line({ statusCode: status }); return }
  // The serializers read the reply itself at the status answered: put on it for the line's
  // duration, not on a stand-in made with Object.create(reply). An object made a prototype changes
  // to a prototype map in V8, and so did this reply and its ServerResponse: every later property
  // read on them went through slow paths (a thrown 409 under a logger cost 2.7x fastify 3's CPU).
  const raw = reply.raw
  const before = reply.statusCode
  const rawBefore = raw.statusCode
  reply.statusCode = status
  if (rawBefore !== status) raw.statusCode = status
  try {
    line(reply)
  } finally {
    reply.statusCode = before
    if (rawBefore !== status) raw.statusCode = rawBefore
  }
}

/** Whether the built-in reply shows the error's own message (and code) for this status: see defaultPayload. */
function messageExposed(error: AnyError, status: number): boolean {
  const declared = errorStatus(error.status) ?? errorStatus(error.statusCode) ?? error.status ?? error.statusCode
  return status < 500 || (error.expose === true && (declared === undefined || declared === status))
}

/**
 * The built-in payload for an error (logged before, logBuiltInError). A 4xx shows its message; a 5xx
 * only the reason phrase, unless the error says its message is for the client (`expose: true`,
 * which HttpError sets and http-errors sets for 4xx only). That promise holds for the error's own
 * status: one whose status is not an error status (600, 302, '503') answers a 500 it did not ask
 * for, so its message stays hidden there.
 */
function defaultPayload(reply: ReplyImpl, error: AnyError): BuiltInPayload {
  const status = statusOf(error, reply.statusCode)
  const reason = STATUS_CODES[status] ?? 'Error'
  const exposed = messageExposed(error, status)
  return {
    statusCode: status,
    // A numeric code is written as a string, as Fastify 3's serializer does.
    code: exposed && (typeof error.code === 'string' || typeof error.code === 'number') ? String(error.code) : undefined,
    error: reason,
    // A 4xx's empty message stays empty, as in Fastify 3; a 5xx's hidden one is the reason phrase.
    message: exposed && (error.message !== '' || status < 500) ? error.message : reason,
    // Only an HttpError's: another error's own fields may hold internals (a driver's query, say).
    details: exposed && error instanceof HttpError ? error.details : undefined,
  }
}

/**
 * The built-in last handler. A 5xx shows only the reason phrase unless the error is marked
 * `expose`: its message and stack go to the log with the request id, never to the client. The
 * route's response schema for the status (exact, then `4xx`/`5xx`, then `default`) shapes the
 * payload when there is one (spec §3.1 step 5), so an error's own fields listed there survive.
 * A thrown plain object with a 4xx status is the user's own payload: sent as it is (Fastify 3),
 * its status taken from its `statusCode`/`status`. The built-in reply skips preSerialization.
 */
export function defaultErrorReply(reply: ReplyImpl, thrown: unknown): void {
  reply.errorPayload = true
  applyErrorHeaders(reply, thrown)
  // A 5xx never shows what was thrown (it may hold internals): a plain object with no 4xx status
  // gets the generic 500 below, a deliberate difference from Fastify 3, which sends it as it is.
  if (isPlainObject(thrown) && statusOf(thrown, reply.statusCode) < 500) {
    takeErrorStatus(reply, thrown)
    reply.headerMap['content-type'] = 'application/json; charset=utf-8'
    reply.send(thrown)
    return
  }
  const error = toError(thrown)
  const payload = defaultPayload(reply, error)
  const serialize = reply.route.serializers === null ? null : pickSerializer(reply.route.serializers, payload.statusCode)
  if (serialize === null) {
    sendBuiltInPayload(reply, payload)
    return
  }
  reply.statusCode = payload.statusCode
  reply.raw.statusCode = payload.statusCode
  reply.headerMap['content-type'] = 'application/json; charset=utf-8'
  // As Fastify does: the error itself, with the built-in fields over it (5xx messages stay hidden).
  const shaped = Object.create(error, {
    statusCode: { value: payload.statusCode, enumerable: true },
    code: { value: payload.code, enumerable: true },
    error: { value: payload.error, enumerable: true },
    message: { value: payload.message, enumerable: true },
  }) as unknown
  reply.customSerializer = serialize
  reply.send(shaped)
}

/** The built-in error payload, through the error serializer (no response schema for its status). */
export function sendBuiltInPayload(reply: ReplyImpl, payload: BuiltInPayload): void {
  reply.errorPayload = true
  reply.customSerializer = errorPayloadSerializer
  reply.statusCode = payload.statusCode
  // onSend hooks of the error reply read it on raw too, as after code() (reply.ts).
  reply.raw.statusCode = payload.statusCode
  reply.headerMap['content-type'] = 'application/json; charset=utf-8'
  reply.send(payload)
}

/**
 * The last resort, when even the built-in reply failed (a payload hook that always throws, a
 * header Node refuses) or could not finish in time (handler-timeout.ts): only the headers this
 * function sets, straight to the socket. State `Written` makes a payload still on its way
 * through the hooks a no-op when it arrives (write-payload.ts).
 */
export function writeFallback(reply: ReplyImpl, error: AnyError, log: boolean): void {
  const payload = defaultPayload(reply, error)
  if (log) logErrorReply(reply, payload.statusCode, error, error.message)
  const body = errorPayloadSerializer(payload)
  if (reply.deadlineList !== null) reply.route.serve.deadlines.leave(reply)
  commit(reply)
  reply.statusCode = payload.statusCode
  reply.headerMap = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) }
  writeFallbackHead(reply)
  reply.raw.end(body)
}

/**
 * The fallback's head. It can still be refused by what is staged on reply.raw: over HTTP/2 Node's
 * writeHead stores the headers it is given before nghttp2's checks refuse one (Transfer-Encoding,
 * Upgrade: HTTP/1 connection headers), so the refused header stayed and refused this head too,
 * thrown out of the error path: the process crashed. The staged headers are dropped then.
 */
function writeFallbackHead(reply: ReplyImpl): void {
  try {
    writeHead(reply)
  } catch {
    for (const name of reply.raw.getHeaderNames()) reply.raw.removeHeader(name)
    writeHead(reply)
  }
}
