// The `thrown-values` family: what is thrown is not always an Error. Strings, numbers, booleans,
// null, undefined, arrays, plain objects with and without a status or a message, an Error with a
// string status, raised at each stage (onRequest, preParsing, preValidation, preHandler, the
// handler, preSerialization, onSend) by a throw in an async hook, done(value) in a callback hook,
// a rejection, or reply.send(value) from the handler; with the reply's status set before
// (`reply.code(418)`) or not, and a root error handler that is absent, describes what it got,
// sends it on, or throws something else. The app is declared by the route's `setup`.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export type ThrownStage = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'handler' | 'preSerialization' | 'onSend'
export type ThrownRaise = 'throw' | 'done' | 'reject' | 'send'
export type ThrownValue = 'string' | 'number' | 'zero' | 'true' | 'false' | 'null' | 'undefined' | 'array' | 'object' | 'object-400' | 'object-status-503' | 'object-message' | 'error-status-string' | 'error-404'
export type ThrownHandler = 'none' | 'describe' | 'send-on' | 'throw-other' | 'code-send'

export interface ThrownShape {
  stage: ThrownStage
  raise: ThrownRaise
  value: ThrownValue
  preset: boolean
  handler: ThrownHandler
  method: 'GET' | 'POST'
  /** Replays only: an Error raised in the value's place, as Enclave makes one of it (thrown-values-differences.ts). */
  asError?: true
}

const STAGES: ThrownStage[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'handler', 'preSerialization', 'onSend']
const VALUES: ThrownValue[] = ['string', 'number', 'zero', 'true', 'false', 'null', 'undefined', 'array', 'object', 'object-400', 'object-status-503', 'object-message', 'error-status-string', 'error-404']
const HANDLERS: ThrownHandler[] = ['none', 'none', 'describe', 'send-on', 'throw-other', 'code-send']

/**
 * The Error Enclave's error reply makes of a value that is not one (README: "Non-error value
 * thrown: 7"; a plain object's own statusCode, status, code and message kept).
 */
function asError(value: unknown): unknown {
  if (value instanceof Error) return value
  // Enclave's ENC_ERR_REPLY_UNDEFINED_ERROR, whose message is the framework's own (exposed).
  if (value === null || value === undefined) return Object.assign(new Error('Undefined error has occurred'), { statusCode: 500, code: 'ENC_ERR_REPLY_UNDEFINED_ERROR', expose: true })
  if (typeof value !== 'object') return new Error(`Non-error value thrown: ${String(value)}`)
  const o = value as Record<string, unknown>
  const error = new Error(typeof o.message === 'string' ? o.message : 'Non-error value thrown')
  for (const key of ['statusCode', 'status', 'code']) if (o[key] !== undefined) Object.assign(error, { [key]: o[key] })
  return error
}

/** Whether the value is one JavaScript reads as false but is not null or undefined (0, false). */
export function falsyValue(v: ThrownValue): boolean {
  const value = valueOf(v)
  return !value && value !== null && value !== undefined
}

export function thrownValueOf(v: ThrownValue): unknown {
  return valueOf(v)
}

function valueOf(v: ThrownValue): unknown {
  switch (v) {
    case 'string': return 'a string thrown'
    case 'number': return 7
    case 'zero': return 0
    case 'true': return true
    case 'false': return false
    case 'null': return null
    case 'undefined': return undefined
    case 'array': return ['a', 1]
    case 'object': return { reason: 'plain' }
    case 'object-400': return { statusCode: 400, message: 'plain 400' }
    case 'object-status-503': return { status: 503, message: 'plain 503' }
    case 'object-message': return { message: 'only a message', code: 'E_OBJ' }
    case 'error-status-string': return Object.assign(new Error('string status'), { statusCode: '409' })
    case 'error-404': return Object.assign(new Error('gone'), { statusCode: 404 })
  }
}

/** What the error handler tells of what it was handed: its type, and what it reads of it. */
function described(error: unknown): Record<string, unknown> {
  const o = error !== null && typeof error === 'object' ? error as Record<string, unknown> : undefined
  return { type: error === null ? 'null' : Array.isArray(error) ? 'array' : typeof error, isError: error instanceof Error, message: o?.message ?? null, statusCode: o?.statusCode ?? null, value: o === undefined && error !== undefined ? error : null }
}

function errorHandler(kind: ThrownHandler): ((error: unknown, request: Any, reply: Any) => unknown) | undefined {
  switch (kind) {
    case 'none': return undefined
    case 'describe': return (error, _q, reply) => { reply.code(422).send({ handled: described(error), status: reply.statusCode }) }
    case 'send-on': return (error, _q, reply) => { reply.send(error) }
    case 'throw-other': return async () => { throw Object.assign(new Error('from the handler'), { statusCode: 502 }) }
    case 'code-send': return async (error, _q, reply) => { reply.code(400); return { caught: described(error).type } }
  }
}

const ASYNC_STAGES = new Set<ThrownStage>(['onRequest', 'preParsing', 'preValidation', 'preHandler'])

/** The hook raising `value` at `stage`, in the drawn style (an async hook throws or rejects; a callback hook passes it to done). */
function hookOf(shape: ThrownShape): Record<string, unknown> {
  const value = (): unknown => (shape.asError === true ? asError(valueOf(shape.value)) : valueOf(shape.value))
  const preset = (reply: Any): void => { if (shape.preset) reply.code(418) }
  const payloadStage = shape.stage === 'preSerialization' || shape.stage === 'onSend'
  if (shape.raise === 'done') {
    // preParsing, preSerialization and onSend are handed the payload before done.
    const hook = payloadStage || shape.stage === 'preParsing'
      ? (_q: Any, reply: Any, _p: unknown, done: (e: unknown) => void) => { preset(reply); done(value()) }
      : (_q: Any, reply: Any, done: (e: unknown) => void) => { preset(reply); done(value()) }
    return { [shape.stage]: hook }
  }
  if (shape.raise === 'reject') return { [shape.stage]: (_q: Any, reply: Any) => { preset(reply); return Promise.reject(value()) } }
  return { [shape.stage]: async (_q: Any, reply: Any) => { preset(reply); throw value() } }
}

function handlerOf(shape: ThrownShape): Handler {
  if (shape.stage !== 'handler') return async () => ({ reached: 'handler' })
  const value = (): unknown => (shape.asError === true ? asError(valueOf(shape.value)) : valueOf(shape.value))
  switch (shape.raise) {
    case 'send': return (_q, reply) => { if (shape.preset) reply.code(418); reply.send(value()) }
    case 'reject': return (_q, reply) => { if (shape.preset) reply.code(418); return Promise.reject(value()) }
    default: return async (_q, reply) => { if (shape.preset) reply.code(418); throw value() }
  }
}

export function drawThrownShape(r: Random): ThrownShape {
  const stage = r.pick(STAGES)
  const raise: ThrownRaise = stage === 'handler' ? r.pick(['throw', 'reject', 'send'] as const) : ASYNC_STAGES.has(stage) || r.chance(0.5) ? r.pick(['throw', 'done', 'reject'] as const) : r.pick(['throw', 'done'] as const)
  return { stage, raise, value: r.pick(VALUES), preset: r.chance(0.3), handler: r.pick(HANDLERS), method: r.pick(['GET', 'POST'] as const) }
}

export function thrownRoute(shape: ThrownShape): RouteSpec {
  const handler = errorHandler(shape.handler)
  return {
    method: shape.method, url: '/t', handler: handlerOf(shape),
    ...(shape.stage === 'handler' ? {} : { options: hookOf(shape) }),
    setup: (app) => { if (handler !== undefined) app.setErrorHandler(handler) },
  }
}

export function thrownRequest(shape: ThrownShape): RequestSpec {
  return shape.method === 'POST' ? { method: 'POST', url: '/t', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' } : { method: 'GET', url: '/t' }
}

export function describeThrownShape(shape: ThrownShape): string {
  return `${shape.stage} ${shape.raise} ${shape.value}${shape.preset ? ' after code(418)' : ''}, error handler ${shape.handler}`
}
