// The `reply-api` family: a handler drawn as a few reply calls (code/status, header(s), type,
// serializer, reads of what is set, removeHeader, Set-Cookie set several ways) and one way of answering (return or send of
// every payload kind, redirect, throws of errors and non-errors), sometimes with route hooks that
// change the payload (preSerialization, onSend), a late header after the answer, a response
// schema, a custom content-type parser. GET routes are also asked with HEAD. Steps are data, so
// a failure prints what the handler did; the functions are the same on both frameworks.
import { Readable } from 'node:stream'
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

type Step =
  | { s: 'code' | 'status'; n: number }
  | { s: 'header'; name: string; value: string | number | string[] }
  | { s: 'headers'; value: Record<string, string | number> }
  | { s: 'type'; value: string }
  | { s: 'serializer' }
  | { s: 'remove'; name: string }
  /** Reads what is set so far into the `x-obs` header: hasHeader, getHeader, statusCode. */
  | { s: 'observe'; name: string }

type Payload = 'string' | 'empty' | 'multibyte' | 'buffer' | 'object' | 'array' | 'null' | 'number' | 'boolean' | 'stream' | 'json-string' | 'date'

type Ending =
  | { e: 'return' | 'send' | 'send-return-reply' | 'send-then-undefined'; p: Payload }
  | { e: 'return-undefined' | 'send-nothing' | 'send-later' }
  | { e: 'redirect'; code?: number; url: string }
  | { e: 'throw' | 'send-error' | 'return-error'; error: ErrorKind }

type ErrorKind = 'plain' | 'statusCode' | 'status' | 'headers' | 'validation' | 'code' | 'expose-5xx' | 'string' | 'object' | 'null' | 'number' | 'status-999' | 'status-string'

type Hook =
  | { h: 'preSerialization'; /** `wrap-empty`: replays only (`{ wrapped: {} }`). */ does: 'wrap' | 'string' | 'null' | 'wrap-empty' }
  | { h: 'onSend'; does: 'string' | 'buffer' | 'null' | 'header' | 'type' | 'same' | 'multibyte' }

export interface ReplyShape {
  method: 'GET' | 'POST'
  steps: Step[]
  ending: Ending
  hooks: Hook[]
  late?: true
  schema?: true
  parser?: 'string' | 'object' | 'null' | 'error' | 'async'
  /** Set-Cookie set before the steps (each cookie its own header line), then read into `x-cookies`. */
  cookies?: Cookie[]
}

/** How a cookie is set: `header('set-cookie')`, `header('Set-Cookie')` or `headers({ 'set-cookie' })`. */
interface Cookie { via: 'header' | 'Header' | 'headers'; value: string | string[] }

const CODES = [200, 201, 202, 204, 299, 304, 400, 404, 418, 500, 503]
const TYPES = ['text/plain', 'text/plain; charset=utf-8', 'text/html; charset=latin1', 'application/json', 'application/json; charset=utf-8', 'application/octet-stream', 'application/x-thing', 'text/csv; charset=utf-16']
const PAYLOADS: Payload[] = ['string', 'empty', 'multibyte', 'buffer', 'object', 'array', 'null', 'number', 'boolean', 'stream', 'json-string', 'date']
const ERRORS: ErrorKind[] = ['plain', 'statusCode', 'status', 'headers', 'validation', 'code', 'expose-5xx', 'string', 'object', 'null', 'number', 'status-999', 'status-string']

function drawStep(r: Random): Step {
  switch (r.int(0, 7)) {
    case 0: return { s: r.pick(['code', 'status'] as const), n: r.pick(CODES) }
    case 1: return { s: 'header', name: r.pick(['x-a', 'X-Mixed', 'x-a']), value: r.pick<string | number | string[]>(['v', 7, ['a', 'b'], 'é', ''].filter((v) => v !== 'é')) }
    case 2: return { s: 'headers', value: r.pick<Record<string, string | number>>([{ 'x-b': '1', 'X-C': 2 }, { 'x-a': 'over' }]) }
    case 3: case 4: return { s: 'type', value: r.pick(TYPES) }
    case 5: return { s: 'serializer' }
    case 6: return { s: 'remove', name: r.pick(['x-a', 'content-type', 'x-none']) }
    default: return { s: 'observe', name: r.pick(['x-a', 'content-type', 'x-b']) }
  }
}

function drawEnding(r: Random): Ending {
  switch (r.int(0, 11)) {
    case 0: case 1: return { e: 'return', p: r.pick(PAYLOADS) }
    case 2: case 3: return { e: 'send', p: r.pick(PAYLOADS) }
    case 4: return { e: r.pick(['send-return-reply', 'send-then-undefined'] as const), p: r.pick(PAYLOADS) }
    case 5: return { e: r.pick(['return-undefined', 'send-nothing', 'send-later'] as const) }
    case 6: return { e: 'redirect', url: r.pick(['/to', 'http://example.com/x?y=1', '/é']), ...(r.chance(0.5) ? { code: r.pick([301, 303, 307]) } : {}) }
    case 7: case 8: return { e: 'throw', error: r.pick(ERRORS) }
    case 9: return { e: 'send-error', error: r.pick(ERRORS.filter((k) => !['string', 'null', 'number', 'object'].includes(k))) }
    default: return { e: 'return-error', error: r.pick(['plain', 'statusCode', 'headers'] as const) }
  }
}

export function drawReplyShape(r: Random): ReplyShape {
  const steps = Array.from({ length: r.int(0, 3) }, () => drawStep(r))
  const hooks: Hook[] = []
  if (r.chance(0.2)) hooks.push({ h: 'preSerialization', does: r.pick(['wrap', 'string', 'null'] as const) })
  if (r.chance(0.3)) hooks.push({ h: 'onSend', does: r.pick(['string', 'buffer', 'null', 'header', 'type', 'same', 'multibyte'] as const) })
  const shape: ReplyShape = { method: r.chance(0.75) ? 'GET' : 'POST', steps, ending: drawEnding(r), hooks }
  if (r.chance(0.1)) shape.late = true
  if (r.chance(0.15)) shape.schema = true
  if (shape.method === 'POST' && r.chance(0.5)) shape.parser = r.pick(['string', 'object', 'null', 'error', 'async'] as const)
  return shape
}

/**
 * Drawn after the request (generate.ts), so that the cases of earlier sessions' seeds keep every
 * other draw: the shape, the request, HEAD or GET.
 */
export function drawCookies(r: Random, shape: ReplyShape): void {
  if (!r.chance(0.3)) return
  shape.cookies = Array.from({ length: r.int(1, 3) }, () => ({
    via: r.pick(['header', 'Header', 'headers'] as const),
    value: r.pick<string | string[]>(['a=1', 'b=2; Path=/; HttpOnly', ['c=3', 'd=4'], '', 'a=5']),
  }))
}

function setCookies(reply: Any, cookies: Cookie[]): void {
  for (const { via, value: drawn } of cookies) {
    // A copy: Fastify 3 pushes later cookies into the array it was given (the shape's, shared by both runs).
    const value = Array.isArray(drawn) ? [...drawn] : drawn
    if (via === 'headers') reply.headers({ 'set-cookie': value })
    else reply.header(via === 'Header' ? 'Set-Cookie' : 'set-cookie', value)
  }
  reply.header('x-cookies', JSON.stringify([reply.hasHeader('set-cookie'), reply.getHeader('set-cookie') ?? null]))
}

function payloadOf(p: Payload): unknown {
  switch (p) {
    case 'string': return 'hello'
    case 'empty': return ''
    case 'multibyte': return 'héllo 💥 ü'
    case 'buffer': return Buffer.from([0x62, 0x69, 0x6e, 0xc3, 0xa9])
    case 'object': return { a: 'x', n: 1, s: 'é' }
    case 'array': return [1, 'a', null]
    case 'null': return null
    case 'number': return 42
    case 'boolean': return false
    case 'stream': return Readable.from(['str', 'eam'])
    case 'json-string': return '{"pre":1}'
    case 'date': return { when: new Date(0) }
  }
}

function errorOf(kind: ErrorKind): unknown {
  const e = (extra: Record<string, unknown>): Error => Object.assign(new Error(`err ${kind}`), extra)
  switch (kind) {
    case 'plain': return new Error('err plain')
    case 'statusCode': return e({ statusCode: 409 })
    case 'status': return e({ status: 403 })
    case 'headers': return e({ statusCode: 429, headers: { 'retry-after': '5', 'x-err': 'y' } })
    case 'validation': return e({ statusCode: 400, validation: [{ keyword: 'type', dataPath: '.a', message: 'should be integer' }] })
    case 'code': return e({ statusCode: 422, code: 'E_THING' })
    case 'expose-5xx': return e({ statusCode: 503, expose: true })
    case 'string': return 'a string thrown'
    case 'object': return { statusCode: 400, message: 'plain object' }
    case 'null': return null
    case 'number': return 7
    case 'status-999': return e({ statusCode: 999 })
    case 'status-string': return e({ statusCode: '404' })
  }
}

function applyStep(reply: Any, step: Step): void {
  switch (step.s) {
    case 'code': reply.code(step.n); break
    case 'status': reply.status(step.n); break
    case 'header': reply.header(step.name, step.value); break
    case 'headers': reply.headers(step.value); break
    case 'type': reply.type(step.value); break
    case 'serializer': reply.serializer((payload: unknown) => `S:${JSON.stringify(payload)}`); break
    case 'remove': reply.removeHeader(step.name); break
    case 'observe': {
      const before = reply.getHeader('x-obs') as string | undefined
      const seen = JSON.stringify([step.name, reply.hasHeader(step.name), reply.getHeader(step.name) ?? null, reply.statusCode])
      reply.header('x-obs', before === undefined ? seen : `${before} ${seen}`)
      break
    }
  }
}

function handlerOf(shape: ReplyShape): Handler {
  const { steps, ending } = shape
  const late = (reply: Any): void => {
    if (!shape.late) return
    try { reply.header('x-late', '1') } catch { /* refusing is allowed: the answer shows whether it went out */ }
  }
  return async (request: Any, reply: Any) => {
    if (shape.cookies !== undefined) setCookies(reply, shape.cookies)
    for (const step of steps) applyStep(reply, step)
    if (shape.parser !== undefined) reply.header('x-body', JSON.stringify(request.body ?? null))
    switch (ending.e) {
      case 'return': return payloadOf(ending.p)
      case 'send': reply.send(payloadOf(ending.p)); late(reply); return reply
      case 'send-return-reply': reply.send(payloadOf(ending.p)); return reply
      case 'send-then-undefined': reply.send(payloadOf(ending.p)); late(reply); return undefined
      case 'return-undefined': return undefined
      case 'send-nothing': reply.send(); return reply
      // `return reply`: the answer comes later, from a timer (a reply is a thenable in both).
      case 'send-later': setTimeout(() => reply.send({ later: true }), 2); return reply
      case 'redirect': if (ending.code === undefined) reply.redirect(ending.url); else reply.redirect(ending.code, ending.url); return reply
      case 'throw': throw errorOf(ending.error)
      case 'send-error': reply.send(errorOf(ending.error)); return reply
      case 'return-error': return errorOf(ending.error)
    }
  }
}

function hookOf(hook: Hook): Function {
  if (hook.h === 'preSerialization') {
    return async (_q: Any, _r: Any, payload: unknown) => {
      switch (hook.does) {
        case 'wrap': return { wrapped: payload }
        case 'string': return 'pre-string'
        case 'null': return null
        case 'wrap-empty': return { wrapped: {} }
      }
    }
  }
  return async (_q: Any, reply: Any, payload: unknown) => {
    const kind = payload === null ? 'null' : Buffer.isBuffer(payload) ? 'buffer' : typeof payload === 'string' ? 'string' : typeof (payload as { pipe?: unknown })?.pipe === 'function' ? 'stream' : typeof payload
    switch (hook.does) {
      case 'string': return `onSend saw ${kind}`
      case 'multibyte': return `é ${kind} 💥`
      case 'buffer': return Buffer.from(`buf ${kind}`)
      case 'null': return null
      case 'header': reply.header('x-onsend', kind); return payload
      case 'type': reply.type('text/x-onsend'); return payload
      case 'same': return payload
    }
  }
}

function parserSetup(kind: NonNullable<ReplyShape['parser']>): (app: Any) => void {
  return (app: Any) => {
    if (kind === 'async') {
      app.addContentTypeParser('text/csv', { parseAs: 'string' }, async (_q: Any, body: string) => ({ csv: body.split(',') }))
      return
    }
    app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_q: Any, body: string, done: (e: Error | null, v?: unknown) => void) => {
      if (kind === 'error') done(Object.assign(new Error('csv refused'), { statusCode: 400 }))
      else done(null, kind === 'string' ? body : kind === 'object' ? { csv: body.split(',') } : null)
    })
  }
}

export function describeReplyShape(shape: ReplyShape): string {
  const step = (s: Step): string => (s.s === 'serializer' ? 'serializer()' : `${s.s}(${JSON.stringify('n' in s ? s.n : 'value' in s ? ('name' in s ? [s.name, s.value] : s.value) : s.name)})`)
  const end = Object.entries(shape.ending).map(([k, v]) => (k === 'e' ? v : `${k}=${JSON.stringify(v)}`)).join(' ')
  const hooks = shape.hooks.map((h) => `${h.h}:${h.does}`)
  return [`${shape.steps.map(step).join('.') || '-'} => ${end}`, ...hooks, shape.late ? 'late header' : '', shape.schema ? 'schema 200' : '', shape.parser ? `csv parser ${shape.parser}` : '',
    shape.cookies ? `cookies ${shape.cookies.map((c) => `${c.via}:${JSON.stringify(c.value)}`).join(' ')}` : ''].filter((x) => x !== '').join(', ')
}

export function replyApiRoute(shape: ReplyShape): RouteSpec {
  const options: Record<string, unknown> = {}
  for (const hook of shape.hooks) options[hook.h] = hookOf(hook)
  const route: RouteSpec = { method: shape.method, url: '/y', handler: handlerOf(shape), options }
  if (shape.schema) route.schema = { response: { 200: { type: 'object', properties: { a: { type: 'string' }, n: { type: 'integer' }, wrapped: { type: 'object', additionalProperties: true } } } } }
  if (shape.parser !== undefined) route.setup = parserSetup(shape.parser)
  return route
}

export function replyApiRequest(r: Random, shape: ReplyShape): RequestSpec {
  if (shape.method === 'GET') return { method: r.chance(0.25) ? 'HEAD' : 'GET', url: '/y' }
  if (shape.parser !== undefined) return { method: 'POST', url: '/y', headers: { 'content-type': 'text/csv' }, payload: r.pick(['a,b', 'é,ü', '']) }
  return { method: 'POST', url: '/y', headers: { 'content-type': 'application/json' }, payload: '{"k":1}' }
}
