// The `logs` family: what a log pipeline reads of the lines each framework writes through pino
// (`logger: { level, stream }`, the stream capturing JSON lines): the access lines (`incoming
// request`, `request completed`), the error lines of a 5xx (error, with req/res/err) and a 4xx
// (info), a not-found line, a handler's own lines through `request.log` and a child of it, under
// `disableRequestLogging`, `requestIdHeader`, `genReqId`, `requestIdLogLabel`, `serializers`,
// `logLevel` per route and per plugin, and a hook that swaps `request.log` for a child.
// Lines are compared as keys, levels and message text; values that differ by run (time, pid,
// hostname, responseTime, remotePort, stacks, a socket's port) as their types (logLines).
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export interface LogsDrawn {
  route: RouteSpec
  request: RequestSpec
  server: Record<string, unknown>
  note: string
}

function statusError(status: number, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { statusCode: status }, extra)
}

const HANDLERS: Array<[string, Handler]> = [
  ['logs info', (request) => { request.log.info({ k: 1 }, 'handler line'); return { ok: true } }],
  ['child warn', (request) => { request.log.child({ part: 'x' }).warn('child line'); return { ok: true } }],
  ['debug and trace', (request) => { request.log.debug({ d: true }, 'debug line'); request.log.trace('trace line'); return { ok: true } }],
  ['format args', (request) => { request.log.info('n=%d s=%s', 5, 'x'); return 'text' }],
  ['logs an error', (request) => { request.log.error(statusError(502, 'upstream', { code: 'E_UP' }), 'upstream failed'); return { ok: true } }],
  ['throw 500', async () => { throw new Error('boom') }],
  ['throw 400', async () => { throw statusError(400, 'bad thing') }],
  ['throw 409 with code', async () => { throw statusError(409, 'conflict', { code: 'E_CONFLICT' }) }],
  ['send Error 503', (_q, reply) => { reply.send(statusError(503, 'later')) }],
  ['code 404 send', (_q, reply) => { reply.code(404).send({ missing: true }) }],
  ['callNotFound', (_q, reply) => { reply.callNotFound() }],
]

const LEVELS = ['info', 'info', 'info', 'warn', 'error', 'debug', 'trace']
const ROUTE_LEVELS = ['warn', 'error', 'debug', 'silent', 'info']

// Serializers apps write: what a request and a reply say about themselves.
const SERIALIZERS: Array<[string, Record<string, (value: Any) => unknown>]> = [
  ['req method+url', { req: (req: Any) => ({ m: req.method, u: req.url, tag: req.headers?.['x-tag'] ?? null }) }],
  ['res status', { res: (res: Any) => ({ s: res.statusCode }) }],
  ['err type', { err: (err: Any) => ({ kind: err?.constructor?.name ?? null, msg: err?.message ?? null }) }],
]

const GEN_IDS: Array<[string, () => string]> = [
  ['fixed', () => 'fixed-id'],
]

export function drawLogsCase(r: Random): LogsDrawn {
  const notes: string[] = []
  const logger: Record<string, unknown> = { level: r.pick(LEVELS) }
  notes.push(`level=${String(logger.level)}`)
  const server: Record<string, unknown> = { logger }
  if (r.chance(0.15)) { server.disableRequestLogging = true; notes.push('disableRequestLogging') }
  if (r.chance(0.25)) { server.requestIdHeader = 'x-request-id'; notes.push('requestIdHeader=x-request-id') }
  if (r.chance(0.15)) { const [name, fn] = r.pick(GEN_IDS); server.genReqId = fn; notes.push(`genReqId=${name}`) }
  if (r.chance(0.2)) { server.requestIdLogLabel = 'traceId'; notes.push('requestIdLogLabel=traceId') }
  if (r.chance(0.2)) { const [name, serializers] = r.pick(SERIALIZERS); logger.serializers = serializers; notes.push(`serializers: ${name}`) }
  const [handlerName, handler] = r.pick(HANDLERS)
  notes.push(`handler ${handlerName}`)
  const options: Record<string, unknown> = {}
  if (r.chance(0.25)) { options.logLevel = r.pick(ROUTE_LEVELS); notes.push(`route logLevel=${String(options.logLevel)}`) }
  const validated = r.chance(0.2)
  if (validated) notes.push('body schema')
  const method = validated ? 'POST' : r.pick(['GET', 'GET', 'POST'])
  const schema = validated ? { body: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } } : undefined
  const pluginLevel = r.chance(0.2) ? r.pick(ROUTE_LEVELS) : undefined
  if (pluginLevel !== undefined) notes.push(`plugin logLevel=${pluginLevel}`)
  const swapsLog = r.chance(0.15)
  if (swapsLog) notes.push('onRequest swaps request.log for a child')
  const logsOnResponse = r.chance(0.15)
  if (logsOnResponse) notes.push('onResponse logs')
  const hooks = (scope: Any): void => {
    if (swapsLog) scope.addHook('onRequest', (request: Any, _reply: Any, done: () => void) => { request.log = request.log.child({ tenant: 't1' }); done() })
    if (logsOnResponse) scope.addHook('onResponse', (request: Any, reply: Any, done: () => void) => { request.log.info({ status: reply.statusCode }, 'after response'); done() })
  }
  // With a plugin level the route is declared in a plugin (by setup); `route` is then a route the
  // plugin's prefix keeps out of the way, so that both frameworks serve the same table.
  const route: RouteSpec = pluginLevel === undefined
    ? { method, url: '/l/:id', schema, handler, options, setup: hooks }
    : {
        method: 'GET', url: '/other', handler: () => ({ other: true }),
        setup: (app) => {
          hooks(app)
          app.register(async (child: Any) => { child.route({ method, url: '/l/:id', schema, handler, ...options }) }, { prefix: '', logLevel: pluginLevel })
        },
      }
  const url = r.chance(0.8) ? r.pick(['/l/1', '/l/abc?q=1', '/l/%C3%A9']) : r.pick(['/nope', '/l', '/l/1/x'])
  const headers: Record<string, string> = {}
  if (r.chance(0.3)) headers['x-request-id'] = r.pick(['client-7', 'with space', ''])
  if (r.chance(0.15)) headers['accept-version'] = r.pick(['1.0.0', '2.x'])
  if (r.chance(0.2)) headers['x-tag'] = 'tagged'
  const request: RequestSpec = { method, url, headers }
  if (method === 'POST') {
    headers['content-type'] = 'application/json'
    request.payload = r.pick(['{"a":1}', '{"a":"x"}', '{}', '{bad'])
  }
  return { route, request, server, note: notes.join('; ') }
}

// Fields whose value differs from run to run: compared by type.
const VOLATILE_TOP = new Set(['time', 'pid', 'hostname', 'responseTime'])

function sorted(value: unknown, path: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => sorted(item, path))
  if (value === null || typeof value !== 'object') {
    const key = path.join('.')
    if ((path.length === 1 && VOLATILE_TOP.has(key)) || key === 'req.remotePort' || /(^|\.)stack$/.test(key)) return `<${typeof value}>`
    // A socket's port is the listening server's own.
    return typeof value === 'string' ? value.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>') : value
  }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value as object).sort()) out[key] = sorted((value as Record<string, unknown>)[key], [...path, key])
  return out
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.keys(value as object).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]))
}

/** A compared line (logLines) rewritten by a rule, written back the same way (keys sorted, no value re-read). */
export function lineOf(fields: Record<string, unknown>): string {
  return JSON.stringify(sortKeys(fields))
}

/** Captured pino lines as a log pipeline compares them: keys sorted, run-dependent values as their types. */
export function logLines(raw: string[]): string[] {
  return raw.map((line) => {
    try {
      return JSON.stringify(sorted(JSON.parse(line), []))
    } catch {
      return `not JSON: ${line}`
    }
  })
}
