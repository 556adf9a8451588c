// docs/recipes-bff.md over real HTTP: the BFF of test/ecosystem/bff/app.ts in front of three loopback
// upstreams (bff/upstreams.ts), its cache in a real redis-server (started here, stopped by pid), with the
// real @fastify/cors, @fastify/cookie, @fastify/compress and @fastify/http-proxy. What the recipe
// promises: fan-out with partial answers, per-call timeouts, a circuit breaker, the cache, the request id
// carried to every upstream and into the access log, a client that leaves cancelling the upstream call
// (fan-out, SSE and proxy), streams passed through with backpressure, CORS with credentials, compression.
import 'reflect-metadata'
import { get, type IncomingMessage } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { expect } from 'chai'
import Redis from 'ioredis'
import { createApp, type Scope } from '../../src'
import { sleep } from '../support/raw-http'
import { until } from '../support/until'
import { recordingLogger } from '../support/servers'
import { bffModule } from './bff/app'
import { startUpstreams, type Seen, type Upstreams } from './bff/upstreams'
import { startRedis, stop, type Child } from './redis/processes'

const ORIGIN = 'https://app.example'

/** GETs `path`, hands each chunk to `onChunk` until it returns true, then leaves (destroys the request). */
function readThenLeave(url: string, headers: Record<string, string>, onChunk: (chunk: Buffer, res: IncomingMessage) => boolean): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers }, (res) => {
      res.on('data', (chunk: Buffer) => { if (onChunk(chunk, res)) { request.destroy(); resolve(res) } })
      res.on('end', () => reject(new Error(`${url} ended before the client left`)))
    })
    request.on('error', (error) => { if (!request.destroyed) reject(error) })
  })
}

describe('recipe: a backend-for-frontend (docs/recipes-bff.md)', function () {
  this.timeout(20_000)
  let redisChild: Child | undefined
  let redis: Redis
  let upstreams: Upstreams
  let app: Scope
  let base: string
  let logger: ReturnType<typeof recordingLogger>
  let cookie: string

  const boot = async () => {
    logger = recordingLogger()
    const instance = await createApp(bffModule({
      profile: upstreams.slow, recommendations: upstreams.flaky, stream: upstreams.stream, redis, origin: ORIGIN, cookieSecret: 'a cookie secret of at least 32 characters',
    }), { logger, disableRequestLogging: false, requestIdHeader: 'x-request-id' })
    return { instance, address: await instance.listen({ port: 0, host: '127.0.0.1' }) }
  }
  const login = async (user: string) => {
    const res = await fetch(`${base}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user }) })
    expect(res.status).to.equal(200)
    return res.headers.get('set-cookie')!.split(';')[0]
  }
  const seenSince = (from: number, path: string): Seen[] => upstreams.seen.slice(from).filter((s) => s.path.startsWith(path))

  before(async () => {
    const started = await startRedis()
    redisChild = started.child
    redis = new Redis({ port: started.port, host: '127.0.0.1', maxRetriesPerRequest: 1 })
    upstreams = await startUpstreams()
    const booted = await boot()
    app = booted.instance
    base = booted.address
    cookie = await login('ada')
  })
  after(async () => {
    await app?.close()
    await upstreams?.close()
    redis?.disconnect()
    await stop(redisChild)
  })
  beforeEach(() => upstreams.setFlaky(false))

  it('answers 401 without the session cookie, and a forged cookie is no session', async () => {
    expect((await fetch(`${base}/api/dashboard`)).status).to.equal(401)
    const forged = await fetch(`${base}/api/dashboard`, { headers: { cookie: 'sid=ada.forged' } })
    expect(forged.status).to.equal(401)
    expect(await forged.json()).to.include({ code: 'BFF_NO_SESSION' })
  })

  it('fans out to both upstreams and answers every part; the request id reaches both upstreams and the access log', async () => {
    const from = upstreams.seen.length
    const res = await fetch(`${base}/api/dashboard`, { headers: { cookie, 'x-request-id': 'trace-1a2b' } })
    expect(res.status).to.equal(200)
    expect(await res.json()).to.deep.equal({
      user: 'ada', partial: false, errors: [], profile: { name: 'Ada', plan: 'pro' }, recommendations: [{ id: 1, title: 'first' }, { id: 2, title: 'second' }],
    })
    expect(upstreams.seen.slice(from).map((s) => s.requestId)).to.deep.equal(['trace-1a2b', 'trace-1a2b'])
    expect(logger.entries.filter((e) => e.obj.reqId === 'trace-1a2b').map((e) => e.msg)).to.include.members(['incoming request', 'request completed'])
  })

  it('caches the profile for its TTL: in memory, and in Redis for another instance', async () => {
    await fetch(`${base}/api/dashboard`, { headers: { cookie } })
    const from = upstreams.seen.length
    expect((await fetch(`${base}/api/dashboard`, { headers: { cookie } })).status).to.equal(200)
    expect(seenSince(from, '/profile'), 'a second call within the TTL').to.deep.equal([])
    expect(Number(await redis.pttl('bff:profile:ada'))).to.be.within(1, 5_000)
    const other = await boot()                                   // a second instance: empty memory
    try {
      const res = await fetch(`${other.address}/api/dashboard`, { headers: { cookie } })
      expect(((await res.json()) as { profile: unknown }).profile).to.deep.equal({ name: 'Ada', plan: 'pro' })
      expect(seenSince(from, '/profile'), 'the other instance read Redis').to.deep.equal([])
    } finally { await other.instance.close() }
  })

  it('a failing upstream gives a partial answer with a coded error; after three failures the circuit opens and the upstream is not called', async () => {
    upstreams.setFlaky(true)
    const from = upstreams.seen.length
    const codes: string[] = []
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${base}/api/dashboard`, { headers: { cookie } })
      expect(res.status).to.equal(200)
      const body = await res.json() as { partial: boolean; profile?: unknown; recommendations?: unknown; errors: Array<{ code: string }> }
      expect(body.partial).to.equal(true)
      expect(body.profile).to.deep.equal({ name: 'Ada', plan: 'pro' })
      expect(body).not.to.have.property('recommendations')
      codes.push(body.errors[0].code)
    }
    expect(codes).to.deep.equal(['UPSTREAM_BAD_GATEWAY', 'UPSTREAM_BAD_GATEWAY', 'UPSTREAM_BAD_GATEWAY', 'UPSTREAM_CIRCUIT_OPEN'])
    expect(seenSince(from, '/recommendations'), 'the fourth call never reached the upstream').to.have.length(3)
  })

  it('an upstream slower than its call timeout is a partial answer with UPSTREAM_TIMEOUT, and its call is cancelled', async () => {
    const slowUser = await login('slow-user')
    const from = upstreams.seen.length
    const res = await fetch(`${base}/api/dashboard?delay=4000`, { headers: { cookie: slowUser } })
    const body = await res.json() as { partial: boolean; errors: Array<{ part: string; code: string }> }
    expect(body.errors).to.deep.include({ part: 'profile', code: 'UPSTREAM_TIMEOUT' })
    await until(() => seenSince(from, '/profile')[0]?.outcome === 'aborted', 'the timed-out profile call is cut')
  })

  it('a client that leaves during the fan-out cancels the upstream call (request.signal)', async () => {
    const user = await login('leaves-early')
    const from = upstreams.seen.length
    const controller = new AbortController()
    const pending = fetch(`${base}/api/dashboard?delay=5000`, { headers: { cookie: user }, signal: controller.signal }).catch((error: Error) => error.name)
    await until(() => seenSince(from, '/profile').length === 1, 'the profile call started')
    controller.abort()
    expect(await pending).to.equal('AbortError')
    await until(() => seenSince(from, '/profile')[0].outcome === 'aborted', 'the upstream call is cancelled', { ms: 2_000 })
  })

  it('passes an SSE token stream through as it comes (not compressed), and a client that leaves cancels the upstream stream, logging no warn', async () => {
    const from = upstreams.seen.length
    const warnsBefore = logger.entries.filter((e) => e.level === 'warn' || e.level === 'error').length
    let events = 0
    const res = await readThenLeave(`${base}/api/chat?n=100000`, { cookie, 'accept-encoding': 'gzip' }, (chunk) => (events += chunk.toString().split('\n\n').length - 1) >= 3)
    expect(res.headers['content-type']).to.equal('text/event-stream')
    expect(res.headers['content-encoding']).to.equal(undefined)
    await until(() => seenSince(from, '/tokens')[0]?.outcome === 'aborted', 'the upstream stream is cut')
    await sleep(50)
    expect(logger.entries.filter((e) => e.level === 'warn' || e.level === 'error').slice(warnsBefore).map((e) => e.msg)).to.deep.equal([])
  })

  it('passes NDJSON through whole, gzip-compressed when the client asks', async () => {
    const res = await new Promise<{ headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      get(`${base}/api/items?n=200&size=20`, { headers: { cookie, 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) })).on('error', reject)
      }).on('error', reject)
    })
    expect(res.headers['content-encoding']).to.equal('gzip')
    const lines = gunzipSync(res.body).toString().trim().split('\n').map((line) => JSON.parse(line) as { i: number })
    expect(lines.map((l) => l.i)).to.deep.equal(Array.from({ length: 200 }, (_, i) => i))
  })

  it('a slow reader holds the upstream back: what the upstream wrote stays within a few MB of what the client read', async () => {
    const writtenBefore = upstreams.written()
    let read = 0
    const from = upstreams.seen.length
    await new Promise<void>((resolve, reject) => {
      const request = get(`${base}/api/items?n=1000000&size=1000`, { headers: { cookie } }, (res) => {
        res.pause()
        const timer = setInterval(() => { const chunk = res.read(16_384) as Buffer | null; if (chunk !== null) read += chunk.length }, 10)
        setTimeout(() => { clearInterval(timer); request.destroy(); resolve() }, 1_500)
      })
      request.on('error', (error) => { if (!request.destroyed) reject(error) })
    })
    const written = upstreams.written() - writtenBefore
    expect(read).to.be.greaterThan(0)
    // 1 GB offered; without backpressure the BFF would have buffered it as fast as loopback goes.
    expect(written - read, `upstream wrote ${written} bytes, the client read ${read}`).to.be.below(16 * 1024 * 1024)
    await until(() => seenSince(from, '/items')[0]?.outcome === 'aborted', 'the upstream stream is cut when the reader leaves')
  })

  it('a raw proxy route (@fastify/http-proxy) needs the session, carries the request id, and a client that leaves cuts the upstream', async () => {
    expect((await fetch(`${base}/raw/items?n=2`)).status).to.equal(401)
    const from = upstreams.seen.length
    const res = await fetch(`${base}/raw/items?n=2`, { headers: { cookie, 'x-request-id': 'raw-77' } })
    expect(res.headers.get('content-type')).to.equal('application/x-ndjson')
    expect(await res.text()).to.equal('{"i":0,"pad":"xxxxxxxx"}\n{"i":1,"pad":"xxxxxxxx"}\n')
    expect(seenSince(from, '/items')[0].requestId).to.equal('raw-77')
    const warnsBefore = logger.entries.filter((e) => e.level === 'warn' || e.level === 'error').length
    await readThenLeave(`${base}/raw/tokens?n=100000`, { cookie }, () => true)
    await until(() => seenSince(from, '/tokens')[0]?.outcome === 'aborted', 'the proxied upstream stream is cut')
    await sleep(50)
    expect(logger.entries.filter((e) => e.level === 'warn' || e.level === 'error').slice(warnsBefore).map((e) => e.msg)).to.deep.equal([])
  })

  it('CORS: the browser app\'s origin gets a preflight with credentials; another origin gets no allow-origin', async () => {
    const preflight = await fetch(`${base}/api/dashboard`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } })
    expect(preflight.status).to.equal(204)
    expect(preflight.headers.get('access-control-allow-origin')).to.equal(ORIGIN)
    expect(preflight.headers.get('access-control-allow-credentials')).to.equal('true')
    const other = await fetch(`${base}/api/dashboard`, { headers: { origin: 'https://evil.example', cookie } })
    expect(other.headers.get('access-control-allow-origin')).to.equal(null)
  })
})
