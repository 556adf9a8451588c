// Declares one case's route on Fastify 3.27.4 and on Enclave, and answers its request on each,
// through inject() or over a real loopback socket.
import http from 'node:http'
import http2 from 'node:http2'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { createServer } from '../../src/runtime'
import type { Answer, Case, RequestSpec } from './case'
import { buildApp } from './app-build'
import { SHARED_SCHEMAS } from './schemas'
import { logLines } from './logs'

// Connection management differs by transport, not by framework: these never reach a handler's logic.
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive'])

/** `http2`: both servers built with `http2: true` (h2c) and asked over node:http2 on loopback. */
export type Transport = 'inject' | 'http' | 'http2'
export type Framework = 'fastify3' | 'enclave'

interface App {
  route(options: unknown): unknown
  addSchema(schema: unknown): unknown
  ready(): PromiseLike<unknown>
  inject(request: unknown): PromiseLike<{ statusCode: number; headers: Record<string, unknown>; payload: string; rawPayload?: Buffer }>
  close(): PromiseLike<unknown>
  server: http.Server
}

/** A pino destination that keeps each line written (the logs family). */
function capture(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(line)
      callback()
    },
  })
}

function declare(framework: Framework, c: Case, lines: string[], transport: Transport): App {
  if (c.app !== undefined) return buildApp(framework, c.app, c.chainErrorHandlers === true) as unknown as App
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const customOptions = c.ajv === undefined ? undefined : { ...c.ajv }
  const given = transport === 'http2' ? { ...c.server, http2: true } : c.server
  const server = c.logs === true ? { ...given, logger: { ...(given?.logger as object), stream: capture(lines) } } : given ?? {}
  const app: App = framework === 'fastify3'
    ? require('fastify3')({ logger: false, ...server, ...(customOptions ? { ajv: { customOptions } } : {}) })
    : (createServer({ ...server, ...(customOptions ? { validator: { customOptions } } : {}) }) as unknown as App)
  for (const schema of SHARED_SCHEMAS) app.addSchema(structuredClone(schema))
  // Each app gets its own copy: both frameworks may annotate the schema objects they compile.
  const { options, setup, ...route } = c.route
  setup?.(app)
  app.route({ ...options, ...route, schema: route.schema === undefined ? undefined : structuredClone(route.schema) })
  return app
}

export async function answer(framework: Framework, c: Case, transport: Transport): Promise<Answer> {
  const lines: string[] = []
  const answered = await answerOnce(framework, c, transport, lines)
  if (c.logs !== true) return answered
  // Lines written once the response finished (the access log's `request completed`) are in by now.
  await new Promise((resolve) => setImmediate(resolve))
  return { ...answered, log: logLines(lines) }
}

async function answerOnce(framework: Framework, c: Case, transport: Transport, lines: string[]): Promise<Answer> {
  let app: App
  try {
    app = declare(framework, c, lines, transport)
  } catch (error) {
    // Refused while declaring (Fastify 3 throws from route()/register() for some options Enclave refuses at ready()).
    return { statusCode: 0, headers: {}, body: undefined, bootError: (error as Error).message }
  }
  try {
    try {
      await app.ready()
    } catch (error) {
      return { statusCode: 0, headers: {}, body: undefined, bootError: (error as Error).message }
    }
    if (transport === 'inject') {
      const { h2: _h2, ...request } = c.request // what only an HTTP/2 client sends
      const res = await app.inject(request)
      return toAnswer(res.statusCode, res.headers, res.rawPayload ?? Buffer.from(res.payload))
    }
    return transport === 'http2' ? await overHttp2(app, c.request) : await overHttp(app, c.request)
  } finally {
    await app.close()
  }
}

async function overHttp(app: App, spec: RequestSpec): Promise<Answer> {
  await new Promise<void>((resolve, reject) => {
    app.server.once('error', reject)
    app.server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = app.server.address() as AddressInfo
  return await new Promise<Answer>((resolve, reject) => {
    const headers: Record<string, string> = { ...spec.headers }
    // With `transfer-encoding: chunked` Node's client frames the body in chunks itself.
    if (spec.payload !== undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) headers['content-length'] = String(Buffer.byteLength(spec.payload))
    const req = http.request({ host: '127.0.0.1', port, method: spec.method, path: spec.url, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve(toAnswer(res.statusCode ?? 0, res.headers, Buffer.concat(chunks))))
      res.on('error', reject)
    })
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')))
    req.on('error', reject)
    req.end(spec.payload)
  })
}

/** The request over one h2c session (prior knowledge, as curl --http2-prior-knowledge asks). */
async function overHttp2(app: App, spec: RequestSpec): Promise<Answer> {
  await new Promise<void>((resolve, reject) => {
    app.server.once('error', reject)
    app.server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = app.server.address() as AddressInfo
  const session = http2.connect(`http://127.0.0.1:${port}`)
  try {
    return await new Promise<Answer>((resolve, reject) => {
      session.on('error', reject)
      const headers: Record<string, string | string[]> = { ':method': spec.method, ':path': spec.url }
      // HTTP/2 has no connection-specific headers (RFC 9113 8.2.2): Node refuses to send them. A
      // Host is sent as :authority (the client's own is the listening port, which differs per server).
      // The http2 family sends Host as a header of its own beside the :authority it draws.
      const extras = spec.h2
      if (extras?.authority !== undefined) headers[':authority'] = extras.authority
      if (extras?.cookies !== undefined) headers.cookie = extras.cookies
      if (extras?.bigHeader !== undefined) headers['x-big'] = 'b'.repeat(extras.bigHeader)
      for (const [name, value] of Object.entries(spec.headers ?? {})) {
        const lower = name.toLowerCase()
        if (lower === 'host' && extras === undefined) headers[':authority'] = value
        else if (!['connection', 'transfer-encoding', 'keep-alive'].includes(lower)) headers[lower] = value
      }
      if (spec.payload !== undefined && headers['content-length'] === undefined) headers['content-length'] = String(Buffer.byteLength(spec.payload))
      const trailers = extras?.trailers
      // Node ends a GET's stream at once unless told otherwise: a GET with a body is sent whole.
      const req = session.request(headers, { endStream: spec.payload === undefined && extras?.reset === undefined, ...(trailers !== undefined ? { waitForTrailers: true } : {}) })
      if (trailers !== undefined) req.once('wantTrailers', () => req.sendTrailers(trailers))
      // As overHttp's bound: a framework that hangs is no answer (run.ts), not an empty one.
      const timer = setTimeout(() => { reject(new Error('no answer within 5 s')); req.close(http2.constants.NGHTTP2_CANCEL) }, 5000)
      let status = 0
      let head: Record<string, unknown> = {}
      req.on('response', (h) => {
        status = Number(h[':status'])
        head = Object.fromEntries(Object.entries(h).filter(([name]) => !name.startsWith(':')))
      })
      // Reply trailers (reply.raw.addTrailers()) are read as headers named `trailer:<name>`.
      req.on('trailers', (t) => { for (const [name, value] of Object.entries(t)) head[`trailer:${name}`] = value })
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      if (extras?.reset === undefined) req.on('end', () => { clearTimeout(timer); resolve(toAnswer(status, head, Buffer.concat(chunks))) })
      else {
        // The client gives up (CANCEL) after its head or half its body: whether a head came back
        // first is a race, so the answer is only that the stream was reset and nothing crashed.
        req.on('close', () => { clearTimeout(timer); resolve({ statusCode: -4, headers: {}, body: 'stream reset by the client' }) })
        req.on('error', () => undefined)
        if (extras.reset === 'mid-body' && spec.payload !== undefined) req.write(Buffer.from(spec.payload).subarray(0, Math.ceil(Buffer.byteLength(spec.payload) / 2)))
        setTimeout(() => req.close(http2.constants.NGHTTP2_CANCEL), 20)
        return
      }
      req.on('close', () => { clearTimeout(timer); if (status === 0) reject(new Error(`stream closed (code ${req.rstCode ?? '?'})`)) })
      req.on('error', (error) => { clearTimeout(timer); reject(error) })
      req.end(spec.payload)
    })
  } finally {
    session.destroy()
  }
}

function toAnswer(statusCode: number, raw: Record<string, unknown>, bytes: Buffer): Answer {
  // Bytes that are not UTF-8 are compared as bytes (decoding would make any two alike).
  const text = bytes.toString('utf8')
  if (!Buffer.from(text, 'utf8').equals(bytes)) return { statusCode, headers: headersOf(raw), body: `bytes:${bytes.toString('hex')}` }
  const headers = headersOf(raw)
  let body: unknown = text
  if (/json/i.test(headers['content-type'] ?? '') && text !== '') {
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
  }
  return { statusCode, headers, body }
}

function headersOf(raw: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (!TRANSPORT_HEADERS.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return headers
}
