import 'reflect-metadata'
import { expect } from 'chai'
import { get as httpsGet } from 'node:https'
import { constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2'
import { connectH2 as connect } from '../support/h2-client'
import { Readable } from 'node:stream'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { recordingLogger, server, track } from '../support/servers'
import { within } from '../support/raw-http'
import { plainExchange, tlsCert, tlsExchange, tlsKey } from '../support/tls'

const https = { key: tlsKey, cert: tlsCert }

interface H2Answer { status: number; headers: IncomingHttpHeaders; body: string }

/** One request on an HTTP/2 session; resolves with the whole answer. */
function h2(session: ClientHttp2Session, path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<H2Answer> {
  return within(new Promise<H2Answer>((resolve, reject) => {
    const stream = session.request({ ':path': path, ':method': init.method ?? 'GET', ...init.headers })
    let headers: IncomingHttpHeaders = {}
    let body = ''
    stream.on('response', (h) => { headers = h })
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => { body += chunk })
    stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body }))
    stream.on('error', reject)
    stream.end(init.body)
  }), 5_000, `HTTP/2 ${path}`)
}

function declareRoutes(app: ReturnType<typeof server>): void {
  app.get('/who', async (request) => ({
    protocol: request.protocol,
    httpVersion: request.raw.httpVersion,
    path: request.headers[':path'],
    hostname: request.hostname,
    url: request.url,
  }))
  app.post('/sum', { schema: { body: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'number' }, b: { type: 'number' } } } } }, async (request) => {
    const { a, b } = request.body as { a: number; b: number }
    return { sum: a + b }
  })
  app.get('/boom', async () => { throw new Error('boom') })
  app.get('/stream', (_request, reply) => { reply.type('text/plain').send(Readable.from(['a', 'b', 'c'])) })
  app.get('/hijack', (_request, reply) => {
    reply.hijack()
    reply.raw.writeHead(202, { 'content-type': 'text/plain' })
    reply.raw.end('raw')
  })
}

describe('transport: http2 (Fastify 3 http2 option)', () => {
  it('http2: true serves cleartext HTTP/2 (h2c): request.headers keep the pseudo-headers, as in Fastify 3, and request.raw is HTTP/2.0', async () => {
    const app = server({ http2: true })
    declareRoutes(app)
    const url = await app.listen(0)
    expect(url).to.match(/^http:\/\//)
    const answer = await h2(connect(url), '/who?x=1')
    expect(answer.status).to.equal(200)
    expect(JSON.parse(answer.body)).to.deep.equal({ protocol: 'http', httpVersion: '2.0', path: '/who?x=1', hostname: new URL(url).host, url: '/who?x=1' })
  })

  it('a route host constraint matches the HTTP/2 :authority (HTTP/2 has no Host header), as in Fastify 3', async () => {
    const app = server({ http2: true })
    app.get('/site', (_request, reply) => { reply.send({ site: 'any' }) })
    app.route({ method: 'GET', url: '/site', constraints: { host: 'beta.example' }, handler: (_request, reply) => { reply.send({ site: 'beta' }) } })
    const session = connect(await app.listen(0))
    expect(JSON.parse((await h2(session, '/site', { headers: { ':authority': 'beta.example' } })).body)).to.deep.equal({ site: 'beta' })
    expect(JSON.parse((await h2(session, '/site')).body)).to.deep.equal({ site: 'any' })
  })

  it('over HTTP/2 a handler sees validation 400s, 404s, error 500s, streams and reply.hijack() as over HTTP/1', async () => {
    const app = server({ http2: true })
    declareRoutes(app)
    const session = connect(await app.listen(0))
    const json = { 'content-type': 'application/json' }
    expect(await h2(session, '/sum', { method: 'POST', body: '{"a":1,"b":2}', headers: json })).to.include({ status: 200, body: '{"sum":3}' })
    const invalid = await h2(session, '/sum', { method: 'POST', body: '{"a":1}', headers: json })
    expect(invalid.status).to.equal(400)
    expect(JSON.parse(invalid.body)).to.include({ statusCode: 400, error: 'Bad Request' })
    expect((await h2(session, '/missing')).status).to.equal(404)
    const failed = await h2(session, '/boom')
    expect(failed.status).to.equal(500)
    expect(JSON.parse(failed.body)).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    expect(await h2(session, '/stream')).to.include({ status: 200, body: 'abc' })
    const hijacked = await h2(session, '/hijack')
    expect(hijacked).to.include({ status: 202, body: 'raw' })
    expect(hijacked.headers['content-type']).to.equal('text/plain')
  })

  it('inject() still works on an HTTP/2 server (it goes through the pipeline, not the server)', async () => {
    const app = server({ http2: true })
    declareRoutes(app)
    const answer = await app.inject({ url: '/sum', method: 'POST', payload: { a: 2, b: 3 } })
    expect(answer.json()).to.deep.equal({ sum: 5 })
  })

  it('under inject() an HTTP/2 app\'s request.raw is light-my-request\'s HTTP/1.1 stand-in (no stream, authority or scheme; httpVersion 1.1), over a real connection node:http2\'s (README Testing, typed17)', async () => {
    const app = server({ http2: true })
    // Typed Http2ServerRequest (the served request); what inject() hands over is read as it is.
    app.get('/raw', (request) => {
      const raw = request.raw as unknown as Record<string, unknown>
      return { stream: typeof raw.stream, authority: typeof raw.authority, scheme: typeof raw.scheme, httpVersion: raw.httpVersion }
    })
    expect((await app.inject('/raw')).json()).to.deep.equal({ stream: 'undefined', authority: 'undefined', scheme: 'undefined', httpVersion: '1.1' })
    const answer = await h2(connect(await app.listen(0)), '/raw')
    expect(JSON.parse(answer.body)).to.deep.equal({ stream: 'object', authority: 'string', scheme: 'string', httpVersion: '2.0' })
  })

  it('http2 with https and allowHTTP1 serves HTTP/2 over TLS and HTTP/1.1 clients on the same port; request.protocol is https', async () => {
    const log = recordingLogger()
    const app = server({ http2: true, https: { ...https, allowHTTP1: true }, logger: log })
    declareRoutes(app)
    const url = await app.listen(0)
    expect(url).to.match(/^https:\/\//)
    expect(log.entries.map((e) => e.msg ?? e.obj)).to.include(`Server listening at ${url}`)
    const viaH2 = JSON.parse((await h2(connect(url), '/who')).body) as Record<string, unknown>
    expect(viaH2).to.include({ protocol: 'https', httpVersion: '2.0' })
    const viaH1 = await new Promise<string>((resolve, reject) => {
      httpsGet(`${url}/who`, { ca: tlsCert, agent: false }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => { body += chunk })
        res.on('end', () => resolve(body))
      }).on('error', reject)
    })
    expect(JSON.parse(viaH1)).to.include({ protocol: 'https', httpVersion: '1.1' })
  })

  it('with allowHTTP1, headersTimeout still bounds an HTTP/1.1 client that never finishes its headers (408 in the JSON shape)', async () => {
    const app = server({ http2: true, https: { ...https, allowHTTP1: true }, headersTimeout: 200, requestTimeout: 1000 })
    const url = await app.listen(0)
    const text = await tlsExchange(url, 'GET / HTTP/1.1\r\nHost: x\r\n')
    expect(text).to.match(/^HTTP\/1\.1 408 /).and.contain('"code":"ENC_ERR_REQUEST_TIMEOUT"')
  })

  it('with allowHTTP1, an HTTP/1.1 CONNECT is the JSON 501 ENC_ERR_REQUEST_CONNECT_UNSUPPORTED (no crash), and the server keeps serving', async () => {
    const app = server({ http2: true, https: { ...https, allowHTTP1: true } })
    declareRoutes(app)
    const url = await app.listen(0)
    const text = await tlsExchange(url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')
    expect(text).to.match(/^HTTP\/1\.1 501 /).and.contain('"code":"ENC_ERR_REQUEST_CONNECT_UNSUPPORTED"')
    expect((await h2(connect(url), '/who')).status).to.equal(200)
  })

  it('a plain-HTTP request or a bad handshake to the HTTP/2 TLS port closes that connection without a crash or a log line', async () => {
    const log = recordingLogger()
    const app = server({ http2: true, https, logger: log })
    declareRoutes(app)
    const url = await app.listen(0)
    const before = log.entries.length
    await plainExchange(url, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    await plainExchange(url, '\x16\x03\x01\x00\x05garbage')
    expect(log.entries.slice(before).filter((e) => e.level === 'error' || e.level === 'warn')).to.deep.equal([])
    expect((await h2(connect(url), '/who')).status).to.equal(200)
  })

  it('a client that is not HTTP/2 on the h2c port (an HTTP/1.1 request) is closed without a crash, and the server keeps serving', async () => {
    const app = server({ http2: true })
    declareRoutes(app)
    const url = await app.listen(0)
    await plainExchange(url, 'GET /who HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await h2(connect(url), '/who')).status).to.equal(200)
  })

  it('an http2SessionTimeout beyond what a Node timer holds (2^31 - 1 ms) serves and closes sessions without a TimeoutOverflowWarning', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error): void => { warnings.push(`${warning.name}: ${warning.message}`) }
    process.on('warning', onWarning)
    try {
      const app = server({ http2: true, http2SessionTimeout: 3_000_000_000 })
      declareRoutes(app)
      const session = connect(await app.listen(0))
      expect((await h2(session, '/who')).status).to.equal(200)
      const closed = within(new Promise<void>((resolve) => session.once('close', () => resolve())), 5_000, 'session close')
      await app.close()
      await closed
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings.filter((warning) => warning.startsWith('TimeoutOverflowWarning'))).to.deep.equal([])
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('an HTTP/2 session idle for http2SessionTimeout is closed with GOAWAY', async () => {
    const app = server({ http2: true, http2SessionTimeout: 100 })
    declareRoutes(app)
    const session = connect(await app.listen(0))
    await h2(session, '/who')
    const goaway = new Promise<number>((resolve) => session.once('goaway', (code: number) => resolve(code)))
    expect(await within(goaway, 5_000, 'GOAWAY after http2SessionTimeout')).to.equal(constants.NGHTTP2_NO_ERROR)
    await within(new Promise<void>((resolve) => session.once('close', () => resolve())), 5_000, 'session close')
  })

  it('an HTTP/2 client that stops reading a large reply loses its session after http2SessionTimeout, then drainTimeout (GOAWAY alone would hold it open)', async () => {
    const app = server({ http2: true, http2SessionTimeout: 200, drainTimeout: 200 })
    const big = 'x'.repeat(2 * 1024 * 1024)
    app.get('/big', async () => big)
    const url = await app.listen(0)
    const serverSide = new Promise<void>((resolve) => app.server.once('session', (session: import('node:http2').Http2Session) => session.once('close', () => resolve())))
    const session = connect(url)
    const stream = session.request({ ':path': '/big' })
    stream.on('error', () => undefined)
    // Never read: flow control stops the reply after the first window.
    stream.pause()
    await within(serverSide, 5_000, 'waiting for the server to end the session of a client that stopped reading')
  })

  it('a stream still in its handler keeps its session past http2SessionTimeout (GOAWAY, then the answer)', async () => {
    // The handler answers once the client has had the GOAWAY, not after a sleep meant to outlast the timeout.
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    const app = server({ http2: true, http2SessionTimeout: 100 })
    app.get('/slow', async () => { await held; return 'late' })
    const session = connect(await app.listen(0))
    const goaway = new Promise<void>((resolve) => session.once('goaway', () => resolve()))
    const answer = h2(session, '/slow')
    try {
      await within(goaway, 5_000, 'GOAWAY after http2SessionTimeout')
    } finally {
      release()
    }
    expect(await answer).to.include({ status: 200, body: 'late' })
  })

  it('close() sends open sessions GOAWAY: the stream in flight finishes, then close() resolves', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    let arrived!: () => void
    const inHandler = new Promise<void>((resolve) => { arrived = resolve })
    const app = server({ http2: true, closeTimeout: 60_000 })
    app.get('/slow', async () => { arrived(); await held; return 'done' })
    const url = await app.listen(0)
    const session = connect(url)
    const idle = connect(url)
    await h2(idle, '/missing')
    const goaway = new Promise<void>((resolve) => session.once('goaway', () => resolve()))
    const answer = h2(session, '/slow')
    await inHandler
    const closing = app.close()
    await within(goaway, 5_000, 'GOAWAY on close()')
    release()
    expect(await answer).to.include({ status: 200, body: 'done' })
    await within(closing, 5_000, 'close() with open HTTP/2 sessions')
    expect(idle.closed || idle.destroyed).to.equal(true)
  })

  it('closeTimeout (or forceCloseConnections) destroys an HTTP/2 session whose stream never ends', async () => {
    let arrived!: () => void
    const inHandler = new Promise<void>((resolve) => { arrived = resolve })
    const app = server({ http2: true, forceCloseConnections: true })
    app.get('/stuck', () => { arrived(); return new Promise(() => undefined) })
    const session = connect(await app.listen(0))
    const stream = session.request({ ':path': '/stuck' })
    stream.on('error', () => undefined)
    await within(inHandler, 5_000, 'the stream to reach its handler')
    await within(app.close(), 5_000, 'close() with a stuck stream')
    await within(new Promise<void>((resolve) => { if (session.destroyed) resolve(); else session.once('close', () => resolve()) }), 5_000, 'session closed')
  })

  it('an HTTP/2 server tells clients it takes at most 100 concurrent streams per connection (Node would allow 2^32-1)', async () => {
    const app = server({ http2: true })
    const session = connect(await app.listen(0))
    await within(new Promise<void>((resolve) => session.once('remoteSettings', () => resolve())), 5_000, 'SETTINGS')
    expect(session.remoteSettings.maxConcurrentStreams).to.equal(100)
  })

  /** Records, for every HTTP/2 response of `app`, the heads Enclave writes and the reason phrases it sets (Node warns on both a Connection header and a reason phrase over HTTP/2). */
  function recordHeads(app: ReturnType<typeof server>): { heads: Array<Record<string, unknown>>; reasons: unknown[] } {
    const seen = { heads: [] as Array<Record<string, unknown>>, reasons: [] as unknown[] }
    app.server.prependListener('request', (_req: unknown, res: { writeHead: (...args: unknown[]) => unknown }) => {
      const writeHead = res.writeHead.bind(res)
      res.writeHead = (...args: unknown[]) => {
        const head = args.find((arg) => arg !== null && typeof arg === 'object')
        seen.heads.push({ ...(head as Record<string, unknown> | undefined) })
        return writeHead(...args)
      }
      Object.defineProperty(res, 'statusMessage', { configurable: true, get: () => '', set: (value: unknown) => { seen.reasons.push(value) } })
    })
    return seen
  }

  it('an HTTP/2 request with a bad Host gets its 400 without a Connection header (HTTP/2 has none: Node drops it with a warning)', async () => {
    const app = server({ http2: true })
    app.get('/', async () => 'ok')
    const session = connect(await app.listen(0))
    const seen = recordHeads(app)
    const answer = await h2(session, '/', { headers: { host: 'a@b' } })
    expect(answer.status).to.equal(400)
    expect(JSON.parse(answer.body)).to.include({ code: 'ENC_ERR_REQUEST_BAD_HOST' })
    expect(seen.heads).to.have.length(1)
    expect(seen.heads[0]).to.not.have.property('connection')
    expect((await h2(session, '/')).status).to.equal(200)
  })

  it('a reply head refused over HTTP/2 (send() after reply.raw.write()) sets no reason phrase for the error reply (HTTP/2 has none)', async () => {
    const app = server({ http2: true })
    app.get('/raw', (_request, reply) => { reply.raw.write('pre-'); reply.send('post') })
    const session = connect(await app.listen(0))
    const seen = recordHeads(app)
    // The stream is then reset (http2-cut-response.test.ts): its head is what is read here.
    const reset = await h2(session, '/raw').then(() => null, (error: { code?: string }) => error)
    expect(reset?.code).to.equal('ERR_HTTP2_STREAM_ERROR')
    expect(seen.reasons).to.deep.equal([])
  })

  it('a client that resets its HTTP/2 stream before the answer runs onRequestAbort (not onResponse), and request.signal aborts', async () => {
    const app = server({ http2: true })
    const seen: string[] = []
    let signalled!: () => void
    const aborted = new Promise<void>((resolve) => { signalled = resolve })
    let arrived!: () => void
    const inHandler = new Promise<void>((resolve) => { arrived = resolve })
    app.addHook('onRequestAbort', async (request) => { seen.push(`abort ${request.url} ${String(request.aborted)}`) })
    app.addHook('onResponse', async (request) => { seen.push(`response ${request.url}`) })
    app.get('/slow', async (request) => {
      request.signal.addEventListener('abort', () => signalled())
      arrived()
      await aborted
      return 'late'
    })
    app.get('/fast', async () => 'ok')
    const session = connect(await app.listen(0))
    const stream = session.request({ ':path': '/slow' })
    stream.on('error', () => undefined)
    await within(inHandler, 5_000, 'the handler starting')
    stream.close(constants.NGHTTP2_CANCEL)
    await within(aborted, 5_000, 'request.signal aborting')
    expect((await h2(session, '/fast')).status).to.equal(200)
    for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(seen).to.deep.equal(['abort /slow true', 'response /fast'])
  })

  it('createApp({ http2: true }) serves its controllers over HTTP/2', async () => {
    @Route('/hello')
    class HelloController { @Get('/') hello(): { hi: string } { return { hi: 'h2' } } }
    @Module({ controllers: [HelloController] })
    class AppModule {}
    const app = track(await createApp(AppModule, { http2: true }))
    expect(await h2(connect(await app.listen(0)), '/hello')).to.include({ status: 200, body: '{"hi":"h2"}' })
  })
})
