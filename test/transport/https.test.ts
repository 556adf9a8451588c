import 'reflect-metadata'
import { expect } from 'chai'
import { get as httpsGet } from 'node:https'
import { connect, type Socket } from 'node:net'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { server, recordingLogger } from '../support/servers'
import { track } from '../support/servers'
import { within } from '../support/raw-http'
import { readSteadily } from '../support/steady-reader'
import { plainExchange, tlsCert, tlsClient, tlsExchange, tlsKey } from '../support/tls'

const https = { key: tlsKey, cert: tlsCert }

/** A GET over https trusting the test certificate. */
function fetchHttps(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpsGet(url, { ca: tlsCert, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode as number, body }))
    }).on('error', reject)
  })
}

describe('transport: https (Fastify 3 https option)', () => {
  it('createServer({ https }) serves over TLS, request.protocol is https and the listen line says https://', async () => {
    const log = recordingLogger()
    const app = server({ https, logger: log })
    app.get('/', async (request) => ({ protocol: request.protocol, encrypted: (request.raw.socket as Socket & { encrypted?: boolean }).encrypted === true }))
    const url = await app.listen(0)
    expect(url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(log.entries.map((e) => e.msg ?? e.obj)).to.include(`Server listening at ${url}`)
    const answer = await fetchHttps(`${url}/`)
    expect(answer.status).to.equal(200)
    expect(JSON.parse(answer.body)).to.deep.equal({ protocol: 'https', encrypted: true })
  })

  it('a plain-HTTP request to the TLS port closes that connection without a crash or a log line, and the server keeps serving', async () => {
    const log = recordingLogger()
    const app = server({ https, logger: log })
    app.get('/', async () => 'ok')
    const url = await app.listen(0)
    const before = log.entries.length
    for (let i = 0; i < 3; i++) await plainExchange(url, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    await plainExchange(url, '\x16\x03\x01\x00\x05garbage')
    expect(log.entries.slice(before).filter((e) => e.level === 'error' || e.level === 'warn')).to.deep.equal([])
    expect((await fetchHttps(`${url}/`)).body).to.equal('ok')
  })

  it('a request Node cannot parse over TLS gets the JSON 400 on the TLS connection (clientError on TLS sockets)', async () => {
    const app = server({ https })
    const url = await app.listen(0)
    const text = await tlsExchange(url, 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n')
    expect(text).to.match(/^HTTP\/1\.1 400 /).and.contain('"code":"ENC_ERR_REQUEST_MALFORMED"')
  })

  it('a 413 for a declared oversized body reaches the client over TLS before the close (lingering close on TLS sockets)', async () => {
    const app = server({ https, bodyLimit: 1024 })
    app.post('/', async () => 'never')
    const url = await app.listen(0)
    const socket = await tlsClient(url)
    let received = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => { received += chunk })
    socket.on('error', () => undefined)
    const closed = new Promise<void>((resolve) => { socket.once('close', () => resolve()) })
    const size = 4 * 1024 * 1024
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${size}\r\n\r\n`)
    // The client keeps sending its body after the answer: the answer must still arrive.
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    for (let sent = 0; sent < size && !socket.destroyed; sent += chunk.length) {
      if (!socket.write(chunk)) await new Promise<void>((resolve) => { socket.once('drain', resolve); socket.once('close', resolve) })
    }
    await within(closed, 5_000, 'waiting for the close')
    expect(received).to.match(/^HTTP\/1\.1 413 /).and.contain('"statusCode":413')
  })

  it('close() does not wait closeTimeout for a TLS connection that never sent a request, nor for one stuck in its handshake', async () => {
    const app = server({ https, closeTimeout: 60_000 })
    app.get('/', async () => 'ok')
    const url = await app.listen(0)
    const idle = await tlsClient(url)
    idle.on('error', () => undefined)
    const { hostname, port } = new URL(url)
    const handshaking = connect({ host: hostname, port: Number(port) })
    handshaking.on('error', () => undefined)
    await new Promise<void>((resolve) => handshaking.once('connect', () => resolve()))
    const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()))
    const tcpClosed = new Promise<void>((resolve) => handshaking.once('close', () => resolve()))
    await within(app.close(), 5_000, 'close() with silent TLS connections')
    await within(Promise.all([idleClosed, tcpClosed]), 5_000, 'the silent connections closing')
  })

  it('close() lets an in-flight TLS request finish, then closes its keep-alive connection', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    const app = server({ https })
    let arrived!: () => void
    const inHandler = new Promise<void>((resolve) => { arrived = resolve })
    app.get('/slow', async () => { arrived(); await held; return 'done' })
    const url = await app.listen(0)
    const answer = fetchHttps(`${url}/slow`)
    await inHandler
    const closing = app.close()
    release()
    expect(await answer).to.deep.equal({ status: 200, body: 'done' })
    await within(closing, 5_000, 'close()')
  }).timeout(10_000)

  it('forceCloseConnections cuts a busy TLS connection when close() starts', async () => {
    let arrived!: () => void
    const inHandler = new Promise<void>((resolve) => { arrived = resolve })
    const app = server({ https, forceCloseConnections: true })
    app.get('/stuck', () => { arrived(); return new Promise(() => undefined) })
    const url = await app.listen(0)
    const socket = await tlsClient(url)
    socket.on('error', () => undefined)
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.write('GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n')
    await within(inHandler, 5_000, 'the request to reach its handler')
    await within(app.close(), 5_000, 'close() with forceCloseConnections')
    await within(closed, 5_000, 'the busy TLS connection closing')
  })

  it('headersTimeout bounds a TLS client that never finishes its headers: 408 in the JSON shape', async () => {
    const app = server({ https, headersTimeout: 200, requestTimeout: 1000 })
    const url = await app.listen(0)
    const text = await tlsExchange(url, 'GET / HTTP/1.1\r\nHost: x\r\n')
    expect(text).to.match(/^HTTP\/1\.1 408 /).and.contain('"code":"ENC_ERR_REQUEST_TIMEOUT"')
  })

  it("an 'upgrade' listener on scope.server gets the TLS socket (websocket plugins work over https)", async () => {
    const app = server({ https })
    const url = await app.listen(0)
    app.server.on('upgrade', (_req, socket: Socket & { encrypted?: boolean }) => {
      socket.end(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\nX-Encrypted: ${String(socket.encrypted === true)}\r\n\r\n`)
    })
    const text = await tlsExchange(url, 'GET / HTTP/1.1\r\nHost: x\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n')
    expect(text).to.match(/^HTTP\/1\.1 101 /).and.contain('X-Encrypted: true')
  })

  it('trustProxy still decides request.protocol over TLS: a trusted proxy saying http is believed', async () => {
    const app = server({ https, trustProxy: true })
    app.get('/', async (request) => request.protocol)
    const url = await app.listen(0)
    const text = await tlsExchange(url, 'GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-Proto: http\r\nConnection: close\r\n\r\n')
    expect(text.endsWith('\r\n\r\nhttp')).to.equal(true)
  })

  it('drainTimeout cuts a TLS connection whose answers are not read (the drain watch follows the TLS socket)', async () => {
    const big = 'x'.repeat(256 * 1024)
    const app = server({ https, drainTimeout: 200 })
    app.get('/big', async () => big)
    const url = await app.listen(0)
    const serverSide = new Promise<void>((resolve) => app.server.once('secureConnection', (socket: Socket) => socket.once('close', () => resolve())))
    const socket = await tlsClient(url)
    socket.on('error', () => undefined)
    socket.pause()
    for (let i = 0; i < 40; i++) socket.write('GET /big HTTP/1.1\r\nHost: x\r\n\r\n')
    await within(serverSide, 5_000, 'waiting for the server to destroy the stalled TLS connection')
    socket.destroy()
  })

  it('drainTimeout leaves alone a TLS client that reads a large reply slowly but steadily', async () => {
    // As in hardening/drain-timeout.test.ts: 16 MB/s, so one kernel-buffer step passes far within
    // drainTimeout, and the 32 MB take twice drainTimeout.
    const huge = Buffer.alloc(32 * 1024 * 1024, 0x61)
    const app = server({ https, drainTimeout: 1000 })
    app.get('/huge', async (_request, reply) => { reply.header('content-type', 'application/octet-stream'); return huge })
    const url = await app.listen(0)
    const socket = await tlsClient(url)
    socket.on('error', () => undefined)
    let ended = false
    socket.once('close', () => { ended = true })
    socket.pause()
    socket.write('GET /huge HTTP/1.1\r\nHost: x\r\n\r\n')
    const received = await readSteadily(socket, huge.length, 16 * 1024 * 1024, () => ended)
    expect(ended, 'the connection was cut').to.equal(false)
    expect(received).to.be.greaterThan(huge.length)
    socket.destroy()
  })

  it('createApp({ https }) serves its controllers over TLS', async () => {
    @Route('/hello')
    class HelloController { @Get('/') hello(): { hi: string } { return { hi: 'tls' } } }
    @Module({ controllers: [HelloController] })
    class AppModule {}
    const app = track(await createApp(AppModule, { https }))
    const url = await app.listen(0)
    expect(await fetchHttps(`${url}/hello`)).to.deep.equal({ status: 200, body: '{"hi":"tls"}' })
  })
})
