// The `hook-flow` family: request hooks as users write them, misuses included, at the root and in
// a plugin, with error handlers at either level and a plugin's not-found handler that has its own
// route-level hooks. A hook passes, returns a value (async hooks' value is not a payload),
// replies with `reply.send()` and returns nothing (or `reply`), replies and then calls `done()`
// (callback style), throws or passes an error to `done()`. Every hook appends its tag to
// `x-trace`, so which hooks ran (after a reply, after an error) is part of the answer; the
// handler and the handlers echo the trace they saw. The app is declared by the route's `setup`.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export type FlowStage = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'preSerialization' | 'onSend' | 'onError'
export type FlowMode = 'pass' | 'value' | 'send' | 'send-return' | 'callback-send' | 'throw' | 'done-error'
export type Level = 'root' | 'plugin'
export type FlowErrorHandler = 'send' | 'rethrow' | 'return' | 'code-only'

export interface FlowHook { stage: FlowStage; level: Level; mode: FlowMode; tag: string }

export interface FlowShape {
  hooks: FlowHook[]
  errorHandlers: Partial<Record<Level, FlowErrorHandler>>
  /** The plugin's not-found handler, with a route-level hook of its own (or none). */
  notFound?: { hook?: 'preValidation' | 'preHandler'; mode: FlowMode }
  /** The route asked: the plugin's, the root's, or an unknown URL under the plugin. */
  target: 'plugin-route' | 'root-route' | 'plugin-unknown' | 'root-unknown'
  /** `send`: replays only (the send of `send-then-throw` without its throw). */
  handler: 'echo' | 'throw' | 'send-then-throw' | 'send'
  /** Replays only: the plugin's rethrowing handler hands the error to the root's, as Enclave's chain does (README differences: "Error handlers chain"). */
  chain?: true
}

const STAGES: FlowStage[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onError']
const MODES: FlowMode[] = ['pass', 'pass', 'value', 'send', 'send-return', 'callback-send', 'throw', 'done-error']
// After the handler a hook passes or changes the payload (its value is the payload); replying from
// there would run these hooks again. onError hooks cannot answer: they pass or fail.
// (Payload hooks that fail, with error handlers at each level, are the errors family's: errors.ts.)
const PAYLOAD_MODES: FlowMode[] = ['pass', 'value']
const ON_ERROR_MODES: FlowMode[] = ['pass', 'throw', 'done-error']

function trace(reply: Any, tag: string): void {
  const before = reply.getHeader('x-trace') as string | undefined
  reply.header('x-trace', before === undefined ? tag : `${before},${tag}`)
}

function failure(tag: string): Error {
  return Object.assign(new Error(`failed at ${tag}`), { statusCode: 409 })
}

/** The hook function for a stage and mode; preParsing's signature has the payload (passed on). */
export function flowHook(stage: FlowStage, mode: FlowMode, tag: string): Function {
  if (stage === 'onError') {
    // Signature (request, reply, error, done); what it throws or passes on is only logged, by both.
    return mode === 'done-error'
      ? (_q: Any, reply: Any, _e: Any, done: (e?: Error) => void) => { trace(reply, tag); done(failure(tag)) }
      : async (_q: Any, reply: Any) => { trace(reply, tag); if (mode === 'throw') throw failure(tag) }
  }
  if (stage === 'preSerialization' || stage === 'onSend') {
    const change = (payload: unknown): unknown => stage === 'onSend' ? (typeof payload === 'string' ? `${payload}<${tag}>` : payload) : (payload !== null && typeof payload === 'object' ? { ...payload as object, [tag]: true } : payload)
    return mode === 'done-error'
      ? (_q: Any, reply: Any, _p: unknown, done: (e?: Error | null, p?: unknown) => void) => { trace(reply, tag); done(failure(tag)) }
      : async (_q: Any, reply: Any, payload: unknown) => {
        trace(reply, tag)
        if (mode === 'throw') throw failure(tag)
        return mode === 'value' ? change(payload) : payload
      }
  }
  const parsing = stage === 'preParsing'
  const callback = mode === 'callback-send' || mode === 'done-error'
  if (callback) {
    const run = (reply: Any, done: (e?: Error | null, p?: unknown) => void, payload: unknown): void => {
      trace(reply, tag)
      if (mode === 'done-error') { done(failure(tag)); return }
      // As documented: a callback hook that replies does not call done() (calling it too runs the
      // rest of the chain after the reply, and Fastify 3 can then throw outside any promise).
      reply.code(203).send({ sentBy: tag })
      void done
      void payload
    }
    return parsing
      ? (_q: Any, reply: Any, payload: unknown, done: (e?: Error | null, p?: unknown) => void) => run(reply, done, payload)
      : (_q: Any, reply: Any, done: (e?: Error | null) => void) => run(reply, done, undefined)
  }
  const run = async (reply: Any, payload: unknown): Promise<unknown> => {
    trace(reply, tag)
    switch (mode) {
      case 'value': return parsing ? payload : { returnedBy: tag }
      case 'send': reply.code(203).send({ sentBy: tag }); return parsing ? payload : undefined
      case 'send-return': reply.code(203).send({ sentBy: tag }); return reply
      case 'throw': throw failure(tag)
      default: return parsing ? payload : undefined
    }
  }
  // Async functions: Fastify 3 reads a plain three-parameter preParsing function as its legacy signature.
  return parsing ? async (_q: Any, reply: Any, payload: unknown) => await run(reply, payload) : async (_q: Any, reply: Any) => await run(reply, undefined)
}

function errorHandler(level: Level, kind: FlowErrorHandler): Function {
  switch (kind) {
    case 'send': return (error: Any, _q: Any, reply: Any) => { reply.code(error.statusCode >= 400 ? error.statusCode : 500).send({ handledBy: level, message: error.message, trace: reply.getHeader('x-trace') ?? null }) }
    case 'rethrow': return async (error: Any) => { throw error }
    case 'return': return async (error: Any, _q: Any, reply: Any) => ({ handledBy: level, message: error.message, trace: reply.getHeader('x-trace') ?? null })
    case 'code-only': return (_e: Any, _q: Any, reply: Any) => { reply.code(422).send({ handledBy: level }) }
  }
}

const echo: Handler = (_request, reply) => ({ handled: true, trace: reply.getHeader('x-trace') ?? null })

function handlerOf(kind: FlowShape['handler']): Handler {
  if (kind === 'throw') return async () => { throw failure('handler') }
  if (kind === 'send-then-throw') return async (_q, reply) => { reply.send({ sentBy: 'handler' }); throw failure('handler-after-send') }
  if (kind === 'send') return async (_q, reply) => { reply.send({ sentBy: 'handler' }); return reply }
  return echo
}

export function drawFlowShape(r: Random): FlowShape {
  const hooks: FlowHook[] = []
  const count = r.int(1, 4)
  for (let i = 0; i < count; i++) {
    const stage = r.pick(STAGES)
    const modes = stage === 'onError' ? ON_ERROR_MODES : stage === 'preSerialization' || stage === 'onSend' ? PAYLOAD_MODES : MODES
    hooks.push({ stage, level: r.pick(['root', 'plugin'] as const), mode: r.pick(modes), tag: `h${i}` })
  }
  const errorHandlers: FlowShape['errorHandlers'] = {}
  if (r.chance(0.5)) errorHandlers.root = r.pick(['send', 'rethrow', 'return', 'code-only'] as const)
  if (r.chance(0.5)) errorHandlers.plugin = r.pick(['send', 'rethrow', 'return', 'code-only'] as const)
  const target = r.pick(['plugin-route', 'plugin-route', 'root-route', 'plugin-unknown', 'root-unknown'] as const)
  const shape: FlowShape = { hooks, errorHandlers, target, handler: r.pick(['echo', 'echo', 'echo', 'throw', 'send-then-throw'] as const) }
  if (target === 'plugin-unknown' || r.chance(0.2)) shape.notFound = { ...(r.chance(0.7) ? { hook: r.pick(['preValidation', 'preHandler'] as const) } : {}), mode: r.pick(MODES) }
  return shape
}

export function describeFlowShape(shape: FlowShape): string {
  const hooks = shape.hooks.map((h) => `${h.level}.${h.stage}:${h.mode}(${h.tag})`).join(' ')
  const handlers = Object.entries(shape.errorHandlers).map(([level, kind]) => `${level} errorHandler ${kind}`).join(', ')
  const nf = shape.notFound === undefined ? '' : ` plugin notFound${shape.notFound.hook ? ` with ${shape.notFound.hook}:${shape.notFound.mode}` : ''}`
  return `${hooks}${handlers ? `; ${handlers}` : ''}${nf}; handler ${shape.handler}; -> ${shape.target}`
}

/** The case's route is the plugin's route (a placeholder for replays: `setup` declares the app). */
export function flowRoute(shape: FlowShape): RouteSpec {
  const setup = (app: Any): void => {
    for (const h of shape.hooks.filter((x) => x.level === 'root')) app.addHook(h.stage, flowHook(h.stage, h.mode, h.tag))
    if (shape.errorHandlers.root !== undefined) app.setErrorHandler(errorHandler('root', shape.errorHandlers.root))
    app.route({ method: 'POST', url: '/r', handler: handlerOf(shape.handler) })
    app.register(async (plugin: Any) => {
      for (const h of shape.hooks.filter((x) => x.level === 'plugin')) plugin.addHook(h.stage, flowHook(h.stage, h.mode, h.tag))
      const own = shape.errorHandlers.plugin
      const root = shape.errorHandlers.root
      if (shape.chain === true && own === 'rethrow' && root !== undefined) plugin.setErrorHandler(errorHandler('root', root))
      else if (own !== undefined) plugin.setErrorHandler(errorHandler('plugin', own))
      plugin.route({ method: 'POST', url: '/r', handler: handlerOf(shape.handler) })
      const nf = shape.notFound
      if (nf !== undefined) {
        const handler = (request: Any, reply: Any): void => { reply.code(404).send({ nf: 'plugin', url: request.url, trace: reply.getHeader('x-trace') ?? null }) }
        if (nf.hook === undefined) plugin.setNotFoundHandler(handler)
        else plugin.setNotFoundHandler({ [nf.hook]: flowHook(nf.hook, nf.mode, 'nf') }, handler)
      }
    }, { prefix: '/p' })
  }
  // Declared by setup (both routes); the case's own route is a GET no request asks.
  return { method: 'GET', url: '/unused', handler: echo, setup }
}

export function flowRequest(r: Random, shape: FlowShape): RequestSpec {
  const url = shape.target === 'root-route' ? '/r' : shape.target === 'plugin-route' ? '/p/r' : shape.target === 'root-unknown' ? '/nope' : '/p/nope'
  return { method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: r.pick(['{"a":1}', '{}']) }
}
