/**
 * Where a lazy route's first request goes (issue 16: the ≤ 3 ms target), in CPU µs by piece: the
 * boot table's `enclave-runtime-lazy` app and request (an untimed request to the first route, then
 * the timed one to the last), with the pieces timed by wrapping them (process.cpuUsage around each):
 *
 *   node dist/bench/boot/first-request-account.js [--runs=8] [--shape=distinct] [--eager] [--warm-client]
 *
 * One fresh process per run, medians printed. Columns: total (the request, client included, as the
 * boot table's "its CPU ms"), server (the server's share: node's 'request' event to end()), lazy (LazyRouteSchemas.compile: Enclave's build with ajv inside it),
 * ajv (ajv 6 compile), validator1 (the validator's first call), fjs (fast-json-stringify builds,
 * at the first send), serializer1 (the serializer's first call), normalize, warnings, keywords
 * (Enclave's own walks of the schema), cacheKey (its JSON text), coerce and nullRoot (the wrappers
 * around each built serializer), atOnce (the validator code's rewrite) and guard. Each wrapper costs ~2-5 µs of
 * getrusage calls, so the pieces read a little high; compare builds with each other. `--eager`
 * times the same request with the schemas compiled at boot: the HTTP path and first calls alone.
 * `--warm-client` first sends two requests from the same client code to a canned TCP responder (no
 * framework, no node:http server): the in-process client's own code then runs warm, and `total` is
 * closer to the server's share (session 19: the client's second run is ~0.5-0.9 ms of `total`).
 */
import { execFileSync } from 'node:child_process'
import { request } from 'node:http'
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { median } from '../harness/stats'
import { watchNextRequest } from './first-request'
import { bootApp, bootReply, exampleBody, type BootApp, type BootRoute, type BootShape } from './routes'

type Times = Record<string, number>
const PIECES = ['total', 'server', 'lazy', 'ajv', 'validator1', 'fjs', 'serializer1', 'normalize', 'warnings', 'keywords', 'cacheKey',
  'coerce', 'nullRoot', 'atOnce', 'guard']

const cpuUs = (): number => {
  const { user, system } = process.cpuUsage()
  return user + system
}

function flag(name: string, fallback: string): string {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  return arg === undefined ? fallback : arg.slice(name.length + 3)
}

/** Replaces `holder[name]` (a function) with one that adds its CPU time to `times[piece]`; `firstCall` times the first call of what it returns instead. */
function timed(holder: Record<string, unknown>, name: string, times: Times, piece: string, firstCall?: string): void {
  const original = holder[name] as (...args: unknown[]) => unknown
  const wrapper = function (this: unknown, ...args: unknown[]): unknown {
    const start = cpuUs()
    const result = original.apply(this, args)
    times[piece] += cpuUs() - start
    if (firstCall === undefined || typeof result !== 'function') return result
    const fn = result as (...a: unknown[]) => unknown
    let first = true
    const once = function (this: unknown, ...a: unknown[]): unknown {
      if (!first) return fn.apply(this, a)
      first = false
      const at = cpuUs()
      try { return fn.apply(this, a) } finally { times[firstCall] += cpuUs() - at; (once as unknown as { errors: unknown }).errors = (fn as unknown as { errors: unknown }).errors }
    }
    return Object.assign(once, fn)
  }
  Object.defineProperty(holder, name, { configurable: true, enumerable: true, writable: true, value: Object.assign(wrapper, original) })
}

/** One process: wraps the pieces (before Enclave loads, for fast-json-stringify's export), boots, times the request. */
async function worker(shape: BootShape, eager: boolean, warmClient: boolean): Promise<Times> {
  const times: Times = Object.fromEntries(PIECES.map((p) => [p, 0]))
  /* eslint-disable @typescript-eslint/no-require-imports */
  const Ajv = require('ajv') as { prototype: Record<string, unknown> }
  timed(Ajv.prototype, 'compile', times, 'ajv', 'validator1')
  const fjsPath = require.resolve('fast-json-stringify')
  const fjs = { build: require(fjsPath) as unknown }
  timed(fjs, 'build', times, 'fjs', 'serializer1')
  const wrappedFjs = fjs.build as Record<string, unknown>
  wrappedFjs.default = wrappedFjs
  require.cache[fjsPath]!.exports = wrappedFjs
  timed(require('../../src/runtime/serve/lazy-route-schemas').LazyRouteSchemas.prototype, 'compile', times, 'lazy')
  timed(require('../../src/runtime/schemas/route-schema'), 'normalizeRouteSchema', times, 'normalize')
  timed(require('../../src/runtime/boot/schema-warnings'), 'routeSchemaWarnings', times, 'warnings')
  timed(require('../../src/runtime/schemas/keyword-check'), 'checkKeywords', times, 'keywords')
  timed(require('../../src/runtime/schemas/schema-walk'), 'schemaCacheKey', times, 'cacheKey')
  timed(require('../../src/runtime/schemas/response-coercion'), 'coerceLikeFastify3', times, 'coerce')
  timed(require('../../src/runtime/schemas/null-root'), 'refuseNullRoot', times, 'nullRoot')
  timed(require('../../src/runtime/schemas/used-at-once'), 'compileAtOnceWhenUsed', times, 'atOnce')
  timed(require('../../src/runtime/schemas/finite-guard'), 'guardNonFinite', times, 'guard')
  const { createServer } = require('../../src/runtime') as typeof import('../../src/runtime')
  /* eslint-enable @typescript-eslint/no-require-imports */
  const app = bootApp(1000, shape)
  const server = createServer({ logger: false, schemaCompilation: eager ? 'eager' : 'lazy' })
  for (const schema of app.shared) server.addSchema(schema as never)
  for (const r of app.routes) server.post(r.url, { schema: { body: r.body, response: { 200: r.response } } }, () => bootReply)
  await server.listen({ port: 0, host: '127.0.0.1' })
  const { port } = server.server.address() as AddressInfo
  if (warmClient) await warmTheClient(app)
  await post(port, app, app.routes[0])
  for (const piece of PIECES) times[piece] = 0
  const share = watchNextRequest(server.server)
  const start = cpuUs()
  await post(port, app, app.routes[app.routes.length - 1])
  times.total = cpuUs() - start
  times.server = (await share).cpuMs * 1000
  await server.close()
  return times
}

/** Two requests to a responder that answers every request with the same bytes once the body is in. */
async function warmTheClient(app: BootApp): Promise<void> {
  const canned = 'HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}'
  const responder: TcpServer = createTcpServer((socket) => {
    let seen = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      seen += chunk
      const head = seen.indexOf('\r\n\r\n')
      const length = /content-length: (\d+)/i.exec(seen)
      if (head !== -1 && length !== null && seen.length >= head + 4 + Number(length[1])) socket.end(canned)
    })
  })
  await new Promise<void>((resolve) => responder.listen(0, '127.0.0.1', resolve))
  const { port } = responder.address() as AddressInfo
  try {
    for (let i = 0; i < 2; i++) await post(port, app, app.routes[1])
  } finally {
    responder.close()
  }
}

function post(port: number, app: BootApp, route: BootRoute): Promise<void> {
  const body = JSON.stringify(exampleBody(route.body, app.shared))
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: route.url, agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume()
      res.on('end', () => res.statusCode === 200 ? resolve() : reject(new Error(`${route.url} answered ${res.statusCode}`)))
    })
    req.setTimeout(10_000, () => req.destroy(new Error(`${route.url}: no answer within 10 s`)))
    req.on('error', reject)
    req.end(body)
  })
}

function main(): void {
  const shape = flag('shape', 'distinct') as BootShape
  const eager = process.argv.includes('--eager')
  const warmClient = process.argv.includes('--warm-client')
  if (process.argv.includes('--worker')) {
    worker(shape, eager, warmClient).then((times) => { process.stdout.write(`${JSON.stringify(times)}\n`) }, (error: unknown) => {
      process.stderr.write(`${String(error)}\n`)
      process.exit(1)
    })
    return
  }
  const runs = Number(flag('runs', '8'))
  const samples: Times[] = []
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, [__filename, '--worker', `--shape=${shape}`, ...(eager ? ['--eager'] : []), ...(warmClient ? ['--warm-client'] : [])], { encoding: 'utf8', timeout: 120_000 })
    samples.push(JSON.parse(out.trim().split('\n').pop()!) as Times)
  }
  process.stdout.write(`first request to a further ${eager ? 'eager' : 'lazy'} route, ${shape}${warmClient ? ', client warmed' : ''}, CPU µs, medians of ${runs} fresh processes\n`)
  for (const piece of PIECES) process.stdout.write(`  ${piece.padEnd(12)} ${String(Math.round(median(samples.map((s) => s[piece])) ?? 0)).padStart(6)}\n`)
}

main()
