import type { IncomingMessage, ServerResponse } from 'node:http'
import { hasBody, parseBody } from './body/read-body'
import type { CompiledRoute } from './compiled-route'
import { runtimeError } from '../errors/runtime-codes'
import { runObserverHooks, runRequestHooks, type ObserverFailure } from './hook-runner'
import { isThenable } from '../shared/thenable'
import { replyWithError } from './error-reply'
import { answerClosing, answerHeadRefused, answerWithoutReply } from './raw-answers'
import { requestHeadProblem } from './request-head'
import { watchSocketTimeout } from './socket-timeout'
import { sendReturned } from './returned-payload'
import { completeAccessLine, deferAccessLine, logRequest, REQUEST_ERRORED, undeferAccessLine, type AccessWatch } from './access-log'
import { startHandlerDeadline } from './handler-timeout'
import { compileOnFirstRequest } from './lazy-compile'
import type { ReplyImpl } from './reply'
import type { RequestImpl } from './request'
import type { ServeContext } from './serve-context'
import { emptyQuery, TOO_MANY_QUERY_KEYS } from './router'
import { rewriteUrl } from './rewrite-url'
import { toValidationError, type PartValidator } from '../schemas'
import type { HttpPart } from '../schemas/types'
import { replyAt } from './reply-at'
import { warnAlreadySent } from './write-payload'
import { answerValidationFailure, UnbuiltValidationError } from './validation-reply'
import { carryRequestProperties } from './carried-properties'

/**
 * The request path, top to bottom:
 *   router.find -> new route.Request -> (lazy: compile the route's schemas, once) -> onRequest -> URL limits -> preParsing -> parse body -> preValidation
 *   -> validate (params, body, querystring, headers) -> preHandler -> handler -> reply.send
 * Each stage is one `null` test when the route has nothing for it. Nothing is resolved here
 * that could have been resolved at boot.
 */
export function handleRequest(ctx: ServeContext, raw: IncomingMessage, res: ServerResponse, rewritten = false): void {
  if (ctx.closing && ctx.return503OnClosing) { answerClosing(res); return }
  const headProblem = requestHeadProblem(raw)
  if (headProblem !== null) { answerHeadRefused(res, headProblem); return }
  // `rewritten`: a request served again once the boot is done (serveBeforeBoot) had its URL rewritten already.
  if (ctx.rewriteUrl !== null && !rewritten && !rewriteUrl(ctx, raw, res)) return
  let route: CompiledRoute
  let params: Record<string, unknown>
  let query: Record<string, unknown>
  try {
    // User code runs here: a custom querystringParser (find-my-way calls it inside find()). One
    // that throws is a bug in the server's own code: 500 and logged, never an uncaught exception.
    const found = ctx.router.find(raw.method as string, raw.url as string, raw)
    if (found !== null && found.store !== null) {
      route = found.store
      params = found.params
      query = found.searchParams
    } else {
      // `PRI /path` with no version: llhttp takes it for the HTTP/2 preface (an upgrade) and Node
      // closes the connection as soon as its body has been read, before any answer can go out.
      // No route answers PRI: refused now, before the body is read.
      if (raw.method === 'PRI') { answerHeadRefused(res, 'malformed'); return }
      if (ctx.fallbacks === null) { ctx.serveBeforeBoot(raw, res); return }
      const none = ctx.noRoute(raw, found !== null)
      route = none.route
      params = none.params
      query = found === null ? ctx.parseQuery(raw.url as string) : emptyQuery()
    }
  } catch (error) {
    answerWithoutReply(res, ctx.log, error)
    return
  }
  let request: RequestImpl
  let reply: ReplyImpl
  try {
    // User code runs here too: genReqId and the { factory } decorators.
    const id = ctx.genReqId(raw)
    // A child logger per request only when logging is on with pino: the silent path allocates nothing.
    request = new route.Request(raw, res, id, route.path, params, query, route, ctx.childLogs ? ctx.requestLog(id, route.logLevel, route.logSerializers) : ctx.log)
    reply = new route.Reply(res, request, route)
  } catch (error) {
    answerWithoutReply(res, ctx.log, error)
    return
  }
  if (ctx.requestLogging) logRequest(ctx, request, reply)
  if (route.observesEnd) watchEnd(request, reply, res)
  if (route.onTimeout !== null) watchSocketTimeout(raw.socket, reply)
  if (route.handlerDeadline !== null) startHandlerDeadline(reply)
  // schemaCompilation 'lazy': null once the route's schemas are built, so one test per request.
  if (route.lazy !== null && !compileOnFirstRequest(route, reply)) return
  if (route.onRequest !== null) runRequestHooks(route.onRequest, request, reply, limitsStage, replyWithError)
  else limitsStage(request, reply)
}

/**
 * reply.callNotFound(): the not-found route of the calling route's scope answers the same request, from its
 * preHandler hooks on (Fastify's order), on fresh request/reply objects of that route's scope.
 * Headers already set (by CORS, say) are kept, and so are the calling route's params and what
 * hooks set on the request (Fastify 3 keeps the one request).
 */
export function serveNotFound(from: ReplyImpl): void {
  const ctx = from.route.serve
  const route = ctx.notFoundRouteOf(from.route, from.request.url)
  const old = from.request
  let request: RequestImpl
  let reply: ReplyImpl
  try {
    request = new route.Request(old.raw, old.response, old.id, null, old.params, old.query, route, old.log)
    reply = new route.Reply(from.raw, request, route)
    request.body = old.body
    // One request in Fastify 3: reply.elapsedTime and the access log's responseTime count from its
    // arrival, not from the hand-over to the not-found route.
    ;(request as { startTime: number }).startTime = old.startTime
    // Inside the try: the calling reply is hijacked by now, so a throw here (a decoration's setter)
    // would leave the request unanswered.
    carryRequestProperties(old, request)
  } catch (error) {
    answerWithoutReply(from.raw, ctx.log, error)
    return
  }
  Object.assign(reply.headerMap, from.headerMap)
  // As in Fastify 3 (the request's context becomes the 404 one): only this route's onResponse
  // hooks run at the end, and the access line waits for them only if it has some.
  supersedeEnd(from.raw, reply)
  if (route.observesEnd) watchEnd(request, reply, from.raw)
  if (route.handlerDeadline !== null) startHandlerDeadline(reply)
  preHandlerStage(request, reply)
}

/**
 * The URL limits, after onRequest so that every request meets the same hooks: a 414 reaches
 * onResponse only after having been through onRequest, as every other answer does (a count
 * kept by the two hooks returns to zero).
 */
function limitsStage(request: RequestImpl, reply: ReplyImpl): void {
  const route = reply.route
  const ctx = route.serve
  if (route.hasParams && paramTooLong(request.params, ctx.limits.maxParamLength)) {
    reply.send(runtimeError('ENC_ERR_PARAM_TOO_LONG', { max: ctx.limits.maxParamLength }))
    return
  }
  // The query parser refuses (rather than truncates) a query with too many keys: see router.ts.
  if (request.query === TOO_MANY_QUERY_KEYS) {
    reply.send(runtimeError('ENC_ERR_QUERY_TOO_MANY_KEYS', { max: ctx.limits.maxQueryKeys }))
    return
  }
  preParsingStage(request, reply)
}

/** Named parameters only: a wildcard's rest of the path (`/files/*`) may be as long as a URL. */
function paramTooLong(params: Record<string, unknown>, max: number): boolean {
  for (const key in params) if (key !== '*' && (params[key] as string).length > max) return true
  return false
}

function preParsingStage(request: RequestImpl, reply: ReplyImpl): void {
  const route = reply.route
  if (route.preParsing !== null) runRequestHooks(route.preParsing, request, reply, parsingStage, replyWithError)
  else parsingStage(request, reply)
}

function parsingStage(request: RequestImpl, reply: ReplyImpl): void {
  if (carriesBody(request)) parseBody(request, reply, reply.route.serve.limits.bodyLimit, preValidationStage)
  else preValidationStage(request, reply)
}

/**
 * Which requests have their body parsed: Fastify 3's rule (lib/handleRequest.js), so that a
 * request's `body` is what a Fastify 3 handler would see (null when nothing is parsed).
 * - GET, HEAD: never (nor read: Node discards it when the reply ends).
 * - POST, PUT, PATCH: whenever they name a content type, even without framing (an unframed
 *   `application/json` request is the same 400 as an empty JSON body, never a body that silently
 *   went missing); without one, only a body framed as non-empty (415, or the `*` parser).
 * - OPTIONS, DELETE: only a framed body that names its content type; an untyped one is ignored.
 * Whatever is parsed, or not, the body schema is then validated (validationStage).
 */
function carriesBody(request: RequestImpl): boolean {
  const method = request.method
  if (method === 'GET' || method === 'HEAD') return false
  const headers = request.raw.headers
  const typed = headers['content-type'] !== undefined
  if (method === 'OPTIONS' || method === 'DELETE') return typed && hasBody(request)
  if (typed) return true
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')
}

function preValidationStage(request: RequestImpl, reply: ReplyImpl): void {
  const route = reply.route
  if (route.preValidation !== null) runRequestHooks(route.preValidation, request, reply, validationStage, replyWithError)
  else validationStage(request, reply)
}

function validationStage(request: RequestImpl, reply: ReplyImpl): void {
  const route = reply.route
  if (route.validates) {
    let error: Error | UnbuiltValidationError | null
    // Validators are user code (custom compilers) or may refuse a result (an async validator,
    // a formatter that returns no Error): a throw here is an error reply, not an uncaught one.
    try {
      error = validate(route, request)
    } catch (thrown) {
      replyWithError(reply, thrown)
      return
    }
    if (error !== null) {
      if (error instanceof UnbuiltValidationError) { answerValidationFailure(reply, error); return }
      if (!route.attachValidation) { reply.send(error); return }
      request.validationError = error as never
    }
  }
  preHandlerStage(request, reply)
}

/** Spec §3.1: params, body, querystring, headers; the first part that fails is reported. */
function validate(route: CompiledRoute, request: RequestImpl): Error | UnbuiltValidationError | null {
  if (route.validateParams !== null) {
    const error = validatePart(route, request, route.validateParams, 'params')
    if (error !== null) return error
  }
  // Every body is validated, whatever parser produced it and whatever the method (issue 12 §1: spec
  // §1.6 makes the schema the security boundary, over the letter of §2.1; Fastify 3 does the same).
  // A request without any body is validated too (as `null`), so no request skips it by sending nothing.
  if (route.validateBody !== null) {
    // The built-in JSON parser's body, unless a hook replaced it, needs no finite walk (finite-guard.ts).
    const validator = request.body === request.jsonBody && request.body !== undefined ? route.validateJsonBody as PartValidator : route.validateBody
    const error = validatePart(route, request, validator, 'body')
    if (error !== null) return error
  }
  if (route.validateQuery !== null) {
    const error = validatePart(route, request, route.validateQuery, 'querystring')
    if (error !== null) return error
  }
  if (route.validateHeaders !== null) {
    const error = validatePart(route, request, route.validateHeaders, 'headers')
    if (error !== null) return error
  }
  return null
}

const partField = { params: 'params', body: 'body', querystring: 'query', headers: 'headers' } as const

function validatePart(route: CompiledRoute, request: RequestImpl, validator: PartValidator, part: HttpPart): Error | UnbuiltValidationError | null {
  const field = partField[part]
  const outcome = validator(request[field])
  if (outcome === undefined) return null
  if ('value' in outcome) { (request as unknown as Record<string, unknown>)[field] = outcome.value; return null }
  if (route.unobservedValidation && 'errors' in outcome) return new UnbuiltValidationError(outcome.errors, part)
  return toValidationError(outcome, part, route.schemaErrorFormatter, route.scope)
}

function preHandlerStage(request: RequestImpl, reply: ReplyImpl): void {
  const route = reply.route
  if (route.preHandler !== null) runRequestHooks(route.preHandler, request, reply, handlerStage, replyWithError)
  else handlerStage(request, reply)
}

function handlerStage(request: RequestImpl, reply: ReplyImpl): void {
  const route = reply.route
  let result: unknown
  try {
    result = route.handler.call(route.scope, request as never, reply as never)
  } catch (error) {
    replyWithError(reply, error)
    return
  }
  if (result === undefined || result === reply) return
  if (isThenable(result)) {
    result.then((value) => afterAsyncHandler(reply, value), (error: unknown) => replyWithError(reply, error))
    return
  }
  // Also when the handler already sent: sendAfterHandler() logs the ignored value (ENC_ERR_REPLY_ALREADY_SENT).
  sendAfterHandler(reply, result)
}

/**
 * A handler's value. One that comes after the handler sent (`reply.send(x); return y`, a beginner's
 * Express habit) gets a warn line saying so, not send()'s "reply.send() was called", which names
 * a call the handler did not make twice; as before, the value is dropped (Fastify 3 logs a warn).
 * One arriving while onError hooks run goes to sendReturned(), which logs and drops it.
 *
 * It calls reply.send() itself rather than through sendReturned(): this function is one more call
 * between the body's end and send() than the path had before it (session 24), and V8 then left
 * sendReturned() out of what it inlines into that hot path (perf25, --trace-turbo-inlining on the
 * bench's `items`). The common case is back to handlerStage -> here -> send().
 */
function sendAfterHandler(reply: ReplyImpl, value: unknown): void {
  if (reply.inOnError) { sendReturned(reply, value); return }
  if (reply.sent) { warnAlreadySent(reply, replyAt(reply)); return }
  reply.send(value)
}

/**
 * An async handler's resolved value is the payload. Resolving `undefined` without having sent
 * anything would leave the client hanging: it is answered 500 and logged, unless the handler
 * returned the reply itself (the explicit "I will send later" signal), set a status that has no
 * body, 204 or 304 (`reply.code(304); return` after a matching If-None-Match), or wrote the head
 * through reply.raw and left the response open (a plugin streaming on it, as @fastify/sse's
 * keepAlive() does): that response is the handler's, as after reply.hijack(), which is what
 * Fastify 3 and 5 do with it (they leave it open). A value
 * resolved after the reply went out (sent by the handler, or the 503 of handlerTimeout) is
 * handed to send() all the same, which logs and drops it: a second answer is a bug to see,
 * unless the handler hijacked the reply.
 */
function afterAsyncHandler(reply: ReplyImpl, value: unknown): void {
  if (value === reply) return
  if (value !== undefined) {
    // A hijacked reply (reply.hijack(), reply.sent = true) belongs to the handler: what it
    // resolves is not a second answer to warn about, as in Fastify 3 (wrapThenable). Looked up
    // only once the reply is out, so a normal request pays one getter.
    if (reply.sent && reply.route.serve.hijacked.has(reply.raw)) return
    sendAfterHandler(reply, value)
    return
  }
  // `return reply` now resolves through reply.then (await reply), with undefined once the client
  // went away: nobody is left to answer, as in Fastify 5 (wrapThenable checks the socket).
  if (reply.sent || reply.request.aborted) return
  if (reply.statusCode === 204 || reply.statusCode === 304) { sendReturned(reply); return }
  if (reply.raw.headersSent) { reply.hijack(); return }
  sendReturned(reply, runtimeError('ENC_ERR_REPLY_NOTHING_SENT', { at: replyAt(reply) }))
}

/**
 * onResponse on 'finish' (the response was handed over in full), onRequestAbort on a 'close'
 * that comes first. inject() responses finish but never close, so 'close' alone would skip them.
 * The request's state sits on the response and the two listeners are shared by every response:
 * a closure per event and once()'s wrapper around each cost ~0.5 µs a request (perf16, paired
 * rounds of a raw server with and without them); the response is gone after one request, so the
 * listeners need no removing. reply.callNotFound() watches the same response again: the
 * not-found route's reply takes the slot, and the listeners are not added twice.
 */
function watchEnd(request: RequestImpl, reply: ReplyImpl, res: ServerResponse): void {
  const watched = res as ServerResponse & EndOwner
  const access = reply.route.onResponse !== null && reply.route.serve.requestLogging ? deferAccessLine(res) : null
  const first = watched[kEndWatch] === undefined
  watched[kEndWatch] = { request, reply, access, ended: false }
  if (!first) return
  // light-my-request's response emits 'finish' with writableFinished still false: the event is the
  // signal, with writableEnded. node:http2's compatibility response also emits 'finish' (and has
  // writableFinished true) when the client resets the stream before the reply was ended: only
  // writableEnded tells that abort apart (over HTTP/1 both are true by then).
  res.on('finish', endOnFinish)
  res.on('close', endOnClose)
}

function endOnFinish(this: ServerResponse & EndOwner): void { endWatched(this, this.writableEnded) }
function endOnClose(this: ServerResponse & EndOwner): void { endWatched(this, this.writableFinished && this.writableEnded) }

function endWatched(res: ServerResponse & EndOwner, finished: boolean): void {
  const watch = res[kEndWatch]
  if (watch === undefined || watch.ended) return
  watch.ended = true
  onEnd(watch.request, watch.reply, finished, watch.access)
}

function onEnd(request: RequestImpl, reply: ReplyImpl, finished: boolean, access: AccessWatch | null): void {
  const route = reply.route
  if (!finished) request.aborted = true
  const hooks = finished ? route.onResponse : route.onRequestAbort
  if (hooks === null) return
  const serve = route.serve
  // The access line waits for the onResponse hooks; the first failure is its 'request errored'.
  let failure: unknown
  const onFailure = finished && access !== null ? (error: unknown): boolean => { if (failure !== undefined) return false; failure = error; return true } : null
  const after = finished && access !== null ? (): void => completeAccessLine(access, failure) : noop
  if (!serve.closing) { runObserverHooks(hooks, request, reply, undefined, false, after, endHookFailure, onFailure); return }
  // During shutdown close() waits for these (force-closed requests included) before onClose.
  const pending = serve.endingDuringClose
  const running = new Promise<void>((resolve) => runObserverHooks(hooks, request, reply, undefined, false, () => { after(); resolve() }, endHookFailure, onFailure))
  pending.add(running)
  void running.then(() => pending.delete(running))
}

function noop(): void {}

const kEndWatch = Symbol('enclave.endWatch')
interface EndWatch { readonly request: RequestImpl; readonly reply: ReplyImpl; readonly access: AccessWatch | null; ended: boolean }
interface EndOwner { [kEndWatch]?: EndWatch }

/**
 * reply.callNotFound() handed `res` to the not-found route's reply: the earlier route's end hooks
 * no longer run (the not-found route, if it has some, watches `res` afresh), and the access line
 * no longer waits for them.
 */
function supersedeEnd(res: ServerResponse, reply: ReplyImpl): void {
  const watch = (res as ServerResponse & EndOwner)[kEndWatch]
  if (watch !== undefined) watch.ended = true
  undeferAccessLine(res, reply)
}

/** A failed onResponse or onRequestAbort hook: logged under the access log's 'request errored' line, as Fastify 3 logs it. */
const endHookFailure: ObserverFailure = { logLine: REQUEST_ERRORED, warning: 'an onResponse or onRequestAbort hook failed once the answer was over' }
