// The `reply-lifecycle` family: what reply-api.ts does not draw — taking the reply over
// (`reply.hijack()`, Fastify 3's `reply.sent = true`) and writing `reply.raw`, writing `reply.raw`
// without taking it over, answering twice (send twice, send and return a value, an error sent then
// a payload, awaiting `reply.send()`), `redirect` in each argument order (3.27.4 reads
// `redirect(url, code)` as `redirect(url)`), `callNotFound()` after headers were set,
// `reply.getHeaders()` and `reply.sent` read in the handler, and hooks that take the reply over
// (onRequest, preHandler), send from onSend or onResponse, or turn the payload into a stream.
// Shapes are data, so a failure prints what the handler did; the functions are the same on both.
import { Readable } from 'node:stream'
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export type LifecycleEnding =
  | 'hijack-raw' | 'hijack-raw-sync' | 'hijack-later' | 'sent-true-raw' | 'hijack-return-value'
  | 'raw-no-hijack' | 'raw-no-hijack-return-reply' | 'raw-no-hijack-sync'
  | 'send-twice' | 'send-then-return-value' | 'await-send' | 'send-error-then-send' | 'sync-send-later-return-reply'
  | 'redirect-url' | 'redirect-code-url' | 'redirect-url-code' | 'code-then-redirect'
  | 'call-not-found-after-headers'
  | 'get-headers' | 'sent-read'
  | 'hijack-then-throw' | 'sent-read-after-hijack' | 'raw-set-header-then-send' | 'raw-write-head-then-send' | 'response-time-type' | 'await-send-then-header'

export type LifecycleHook =
  | 'onRequest-hijack' | 'preHandler-hijack' | 'onSend-stream' | 'onSend-send' | 'onResponse-send'

export interface LifecycleShape {
  method: 'GET' | 'POST'
  ending: LifecycleEnding
  hooks: LifecycleHook[]
  /** Headers set before the ending (on the reply: a hijacked reply's raw head does not carry them). */
  preset?: true
  /** The status set before the ending. */
  code?: number
}

const ENDINGS: LifecycleEnding[] = [
  'hijack-raw', 'hijack-raw-sync', 'hijack-later', 'sent-true-raw', 'hijack-return-value',
  'raw-no-hijack', 'raw-no-hijack-return-reply', 'raw-no-hijack-sync',
  'send-twice', 'send-then-return-value', 'await-send', 'send-error-then-send', 'sync-send-later-return-reply',
  'redirect-url', 'redirect-code-url', 'redirect-url-code', 'code-then-redirect',
  'call-not-found-after-headers', 'get-headers', 'sent-read',
  'hijack-then-throw', 'sent-read-after-hijack', 'raw-set-header-then-send', 'raw-write-head-then-send', 'response-time-type', 'await-send-then-header',
]
const HOOKS: LifecycleHook[] = ['onRequest-hijack', 'preHandler-hijack', 'onSend-stream', 'onSend-send', 'onResponse-send']

export function drawLifecycleShape(r: Random): LifecycleShape {
  const shape: LifecycleShape = { method: r.chance(0.8) ? 'GET' : 'POST', ending: r.pick(ENDINGS), hooks: r.chance(0.35) ? [r.pick(HOOKS)] : [] }
  if (r.chance(0.4)) shape.preset = true
  if (r.chance(0.3)) shape.code = r.pick([201, 204, 301, 404, 500])
  return shape
}

function rawEnd(reply: Any, status = 200): void {
  reply.raw.writeHead(status, { 'content-type': 'text/plain', 'x-raw': '1' })
  reply.raw.end('raw body')
}

function handlerOf(shape: LifecycleShape): Handler {
  const before = (reply: Any): void => {
    if (shape.preset) reply.header('x-pre', 'set').header('x-two', 2)
    if (shape.code !== undefined) reply.code(shape.code)
  }
  switch (shape.ending) {
    case 'hijack-raw-sync': return (_q, reply: Any) => { before(reply); reply.hijack(); rawEnd(reply) }
    case 'raw-no-hijack-sync': return (_q, reply: Any) => { before(reply); rawEnd(reply, 203) }
    // A sync handler that returns the reply and answers from a timer (the reply is a thenable).
    case 'sync-send-later-return-reply': return (_q, reply: Any) => { before(reply); setTimeout(() => reply.send({ later: true }), 2); return reply }
    default: break
  }
  return async (_q: Any, reply: Any) => {
    before(reply)
    switch (shape.ending) {
      case 'hijack-raw': reply.hijack(); rawEnd(reply); return undefined
      case 'hijack-later': reply.hijack(); setTimeout(() => rawEnd(reply, 202), 2); return undefined
      case 'sent-true-raw': reply.sent = true; rawEnd(reply); return undefined
      case 'hijack-return-value': reply.hijack(); rawEnd(reply); return { ignored: true }
      case 'raw-no-hijack': rawEnd(reply, 203); return undefined
      case 'raw-no-hijack-return-reply': rawEnd(reply, 203); return reply
      case 'send-twice': reply.send('first'); reply.send('second'); return reply
      case 'send-then-return-value': reply.send({ sent: 1 }); return { returned: 2 }
      case 'await-send': await reply.send({ awaited: true }); return undefined
      case 'send-error-then-send': reply.send(Object.assign(new Error('sent error'), { statusCode: 409 })); reply.send('after the error'); return reply
      case 'redirect-url': reply.redirect('/to'); return reply
      case 'redirect-code-url': reply.redirect(301, '/to'); return reply
      case 'redirect-url-code': reply.redirect('/to', 301); return reply
      case 'code-then-redirect': reply.code(303).redirect('/to'); return reply
      case 'call-not-found-after-headers': reply.header('x-before-404', 'yes'); reply.callNotFound(); return reply
      case 'get-headers': reply.header('x-a', 'a').header('X-Mixed', ['1', '2']); return { headers: reply.getHeaders() }
      case 'sent-read': {
        const sentBefore = reply.sent
        reply.send({ sentBefore })
        return reply
      }
      // Taken over, then failing: the failure has no reply to answer (both log it).
      case 'hijack-then-throw': reply.hijack(); rawEnd(reply); throw new Error('after the hijack')
      case 'sent-read-after-hijack': {
        reply.hijack()
        reply.raw.writeHead(200, { 'content-type': 'application/json' })
        reply.raw.end(JSON.stringify({ sent: reply.sent }))
        return undefined
      }
      // A header set on the raw response counts (README: as in Fastify 3).
      case 'raw-set-header-then-send': reply.raw.setHeader('x-raw-set', '1'); reply.send({ ok: true }); return reply
      // The head written on the raw response, then a send: Node refuses the second head.
      case 'raw-write-head-then-send': reply.raw.writeHead(207, { 'x-raw-head': '1' }); try { reply.send('after the raw head') } catch { /* refusing is allowed */ } return reply
      case 'response-time-type': return { type: typeof reply.getResponseTime() }
      case 'await-send-then-header': await reply.send({ awaited: true }); try { reply.header('x-too-late', '1') } catch { /* refusing is allowed */ } return undefined
      default: return undefined
    }
  }
}

function hookOf(hook: LifecycleHook): [string, Function] {
  switch (hook) {
    case 'onRequest-hijack': return ['onRequest', (_q: Any, reply: Any, done: () => void) => { reply.hijack(); rawEnd(reply, 200); done() }]
    case 'preHandler-hijack': return ['preHandler', async (_q: Any, reply: Any) => { reply.hijack(); rawEnd(reply, 200) }]
    case 'onSend-stream': return ['onSend', async (_q: Any, _r: Any, payload: unknown) => Readable.from([`streamed:${typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : String(payload)}`])]
    // A send from onSend or onResponse is too late: both frameworks ignore it (Fastify 3 warns).
    case 'onSend-send': return ['onSend', async (_q: Any, reply: Any, payload: unknown) => { try { reply.send('from onSend') } catch { /* refusing is allowed */ } return payload }]
    case 'onResponse-send': return ['onResponse', async (_q: Any, reply: Any) => { try { reply.send('from onResponse') } catch { /* refusing is allowed */ } }]
  }
}

export function describeLifecycleShape(shape: LifecycleShape): string {
  return [shape.ending, shape.preset ? 'headers first' : '', shape.code !== undefined ? `code(${shape.code}) first` : '', ...shape.hooks].filter((x) => x !== '').join(', ')
}

export function lifecycleRoute(shape: LifecycleShape): RouteSpec {
  const options: Record<string, unknown> = {}
  for (const hook of shape.hooks) {
    const [name, fn] = hookOf(hook)
    options[name] = fn
  }
  return { method: shape.method, url: '/l', handler: handlerOf(shape), options }
}

export function lifecycleRequest(r: Random, shape: LifecycleShape): RequestSpec {
  if (shape.method === 'GET') return { method: r.chance(0.15) ? 'HEAD' : 'GET', url: '/l' }
  return { method: 'POST', url: '/l', headers: { 'content-type': 'application/json' }, payload: '{"k":1}' }
}

/** The endings and hooks that answer by writing `reply.raw` themselves (over inject a HEAD's raw body is captured, as Fastify's inject does). */
export function writesRaw(shape: LifecycleShape): boolean {
  return ['hijack-raw', 'hijack-raw-sync', 'hijack-later', 'sent-true-raw', 'hijack-return-value', 'raw-no-hijack', 'raw-no-hijack-return-reply', 'raw-no-hijack-sync', 'hijack-then-throw', 'sent-read-after-hijack', 'raw-write-head-then-send'].includes(shape.ending) ||
    shape.hooks.some((h) => h === 'onRequest-hijack' || h === 'preHandler-hijack')
}
