// The `errors` family: error handlers (setErrorHandler at the root and in nested plugins, sync and
// async, each way of answering), errors raised in every hook and in the handler (thrown, passed to
// done(), rejected, sent), errors of every status shape (out of range, digits, 3xx, custom code,
// `expose`, `headers`), validation errors with attachValidation and schemaErrorFormatter, not-found
// inside plugins with their own handlers and from callNotFound() in a hook, onError hooks (which
// leave their tag in `x-trace`) and errors after the answer went out. The app is declared by the
// route's `setup`; its `route` is a placeholder nobody asks. Shapes are data, so a failure prints
// what was declared; the functions are the same on both frameworks.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export type Where = 'root' | 'plugin' | 'nested'
export type HandlerKind = 'return' | 'send' | 'throw-new' | 'throw-plain' | 'rethrow' | 'code-headers' | 'return-undefined' | 'send-error' | 'sync-return' | 'return-reply'
export type Stage = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'handler' | 'preSerialization' | 'onSend' | 'onResponse'
export type ErrorKind = 'plain' | '400' | '404' | 'code' | 'headers' | 'status-string' | '302' | '600' | '99' | 'expose-503' | '503' | 'status-prop'
/** How the error is raised: thrown (async), passed to done() (callback style), or, in the handler, returned as a rejection or sent. */
export type Raise = 'throw' | 'done' | 'reject' | 'send'

export interface ErrorShape {
  /** The scope of the route asked. */
  where: Where
  /** Scopes with an error handler, and what it does. */
  handlers: Partial<Record<Where, HandlerKind>>
  /** `every`: a preSerialization or onSend hook fails on every payload (the error handlers' too), else on the first only. */
  fail?: { stage: Stage; raise: Raise; error: ErrorKind; at: 'route' | 'scope'; every?: true }
  /** Scopes with an onError hook (it appends `onError:<scope>` to x-trace). */
  onError: Where[]
  validation?: { attach: boolean; formatter?: 'route' | 'root'; invalid: boolean }
  /** An unknown URL under the scope (`url`), or callNotFound() from the route's preHandler (`hook`); `handler`: the scope's own not-found handler. */
  notFound?: { via: 'url' | 'hook'; handler?: 'send' | 'throw' }
  /** The handler sends, then throws (async) or rejects. */
  afterSend?: true
  /** Replays only: Fastify 3's error handlers chained as Enclave's (README differences: "Error handlers chain"). */
  chain?: true
  /** Replays only: the failing error raised without its status (README: a status that is not an error status is read as none). */
  statusless?: true
}

const HANDLERS: HandlerKind[] = ['return', 'send', 'throw-new', 'throw-plain', 'rethrow', 'code-headers', 'return-undefined', 'send-error', 'sync-return', 'return-reply']
const HANGS: HandlerKind[] = ['return-undefined', 'sync-return']
const STAGES: Stage[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'handler', 'preSerialization', 'onSend', 'onResponse']
const ERRORS: ErrorKind[] = ['plain', '400', '404', 'code', 'headers', 'status-string', '302', '600', '99', 'expose-503', '503', 'status-prop']
const PREFIX: Record<Where, string> = { root: '', plugin: '/p', nested: '/p/n' }

export function drawErrorShape(r: Random): ErrorShape {
  const where = r.pick<Where>(['root', 'plugin', 'plugin', 'nested', 'nested'])
  const scopes: Where[] = where === 'root' ? ['root'] : where === 'plugin' ? ['root', 'plugin'] : ['root', 'plugin', 'nested']
  const handlers: ErrorShape['handlers'] = {}
  // Handlers that answer nothing leave Fastify 3 hanging (each such case waits out run.ts's
  // NO_ANSWER_MS): drawn rarely, so that `npm test`'s seed stays quick; more seeds reach them.
  const quiet = HANDLERS.filter((k) => !HANGS.includes(k))
  for (const scope of scopes) if (r.chance(0.5)) handlers[scope] = r.chance(0.06) ? r.pick(HANGS) : r.pick(quiet)
  const shape: ErrorShape = { where, handlers, onError: scopes.filter(() => r.chance(0.3)) }
  switch (r.int(0, 9)) {
    case 0: shape.validation = { attach: r.chance(0.4), invalid: r.chance(0.8), ...(r.chance(0.6) ? { formatter: r.pick(['route', 'root'] as const) } : {}) }; break
    case 1: shape.notFound = { via: r.pick(['url', 'url', 'hook'] as const), ...(r.chance(0.6) ? { handler: r.pick(['send', 'throw'] as const) } : {}) }; break
    case 2: shape.afterSend = true; break
    default: {
      const stage = r.pick(STAGES)
      const raise: Raise = stage === 'handler' ? r.pick(['throw', 'reject', 'send'] as const) : r.pick(['throw', 'done'] as const)
      shape.fail = { stage, raise, error: r.pick(ERRORS), at: stage === 'handler' ? 'route' : r.pick(['route', 'scope'] as const) }
      // A hook failing on every payload fails the error handlers' payloads too: Enclave hands each such
      // failure to the next handler up, Fastify 3 to its default one (the chained replay brings it
      // to the next one up, errorHandler() below).
      // Not with a handler that answers nothing among several: the replay does not model that mix.
      const kinds = Object.values(handlers)
      if ((stage === 'preSerialization' || stage === 'onSend') && (kinds.length <= 1 || !kinds.some((k) => HANGS.includes(k))) && r.chance(0.5)) shape.fail.every = true
    }
  }
  return shape
}

export function errorOf(kind: ErrorKind, where: string): Error {
  const e = (extra: Record<string, unknown>): Error => Object.assign(new Error(`${kind} at ${where}`), extra)
  switch (kind) {
    case 'plain': return new Error(`plain at ${where}`)
    case '400': return e({ statusCode: 400 })
    case '404': return e({ statusCode: 404 })
    case 'code': return e({ statusCode: 409, code: 'E_MINE' })
    case 'headers': return e({ statusCode: 429, headers: { 'retry-after': '3', 'x-err': 'h' } })
    case 'status-string': return e({ statusCode: '418' })
    case '302': return e({ statusCode: 302 })
    case '600': return e({ statusCode: 600 })
    case '99': return e({ statusCode: 99 })
    case 'expose-503': return e({ statusCode: 503, expose: true })
    case '503': return e({ statusCode: 503 })
    case 'status-prop': return e({ status: 403 })
  }
}

/** The shape's failing error; a statusless replay takes its status away (the message stays). */
function raised(shape: ErrorShape, where: string): Error {
  const error = errorOf(shape.fail!.error, where) as Error & { statusCode?: unknown }
  if (shape.statusless === true) delete error.statusCode
  return error
}

function trace(reply: Any, tag: string): void {
  const before = reply.getHeader('x-trace') as string | undefined
  reply.header('x-trace', before === undefined ? tag : `${before},${tag}`)
}

function summary(error: Any): Record<string, unknown> {
  return { message: error?.message ?? null, statusCode: error?.statusCode ?? null, code: error?.code ?? null, validation: Array.isArray(error?.validation) }
}

/** A scope's error handler in a chained replay: its own function and the next one up. */
interface Link { tag: Where; own: Function; parent?: Link }

/** The handlers a request has been through (chained replays), so that a later failure goes to the next one up. */
const visited = new WeakMap<object, Set<Link>>()

/** The nearest handler at or above `link` that the request has not been through yet. */
function unvisited(link: Link | undefined, seen: Set<Link>): Link | undefined {
  for (let at = link; at !== undefined; at = at.parent) if (!seen.has(at)) return at
  return undefined
}

function ownHandler(kind: HandlerKind, tag: Where): Function {
  switch (kind) {
    case 'return': return async (error: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`); return { handledBy: tag, ...summary(error) } }
    case 'send': return (error: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`); reply.send({ handledBy: tag, ...summary(error) }) }
    case 'throw-new': return async (_e: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`); throw Object.assign(new Error(`new from ${tag}`), { statusCode: 422 }) }
    case 'throw-plain': return async (_e: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`); throw new Error(`plain from ${tag}`) }
    case 'rethrow': return async (error: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`); throw error }
    case 'code-headers': return (_e: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`); reply.code(451).header('x-h', tag).type('text/plain').send(`coded by ${tag}`) }
    case 'return-undefined': return async (_e: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`) }
    case 'send-error': return (error: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`); reply.send(error) }
    case 'sync-return': return (error: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`); return { syncFrom: tag, ...summary(error) } }
    case 'return-reply': return async (error: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`); reply.code(error?.statusCode === 404 ? 410 : 400); reply.send({ replyFrom: tag }); return reply }
  }
}

/**
 * The error handler of scope `tag`; `parent` is the next one up (chained replays only), written
 * for Fastify 3 so that it chains as Enclave's do: what the handler throws, or the error it sends
 * on, goes to the parent's; so does a failure of the payload it sends (a preSerialization or onSend
 * hook failing on every payload): Fastify 3's handleError brings that back to the route's handler
 * (its errorHandlerCalled flag is cleared for that), which hands it to the next one up the request
 * has not been through, as app-build.ts's chained() does.
 */
function errorHandler(kind: HandlerKind, tag: Where, parent: Link | undefined, chain: boolean): { handler: Function; link: Link } {
  const plain = ownHandler(kind, tag)
  // Sending the error on is passing it to the next one up (README differences: "Error handlers chain").
  const own = chain && kind === 'send-error' ? (error: Any, _q: Any, reply: Any) => { trace(reply, `eh:${tag}`); throw error } : plain
  const link: Link = parent === undefined ? { tag, own } : { tag, own, parent }
  if (!chain || parent === undefined) return { handler: plain, link }
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { kReplyErrorHandlerCalled } = require('fastify3/lib/symbols') as { kReplyErrorHandlerCalled: symbol }
  // As Enclave hands an error on: its headers and status on the reply first (Fastify 3's handleError rule).
  const handOn = (error: Any, reply: Any): void => {
    if (error?.headers !== null && typeof error?.headers === 'object') reply.headers(error.headers)
    const status = [error?.status, error?.statusCode].find((s) => Number(s) >= 400 && Number(s) <= 599)
    reply.code(status !== undefined ? Number(status) : reply.statusCode >= 400 ? reply.statusCode : 500)
  }
  const handler = async function (this: unknown, error: Any, request: Any, reply: Any): Promise<unknown> {
    let seen = visited.get(request)
    if (seen === undefined) visited.set(request, seen = new Set())
    let at = unvisited(link, seen)
    // Every handler up has had this request: Fastify 3's default handler answers (the built-in reply).
    if (at === undefined) throw error
    // A failure of a handler's own payload comes back here: handed on as a thrown error would be.
    if (seen.size > 0) handOn(error, reply)
    let current = error
    for (;;) {
      seen.add(at)
      reply[kReplyErrorHandlerCalled] = false
      try {
        return await at.own.call(this, current, request, reply)
      } catch (thrown) {
        const next = unvisited(at.parent, seen)
        if (next === undefined) { reply[kReplyErrorHandlerCalled] = true; throw thrown }
        handOn(thrown, reply)
        current = thrown
        at = next
      }
    }
  }
  return { handler, link }
}

/** A hook of `stage` that raises the shape's error when it is the failing one, else only passes. */
function hookOf(stage: Stage, shape: ErrorShape, where: string): Function {
  const fail = shape.fail
  const error = fail !== undefined && fail.stage === stage ? raised(shape, `${stage}@${where}`) : undefined
  const withPayload = stage === 'preParsing' || stage === 'preSerialization' || stage === 'onSend'
  const failed = new WeakSet<object>()
  // The error to raise for this request now: once per request unless `every`.
  const now = (request: Any): Error | undefined => {
    if (error === undefined || (fail?.every !== true && failed.has(request))) return undefined
    failed.add(request)
    return error
  }
  if (fail?.raise === 'done') {
    return withPayload
      ? (request: Any, _r: Any, payload: unknown, done: Function) => { const e = now(request); if (e) done(e); else done(null, payload) }
      : (request: Any, _r: Any, done: Function) => { done(now(request)) }
  }
  return withPayload
    ? async (request: Any, _r: Any, payload: unknown) => { const e = now(request); if (e) throw e; return payload }
    : async (request: Any) => { const e = now(request); if (e) throw e }
}

function handlerOf(shape: ErrorShape): Handler {
  const fail = shape.fail?.stage === 'handler' ? shape.fail : undefined
  return async (request: Any, reply: Any) => {
    if (shape.afterSend) {
      reply.send({ sent: true })
      throw errorOf('400', 'after send')
    }
    if (fail !== undefined) {
      const error = raised(shape, 'handler')
      if (fail.raise === 'send') { reply.send(error); return reply }
      if (fail.raise === 'reject') return Promise.reject(error)
      throw error
    }
    return { ok: shape.where, failed: request.validationError?.message ?? null, context: request.validationError?.validationContext ?? null }
  }
}

const BODY_SCHEMA = { type: 'object', properties: { a: { type: 'integer' }, s: { type: 'string', maxLength: 3 } }, required: ['a'] }

function formatter(errors: Any[], dataVar: string): Error {
  const first = errors[0] ?? {}
  return Object.assign(new Error(`fmt ${dataVar}: ${errors.length} ${first.keyword} ${first.message}`), { statusCode: 422, code: 'E_FMT' })
}

function notFoundHandler(kind: 'send' | 'throw', where: Where): Function {
  return kind === 'send'
    ? (request: Any, reply: Any) => { reply.code(404).send({ nf: where, url: request.url }) }
    : async () => { throw Object.assign(new Error(`nf at ${where}`), { statusCode: 404 }) }
}

function routeOptions(shape: ErrorShape): Record<string, unknown> {
  const options: Record<string, unknown> = { method: 'POST', url: '/e', handler: handlerOf(shape) }
  const fail = shape.fail
  if (fail !== undefined && fail.stage !== 'handler' && fail.at === 'route') options[fail.stage] = hookOf(fail.stage, shape, 'route')
  if (shape.notFound?.via === 'hook') options.preHandler = (_q: Any, reply: Any) => { reply.callNotFound() }
  if (shape.validation !== undefined) {
    options.schema = { body: BODY_SCHEMA }
    if (shape.validation.attach) options.attachValidation = true
    if (shape.validation.formatter === 'route') options.schemaErrorFormatter = formatter
  }
  return options
}

/** Declares the scopes down to the route's, their handlers and hooks, and the route. */
function setupOf(shape: ErrorShape): (app: Any) => void {
  const order: Where[] = ['root', 'plugin', 'nested']
  const depth = order.indexOf(shape.where)
  const declare = (scope: Any, level: number, parent: Link | undefined): void => {
    const where = order[level] as Where
    const kind = shape.handlers[where]
    let nearest = parent
    if (kind !== undefined) {
      const { handler, link } = errorHandler(kind, where, parent, shape.chain === true)
      nearest = link
      scope.setErrorHandler(handler)
    }
    if (level === 0 && shape.validation?.formatter === 'root') scope.setSchemaErrorFormatter(formatter)
    if (shape.onError.includes(where)) scope.addHook('onError', async (_q: Any, reply: Any) => { trace(reply, `onError:${where}`) })
    const fail = shape.fail
    if (fail !== undefined && fail.stage !== 'handler' && fail.at === 'scope' && level === depth) scope.addHook(fail.stage, hookOf(fail.stage, shape, where))
    if (shape.notFound?.handler !== undefined && level === depth) scope.setNotFoundHandler(notFoundHandler(shape.notFound.handler, where))
    if (level === depth) { scope.route(routeOptions(shape)); return }
    scope.register(async (child: Any) => { declare(child, level + 1, nearest) }, { prefix: level === 0 ? '/p' : '/n' })
  }
  return (app: Any) => { declare(app, 0, undefined) }
}

export function errorsRoute(shape: ErrorShape): RouteSpec {
  // The app is all in `setup`; this route only stands in for it (never asked).
  return { method: 'GET', url: '/unasked', handler: async () => 'unasked', setup: setupOf(shape) }
}

export function errorsRequest(r: Random, shape: ErrorShape): RequestSpec {
  const prefix = PREFIX[shape.where]
  const url = shape.notFound?.via === 'url' ? `${prefix}/${r.pick(['nope', 'e/x'])}` : `${prefix}/e`
  const payload = shape.validation?.invalid === true ? r.pick(['{"a":"x"}', '{}', '{"a":1,"s":"long"}', '[]']) : '{"a":1}'
  return { method: 'POST', url, headers: { 'content-type': 'application/json' }, payload }
}

export function describeErrorShape(shape: ErrorShape): string {
  const parts = [`route in ${shape.where}`]
  const handlers = Object.entries(shape.handlers).map(([w, k]) => `${w}:${k}`)
  if (handlers.length > 0) parts.push(`errorHandlers ${handlers.join(' ')}`)
  if (shape.fail) parts.push(`${shape.fail.stage}(${shape.fail.at}) ${shape.fail.raise} ${shape.fail.error}${shape.fail.every ? ' every payload' : ''}`)
  if (shape.onError.length > 0) parts.push(`onError in ${shape.onError.join(',')}`)
  if (shape.validation) parts.push(`validation${shape.validation.attach ? ' attached' : ''}${shape.validation.formatter ? ` formatter@${shape.validation.formatter}` : ''}${shape.validation.invalid ? ' invalid' : ''}`)
  if (shape.notFound) parts.push(`notFound via ${shape.notFound.via}${shape.notFound.handler ? ` handler ${shape.notFound.handler}` : ''}`)
  if (shape.afterSend) parts.push('throws after send')
  return parts.join(', ')
}

/** The README's 5xx rule does not cover an error that says its message is for the client. */
export function exposes(shape: ErrorShape): boolean {
  return shape.fail?.error === 'expose-503'
}
