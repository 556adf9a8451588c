// Declares an AppShape on Fastify 3.27.4 or on Enclave through the API both share (register,
// addHook, decorate*, set*Handler, addSchema, addContentTypeParser, route). Every function is the
// same on both sides; only the lifting wrapper differs (fastify-plugin there, lift() here).
import { createServer, lift } from '../../src/runtime'
import type { AppShape, ErrorBehaviour, NotFoundBehaviour, Op, ParserKind, RouteShape, ScopeShape, Stage } from './app-shapes'
import { PARSER_TYPES } from './app-shapes'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

/** `x-fail: <tag>` fails the hook (or handler) with that tag with a 400; `<tag>!500` with a plain Error. */
function failure(request: Any, tag: string): Error | undefined {
  const wanted = request.headers['x-fail'] as string | undefined
  if (wanted === undefined || wanted.split('!')[0] !== tag) return undefined
  return wanted.endsWith('!500') ? new Error(`failed at ${tag}`) : Object.assign(new Error(`failed at ${tag}`), { statusCode: 400 })
}

/** Appends the hook's tag to `x-trace`, so the order hooks ran in is part of the answer. */
function trace(reply: Any, tag: string): void {
  const before = reply.getHeader('x-trace') as string | undefined
  reply.header('x-trace', before === undefined ? tag : `${before},${tag}`)
}

export function hookFunction(stage: Stage, tag: string, callback: boolean, replies: boolean): Function {
  const withPayload = stage === 'preParsing' || stage === 'preSerialization' || stage === 'onSend'
  if (stage === 'onResponse') return callback ? (_q: Any, _r: Any, done: () => void) => done() : async () => undefined
  if (stage === 'onError') return callback ? (_q: Any, reply: Any, _e: Any, done: () => void) => { trace(reply, tag); done() } : async (_q: Any, reply: Any) => { trace(reply, tag) }
  if (withPayload) {
    return callback
      ? (request: Any, reply: Any, payload: unknown, done: (e: Error | null, p?: unknown) => void) => { trace(reply, tag); const e = failure(request, tag); if (e) done(e); else done(null, payload) }
      : async (request: Any, reply: Any, payload: unknown) => { trace(reply, tag); const e = failure(request, tag); if (e) throw e; return payload }
  }
  return callback
    ? (request: Any, reply: Any, done: (e?: Error) => void) => {
      trace(reply, tag)
      if (replies && request.headers['x-reply'] === tag) { reply.code(202).send({ repliedBy: tag }); return }
      const e = failure(request, tag)
      if (e) done(e); else done()
    }
    : async (request: Any, reply: Any) => {
      trace(reply, tag)
      if (replies && request.headers['x-reply'] === tag) { reply.code(202).send({ repliedBy: tag }); return reply }
      const e = failure(request, tag)
      if (e) throw e
      return undefined
    }
}

function errorHandler(tag: string, behaviour: ErrorBehaviour): Function {
  switch (behaviour) {
    case 'send': return (error: Any, _q: Any, reply: Any) => { reply.code(error.statusCode >= 400 ? error.statusCode : 500).send({ handledBy: tag, message: error.message }) }
    case 'rethrow': return async (error: Any) => { throw error }
    case 'return': return async (error: Any) => ({ handledBy: tag, message: error.message })
    case 'code': return (_e: Any, _q: Any, reply: Any) => { reply.code(418).type('text/plain').send(`teapot ${tag}`) }
    case 'throw-new': return async () => { throw Object.assign(new Error(`from ${tag}`), { statusCode: 422 }) }
  }
}

function notFoundHandler(tag: string, behaviour: NotFoundBehaviour): Function {
  switch (behaviour) {
    case 'send': return (request: Any, reply: Any) => { reply.code(404).send({ nf: tag, url: request.url }) }
    case 'return': return async (request: Any) => ({ nf: tag, method: request.method })
    case 'code': return (_q: Any, reply: Any) => { reply.code(410).type('text/plain').send(`gone ${tag}`) }
    case 'throw': return async () => { throw Object.assign(new Error(`nf ${tag}`), { statusCode: 404 }) }
  }
}

function parserOf(kind: ParserKind, tag: string, alias = 0): [string | RegExp, Record<string, unknown>, Function] {
  const parse = (_q: Any, body: string | Buffer, done: (e: Error | null, v?: unknown) => void): void => {
    if (String(body) === 'bad') done(Object.assign(new Error(`bad body for ${tag}`), { statusCode: 400 }))
    else if (String(body) === 'boom') done(new Error(`parser ${tag} broke`))
    else done(null, kind === 'buffer' ? { bytes: (body as Buffer).length, by: tag } : { text: body, by: tag })
  }
  // An alias (replays only) is the same RegExp wrapped `alias` times in a group: equal, read differently.
  const type = kind === 'regexp' ? new RegExp(`^${'(?:'.repeat(alias)}application\\/vnd\\.enc${')'.repeat(alias)}`) : PARSER_TYPES[kind]
  return [type, { parseAs: kind === 'buffer' ? 'buffer' : 'string' }, parse]
}

function read(target: Any, name: string): unknown {
  const v = target[name]
  return typeof v === 'function' ? v.call(target) : v ?? null
}

function handlerOf(route: RouteShape, shape: AppShape): Function {
  switch (route.handler) {
    case 'throw': return async (request: Any) => {
      throw (request.headers['x-fail'] ?? '').endsWith('!500') ? new Error(`handler ${route.tag}`) : Object.assign(new Error(`handler ${route.tag}`), { statusCode: 409 })
    }
    case 'callNotFound': return (_q: Any, reply: Any) => { reply.callNotFound() }
    // Enclave's 405, raised in the root scope, as a root route of Fastify 3 would raise it.
    case 'not-allowed': return async (request: Any, reply: Any) => {
      reply.header('allow', route.allow)
      const path = String(request.url).split('?')[0]
      throw Object.assign(new Error(`Method ${request.method} is not allowed for ${path}; allowed: ${route.allow}`), { statusCode: 405, code: 'ENC_ERR_METHOD_NOT_ALLOWED' })
    }
    case 'send-text': return (_q: Any, reply: Any) => { reply.type('text/plain').send(`text ${route.tag}`) }
    case 'echo': return async (request: Any, reply: Any) => ({
      route: route.tag,
      params: request.params,
      body: request.body ?? null,
      failed: request.validationError?.message ?? null,
      config: reply.context?.config ?? null,
      rq: Object.fromEntries(shape.requestDecorations.map((n) => [n, read(request, n)])),
      rp: Object.fromEntries(shape.replyDecorations.map((n) => [n, read(reply, n)])),
    })
  }
}

function asArray(v: unknown): unknown[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v]
}

function routeOptions(route: RouteShape, shape: AppShape): Record<string, unknown> {
  const options: Record<string, unknown> = { method: route.method, url: route.url, handler: handlerOf(route, shape) }
  if (route.bodyRef !== undefined) options.schema = { body: { $ref: `${route.bodyRef}#` } }
  if (route.config) options.config = { tag: route.tag }
  if (route.logLevel) options.logLevel = 'warn'
  if (route.attachValidation) options.attachValidation = true
  if (route.prefixTrailingSlash) options.prefixTrailingSlash = route.prefixTrailingSlash
  if (route.routeHook) options[route.routeHook] = hookFunction(route.routeHook, `${route.tag}.h`, false, true)
  return options
}

/** A scope's error handler, for chaining (lifted scopes share their parent's). */
interface HandlerLink { handler?: Function; parent?: HandlerLink; /** The handler as declared, unchained. */ own?: Function }

interface Declaring { shape: AppShape; wrap: (plugin: Function) => Function; chain: boolean }

/** The handlers a request has been through, so that a later error goes to the next one up. */
const visited = new WeakMap<object, Set<HandlerLink>>()

/** The nearest handler at or above `link` that the request has not been through yet. */
function unvisited(link: HandlerLink | undefined, seen: Set<HandlerLink>): HandlerLink | undefined {
  for (let at = link; at !== undefined; at = at.parent) if (at.own !== undefined && !seen.has(at)) return at
  return undefined
}

/**
 * README: "Error handlers chain: when one throws or sends the error on, the next one up (the
 * parent scope's) gets it before the built-in reply; Fastify 3 goes straight to its default
 * handler". Written for Fastify 3: a handler that throws hands the error to the nearest
 * ancestor's handler itself; an error raised while the handler's own reply is sent (a
 * preSerialization hook failing on it, seed 3 case 214) comes back to the route's handler, which
 * hands it to the next one up the request has not been through (Fastify 3 would go to its
 * default: its errorHandlerCalled flag is cleared for that), as in Fastify 4 and 5.
 */
function chained(own: Function, link: HandlerLink): Function {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { kReplyErrorHandlerCalled } = require('fastify3/lib/symbols') as { kReplyErrorHandlerCalled: symbol }
  link.own = own
  return async function (this: unknown, error: unknown, request: Any, reply: Any) {
    let seen = visited.get(request)
    if (seen === undefined) visited.set(request, seen = new Set())
    let at = unvisited(link, seen)
    // A handler that runs a second time for this request: an error of its reply's (every one up used).
    if (at === undefined) throw error
    let current = error
    for (;;) {
      seen.add(at)
      const runs = at.own as Function
      reply[kReplyErrorHandlerCalled] = false
      try {
        return await runs.call(this, current, request, reply)
      } catch (thrown) {
        const next = unvisited(at.parent, seen)
        if (next === undefined) { reply[kReplyErrorHandlerCalled] = true; throw thrown }
        // The next handler gets the new error as Fastify 3's handleError would hand it over: its
        // status (else the reply's, if an error status, else 500) and headers set (seed 26 case 95).
        const e = thrown as { status?: unknown; statusCode?: unknown; headers?: Record<string, unknown> } | null | undefined
        const status = Number(e?.status) >= 400 ? Number(e?.status) : Number(e?.statusCode) >= 400 ? Number(e?.statusCode) : reply.statusCode >= 400 ? reply.statusCode : 500
        if (e?.headers !== undefined) reply.headers(e.headers)
        reply.code(status)
        current = thrown
        at = next
      }
    }
  }
}

function declareOp(scope: Any, op: Op, at: Declaring, link: HandlerLink): void {
  const shape = at.shape
  switch (op.op) {
    case 'hook': scope.addHook(op.stage, hookFunction(op.stage, op.tag, op.callback, op.replies)); break
    case 'decorateRequest': case 'decorateReply': {
      const value = op.flavour === 'value' ? `v:${op.name}`
        : op.flavour === 'getter' ? { getter(this: Any) { return `g:${op.name}:${typeof this.headers === 'object' ? 'request' : this.statusCode}` } }
          : function (this: Any) { return `f:${op.name}:${typeof this.headers === 'object' ? 'request' : this.statusCode}` }
      scope[op.op](op.name, value)
      break
    }
    case 'errorHandler': {
      const own = errorHandler(op.tag, op.behaviour)
      const handler = at.chain ? chained(own, link) : own
      link.handler = handler
      scope.setErrorHandler(handler)
      break
    }
    case 'notFound': scope.setNotFoundHandler(notFoundHandler(op.tag, op.behaviour)); break
    case 'schema': scope.addSchema({ $id: op.id, type: 'object', properties: { v: { type: 'integer' } }, required: ['v'] }); break
    case 'parser': {
      const declared = parserOf(op.kind, op.tag, op.alias ?? 0)
      if (op.replaces && scope.hasContentTypeParser(declared[0])) scope.removeContentTypeParser(declared[0])
      scope.addContentTypeParser(...declared)
      break
    }
    case 'onRoute': scope.addHook('onRoute', (options: Any) => {
      if (op.change === 'config') options.config = { ...options.config, onRoute: op.tag }
      else options.preHandler = [...asArray(options.preHandler), hookFunction('preHandler', op.tag, false, false)]
    }); break
    case 'route': {
      const options = routeOptions(op.route, shape)
      if (!op.route.shorthand) scope.route(options)
      else {
        const { method, url, handler, ...rest } = options
        scope[String(method).toLowerCase()](url, rest, handler)
      }
      break
    }
    case 'register': {
      const child = op.child
      const childLink: HandlerLink = child.lifted ? link : { parent: link }
      const plugin = async (inner: Any): Promise<void> => { for (const o of child.ops) declareOp(inner, o, at, childLink) }
      scope.register(child.lifted ? at.wrap(plugin) : plugin, child.prefix === undefined ? {} : { prefix: child.prefix })
      break
    }
  }
}

export interface BuiltApp {
  ready(): PromiseLike<unknown>
  inject(request: unknown): PromiseLike<{ statusCode: number; headers: Record<string, unknown>; payload: string }>
  close(): PromiseLike<unknown>
  server: import('node:http').Server
}

/** `chainErrorHandlers`: declare Fastify 3's handlers so that they chain as Enclave's do (a replay). */
export function buildApp(framework: 'fastify3' | 'enclave', shape: AppShape, chainErrorHandlers = false): BuiltApp {
  /* eslint-disable @typescript-eslint/no-var-requires */
  const app: Any = framework === 'fastify3'
    ? require('fastify3')({ logger: false, ignoreTrailingSlash: shape.ignoreTrailingSlash })
    : createServer({ ignoreTrailingSlash: shape.ignoreTrailingSlash })
  const wrap = framework === 'fastify3' ? (plugin: Function) => require('fastify-plugin')(plugin) : (plugin: Function) => lift(plugin as never)
  /* eslint-enable @typescript-eslint/no-var-requires */
  const at: Declaring = { shape, wrap, chain: chainErrorHandlers }
  const root: HandlerLink = {}
  for (const op of shape.root.ops) declareOp(app, op, at, root)
  return app as BuiltApp
}

/** One line per scope, for a reader of a failure. */
export function describeShape(shape: AppShape): string {
  const scope = (s: ScopeShape): string => `${s.name}${s.prefix === undefined ? '' : ` prefix=${s.prefix}`}${s.lifted ? ' lifted' : ''} [${s.ops.map(op).join('; ')}]`
  const op = (o: Op): string => {
    switch (o.op) {
      case 'hook': return `${o.stage}${o.callback ? '(cb)' : ''}${o.replies ? '(replies)' : ''} ${o.tag}`
      case 'decorateRequest': case 'decorateReply': return `${o.op} ${o.name} ${o.flavour}`
      case 'errorHandler': return `errorHandler ${o.tag} ${o.behaviour}`
      case 'notFound': return `notFound ${o.tag} ${o.behaviour}`
      case 'schema': return `addSchema ${o.id}`
      case 'parser': return `parser ${o.kind} ${o.tag}`
      case 'onRoute': return `onRoute ${o.change} ${o.tag}`
      case 'route': { const r = o.route; return `route ${r.method} '${r.url}' ${r.tag} ${r.handler}${r.bodyRef ? ` $ref=${r.bodyRef}` : ''}${r.config ? ' config' : ''}${r.attachValidation ? ' attachValidation' : ''}${r.prefixTrailingSlash ? ` pts=${r.prefixTrailingSlash}` : ''}${r.routeHook ? ` ${r.routeHook}` : ''}` }
      case 'register': return `register ${scope(o.child)}`
    }
  }
  return `${shape.ignoreTrailingSlash ? 'ignoreTrailingSlash ' : ''}${scope(shape.root)}`
}
