// Hostile HTTP/2 requests against the fuzz app (the sample and every feature, fuzz-app.ts) over
// h2c and TLS: requests node:http2's client will send but a server must not trust (bad paths,
// CONNECT, content-length lies, bodies past bodyLimit, trailers, a body that never ends,
// 10,000-segment URLs, prototype keys). Each answer with a body keeps the error contract; what
// nghttp2 refuses is a stream reset, never the session's end; afterwards the server still serves,
// holds no connection and logged nothing of ours. Frame-level floods are in
// test/transport/http2-floods.test.ts.
import { expect } from 'chai'
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2'
import { recordingLogger, track } from '../support/servers'
import { within } from '../support/raw-http'
import { tlsCert, tlsKey } from '../support/tls'
import { FUZZ_SERVER_OPTIONS, fuzzApp } from './fuzz-app'
import { LEAK, notOurs } from './fuzz-run'

interface Sent { headers: Record<string, string | string[]>; body?: string | Buffer; endless?: boolean; trailers?: Record<string, string> }
interface Got { status: number; body: string; reset: boolean }

const json = { 'content-type': 'application/json' }
const post = (path: string, extra: Record<string, string> = {}): Record<string, string> => ({ ':method': 'POST', ':path': path, ...json, ...extra })

/** What is sent, by name; every request is one stream of one session. */
const CASES: Record<string, Sent> = {
  'a body past bodyLimit': { headers: post('/fz/items/1', { 'x-tenant': 'a' }), body: Buffer.alloc(1_100_000, 0x20) },
  'a body past bodyLimit, declared': { headers: post('/fz/items/1', { 'x-tenant': 'a', 'content-length': '1100000' }), body: Buffer.alloc(1_100_000, 0x20) },
  'content-length shorter than the body': { headers: { ...post('/fz/raw'), ':method': 'PUT', 'content-length': '2' }, body: '{"a":1}' },
  'content-length longer than the body': { headers: { ...post('/fz/raw'), ':method': 'PUT', 'content-length': '200' }, body: '{"a":1}' },
  'trailers': { headers: { ...post('/fz/raw'), ':method': 'PUT' }, body: '{"a":1}', trailers: { 'x-t': '1' } },
  'a body that never ends': { headers: { ...post('/fz/raw'), ':method': 'PUT' }, body: '{"a":', endless: true },
  'JSON nested 100,000 deep': { headers: { ...post('/fz/raw'), ':method': 'PUT' }, body: '['.repeat(100_000) + ']'.repeat(100_000) },
  'a path without a slash': { headers: { ':path': 'fz/seq/1' } },
  'an absolute-form path': { headers: { ':path': 'http://evil.example/fz/seq/1' } },
  'a path of 10,000 segments': { headers: { ':path': '/fz' + '/a'.repeat(10_000) } },
  'a query of 5,000 keys': { headers: { ':path': '/fz/items/1?' + Array.from({ length: 5000 }, (_, i) => `k${i}`).join('&') } },
  'a bad escape': { headers: { ':path': '/fz/seq/%zz' } },
  'a lowercase method': { headers: { ':path': '/fz/seq/1', ':method': 'get' } },
  'CONNECT': { headers: { ':method': 'CONNECT', ':authority': 'example.com:443' } },
  'an odd scheme': { headers: { ':path': '/fz/seq/1', ':scheme': 'ftp' } },
  'prototype keys in query, headers and cookies': { headers: { ':path': '/fz/cookie?__proto__=1&constructor=2', '__proto__': 'x', constructor: 'y', cookie: ['__proto__=1', 'constructor=2'] } },
  'prototype keys in a JSON body': { headers: post('/fz/items/1', { 'x-tenant': 'a' }), body: '{"name":"n","meta":{"__proto__":{"x":1}}}' },
  'a truncated multipart body': { headers: { ':method': 'POST', ':path': '/fz/upload', 'content-type': 'multipart/form-data; boundary=bb' }, body: '--bb\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\nxyz' },
  'a websocket route': { headers: { ':path': '/fz/ws' } },
}

function send(session: ClientHttp2Session, sent: Sent, name: string): Promise<Got> {
  return within(new Promise<Got>((resolve) => {
    let status = 0
    const chunks: Buffer[] = []
    let stream
    try {
      stream = session.request(sent.headers, { endStream: sent.body === undefined && sent.endless !== true, waitForTrailers: sent.trailers !== undefined })
    } catch {
      resolve({ status: 0, body: '', reset: true })
      return
    }
    if (sent.trailers !== undefined) stream.on('wantTrailers', () => stream.sendTrailers(sent.trailers as Record<string, string>))
    stream.on('response', (h) => { status = Number(h[':status']) })
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    const done = (): void => resolve({ status, body: Buffer.concat(chunks).toString('utf8'), reset: status === 0 })
    stream.on('error', () => undefined)
    // The answer is whole at 'end'; a stream whose request body never ended stays open until closed.
    stream.on('end', () => { done(); stream.close() })
    stream.on('close', done)
    if (sent.body !== undefined) stream.write(sent.body)
    if (sent.body !== undefined && sent.endless !== true) stream.end()
  }), 8_000, `an HTTP/2 answer to ${name}`)
}

/** What is wrong with one answer, or null (the fuzz's contract, fuzz-run.ts, for one HTTP/2 stream). */
function problem(path: string, got: Got): string | null {
  if (got.reset) return null
  if (LEAK.test(got.body)) return `internal text leaked: ${got.body.slice(0, 200)}`
  if (got.status < 400) return null
  // Plugins' own answers: @fastify/websocket's bodiless 404 to plain HTTP.
  if (got.status === 404 && got.body === '' && path.startsWith('/fz/ws')) return null
  let parsed: Record<string, unknown>
  try { parsed = JSON.parse(got.body) as Record<string, unknown> } catch { return `${got.status} that is not JSON: ${got.body.slice(0, 200)}` }
  const extra = Object.keys(parsed).filter((k) => !['statusCode', 'code', 'error', 'message'].includes(k))
  if (parsed.statusCode !== got.status || typeof parsed.error !== 'string' || typeof parsed.message !== 'string' || extra.length > 0) return `${got.status} without the error shape: ${got.body.slice(0, 200)}`
  if (got.status >= 500 && parsed.code !== 'ENC_ERR_REQUEST_CONNECT_UNSUPPORTED') return `${got.status} from the framework: ${got.body.slice(0, 200)}`
  return null
}

describe('hardening: hostile HTTP/2 requests against every feature', function () {
  this.timeout(30_000)

  for (const [transport, extra] of [['h2c', {}], ['TLS', { https: { key: tlsKey, cert: tlsCert } }]] as const) {
    it(`over ${transport}: ${Object.keys(CASES).length} kinds, each answer in the error contract or a stream reset, the session kept, the server healthy afterwards`, async () => {
      const logger = recordingLogger()
      const { app, port } = await fuzzApp({ ...FUZZ_SERVER_OPTIONS, http2: true, ...extra, logger })
      track(app)
      const url = `${transport === 'TLS' ? 'https' : 'http'}://127.0.0.1:${port}`
      const session = http2Connect(url, { ca: tlsCert })
      session.on('error', () => undefined)
      const failures: string[] = []
      const statuses: Record<string, number | 'reset'> = {}
      try {
        for (const [name, sent] of Object.entries(CASES)) {
          const got = await send(session, sent, name)
          statuses[name] = got.reset ? 'reset' : got.status
          const wrong = problem(String(sent.headers[':path'] ?? ''), got)
          if (wrong !== null) failures.push(`${name}: ${wrong}`)
        }
        expect(failures, failures.join('\n')).to.deep.equal([])
        expect(session.destroyed || session.closed, 'the session ended').to.equal(false)
        // A sample of the outcomes, so a change of answer is seen.
        expect(statuses).to.include({ 'a body past bodyLimit': 413, 'CONNECT': 501, 'JSON nested 100,000 deep': 400, 'a body that never ends': 408, 'trailers': 200, 'a path without a slash': 'reset' })
        const ok = await send(session, { headers: { ':path': '/fz/seq/7' } }, 'a GET afterwards')
        expect(ok).to.deep.include({ status: 200, body: '{"seq":"7"}' })
      } finally {
        session.destroy()
      }
      let connections = -1
      for (let i = 0; i < 250 && connections !== 0; i++) {
        connections = await new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)))
        if (connections !== 0) await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(connections, 'open connections after the run').to.equal(0)
      const errors = logger.entries.filter((e) => e.level === 'error' && !notOurs((e.obj?.err ?? e.obj) as Error & { code?: string }))
      expect(errors.map((e) => e.msg ?? JSON.stringify(e.obj).slice(0, 200))).to.deep.equal([])
    })
  }
})
