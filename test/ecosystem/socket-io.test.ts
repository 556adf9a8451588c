// socket.io 4 attached to Enclave's HTTP server (`scope.server`), from a plugin entry of a module
// that gets its services by DI (usePlugin's inject), as docs/recipes-realtime.md shows: the
// handshake checked against the service the REST guard uses, rooms, a REST route that emits to a
// room, both transports (HTTP long-polling beside Enclave's routes, and websocket), and close().
// The community plugin fastify-socket.io 5.1.0 does not install here (peer fastify 4.x), so the
// server is attached directly, as its README does inside its plugin.
import 'reflect-metadata'
import { expect } from 'chai'
import { request as httpRequest } from 'node:http'
import { connect as tcpConnect, type Socket as TcpSocket } from 'node:net'
import { Server as IoServer } from 'socket.io'
import { io as ioClient, type Socket as ClientSocket } from 'socket.io-client'
import { Body, HttpError, Module, OnRequest, Params, Post, Get, Route, createApp, injectable, usePlugin, type App, type Request, type Scope } from '../../src'
import { track } from '../support/servers'

const limitMs = 5_000

@injectable()
class Tokens {
  verify(token: unknown): string | null { return token === 't-alice' ? 'alice' : token === 't-bob' ? 'bob' : null }
}

@injectable()
class BearerGuard {
  constructor(private readonly tokens: Tokens) {}
  handle(request: Request): boolean {
    const header = request.headers.authorization ?? ''
    if (this.tokens.verify(header.replace(/^Bearer /, '')) === null) throw new HttpError(401, 'invalid token')
    return true
  }
}

/** Holds the socket.io server the plugin entry attaches; what the controllers inject to emit. */
@injectable()
class Realtime {
  io: IoServer | null = null
  emit(room: string, event: string, data: unknown): void { this.io?.to(room).emit(event, data) }
}

interface RealtimeOptions { realtime: Realtime; tokens: Tokens }
async function realtimePlugin(scope: Scope, { realtime, tokens }: RealtimeOptions): Promise<void> {
  const io = new IoServer(scope.server, { serveClient: false })
  io.use((socket, next) => {
    const user = tokens.verify(socket.handshake.auth.token)
    if (user === null) next(new Error('unauthorized'))
    else { socket.data.user = user; next() }
  })
  io.on('connection', (socket) => {
    socket.on('join', (room: string, ack: (joined: string) => void) => { void socket.join(room); ack(`${socket.data.user}@${room}`) })
  })
  realtime.io = io
  // io.close() disconnects every client and closes the HTTP listener itself (server.close()).
  scope.addHook('preClose', (done) => { io.close(); done() })
}

@Route('/ops')
@OnRequest(BearerGuard)
class OpsController {
  constructor(private readonly realtime: Realtime) {}
  @Post('/rooms/:room/announce')
  announce(@Params('room') room: string, @Body() body: unknown) { this.realtime.emit(room, 'announce', body); return { sent: true } }
  @Get('/hang')
  hang(@Params() _params: unknown) { return new Promise(() => undefined) }  // an answer that never comes
}

@Module({
  providers: [Tokens, BearerGuard, Realtime],
  controllers: [OpsController],
  plugins: [usePlugin(realtimePlugin, { inject: [Realtime, Tokens], useFactory: (realtime: Realtime, tokens: Tokens): RealtimeOptions => ({ realtime, tokens }) })],
})
class OpsModule {}

async function listening(options: { closeTimeout?: number } = {}): Promise<{ app: App; base: string }> {
  const app = track(await createApp(OpsModule, options))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return { app, base: `http://127.0.0.1:${address.port}` }
}

/** A POST that sends its body only once the server answers `100 Continue` (or answers at all). */
function expectContinuePost(url: string, type: string, body: string): Promise<{ continued: boolean; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let continued = false
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' } })
    req.on('continue', () => { continued = true; req.end(body) })
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => resolve({ continued, status: res.statusCode ?? 0, body: text }))
    })
    req.on('error', reject)
    req.flushHeaders()
  })
}

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: nothing within ${limitMs} ms`)), limitMs) })
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer))
}

const clients: ClientSocket[] = []
afterEach(() => { while (clients.length > 0) clients.pop()!.close() })

function client(base: string, token: string, transport: 'polling' | 'websocket'): ClientSocket {
  const socket = ioClient(base, { auth: { token }, transports: [transport], reconnection: false, forceNew: true })
  clients.push(socket)
  return socket
}

const connected = (socket: ClientSocket): Promise<void> => within(new Promise((resolve, reject) => {
  socket.once('connect', () => resolve())
  socket.once('connect_error', reject)
}), 'socket.io connect')

describe('socket.io on Enclave\'s HTTP server (test/ecosystem/socket-io.test.ts)', function () {
  this.timeout(15_000)

  for (const transport of ['polling', 'websocket'] as const) {
    it(`a REST route emits to a room and a ${transport} client in it receives the event; one outside it does not`, async () => {
      const { base } = await listening()
      const alice = client(base, 't-alice', transport)
      const bob = client(base, 't-bob', transport)
      await Promise.all([connected(alice), connected(bob)])
      expect(await within(alice.emitWithAck('join', 'ops'), 'join')).to.equal('alice@ops')
      const outside: unknown[] = []
      bob.on('announce', (data) => outside.push(data))
      const received = within(new Promise((resolve) => alice.once('announce', resolve)), 'announce')
      const response = await fetch(`${base}/ops/rooms/ops/announce`, { method: 'POST', headers: { authorization: 'Bearer t-bob', 'content-type': 'application/json' }, body: JSON.stringify({ deploy: 42 }) })
      expect(response.status).to.equal(200)
      expect(await response.json()).to.deep.equal({ sent: true })
      expect(await received).to.deep.equal({ deploy: 42 })
      // A round trip after the emit: anything sent to bob would have arrived before this ack.
      await within(bob.emitWithAck('join', 'elsewhere'), 'join')
      expect(outside).to.deep.equal([])
    })
  }

  it('refuses a handshake whose token the REST guard would refuse, with the middleware\'s message', async () => {
    const { base } = await listening()
    for (const transport of ['polling', 'websocket'] as const) {
      const socket = client(base, 'nope', transport)
      const error = await within(new Promise<Error>((resolve) => socket.once('connect_error', resolve)), 'connect_error')
      expect(error.message).to.equal('unauthorized')
    }
    const rest = await fetch(`${base}/ops/rooms/ops/announce`, { method: 'POST', headers: { authorization: 'Bearer nope' } })
    expect(rest.status).to.equal(401)
  })

  it('leaves /socket.io/ to socket.io (no Enclave 404 or body parsing there) and every other URL to Enclave', async () => {
    const { base } = await listening()
    // engine.io's handshake over long-polling: its own text format, not Enclave's JSON.
    const handshake = await fetch(`${base}/socket.io/?EIO=4&transport=polling`)
    expect(handshake.status).to.equal(200)
    const text = await handshake.text()
    expect(text.startsWith('0{"sid":')).to.equal(true)
    const sid = (JSON.parse(text.slice(1)) as { sid: string }).sid
    // A polling POST with a text/plain body engine.io reads itself (the socket.io CONNECT packet).
    const post = await fetch(`${base}/socket.io/?EIO=4&transport=polling&sid=${sid}`, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: '40{"token":"t-alice"}' })
    expect(post.status).to.equal(200)
    expect(await post.text()).to.equal('ok')
    const unknownSid = await fetch(`${base}/socket.io/?EIO=4&transport=polling&sid=nope`)
    expect(unknownSid.status).to.equal(400)
    expect(await unknownSid.json()).to.deep.equal({ code: 1, message: 'Session ID unknown' })   // engine.io's, not Enclave's
    const missing = await fetch(`${base}/nowhere`)
    expect(missing.status).to.equal(404)
    expect(await missing.json()).to.include({ statusCode: 404, error: 'Not Found' })
  })

  it('a request with Expect: 100-continue reaches socket.io too (invited at once, as Node does where no checkContinue listener is), while Enclave\'s routes behind socket.io\'s listener answer as without Expect', async () => {
    const { base } = await listening()
    const handshake = await fetch(`${base}/socket.io/?EIO=4&transport=polling`)
    const sid = (JSON.parse((await handshake.text()).slice(1)) as { sid: string }).sid
    const post = await within(expectContinuePost(`${base}/socket.io/?EIO=4&transport=polling&sid=${sid}`, 'text/plain;charset=UTF-8', '40{"token":"t-alice"}'), 'the 100-continue POST to socket.io')
    expect(post).to.deep.equal({ continued: true, status: 200, body: 'ok' })   // engine.io's answer, not Enclave's 404
    // An Enclave route behind the same wrapper: its guard's 401 as without Expect.
    const guarded = await within(expectContinuePost(`${base}/ops/rooms/r1/announce`, 'application/json', '{}'), 'the 100-continue POST to Enclave')
    expect(guarded.status).to.equal(401)
  })

  it('close() disconnects every client (both transports) and resolves; the listener is closed', async () => {
    const { app, base } = await listening()
    const sockets = [client(base, 't-alice', 'polling'), client(base, 't-bob', 'websocket')]
    await Promise.all(sockets.map(connected))
    const reasons = sockets.map((socket) => new Promise<string>((resolve) => socket.once('disconnect', resolve)))
    await within(app.close(), 'close()')
    expect(await within(Promise.all(reasons), 'disconnects')).to.have.length(2)
    expect(app.server.listening).to.equal(false)
  })

  it('close() still bounds the connections when a preClose hook closed the listener itself (io.close()): silent ones closed, busy ones cut at closeTimeout', async () => {
    const { app, base } = await listening({ closeTimeout: 300 })
    const port = Number(new URL(base).port)
    // A connection that has sent nothing (a client's preconnect: undici opens one after an aborted
    // fetch) and one whose request is never answered. Before, close() waited for the clients to
    // hang up: for ever here.
    const silent: TcpSocket = tcpConnect(port, '127.0.0.1')
    const busy: TcpSocket = tcpConnect(port, '127.0.0.1', () => { busy.write('GET /ops/hang HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t-alice\r\n\r\n') })
    const ended = [silent, busy].map((socket) => new Promise<void>((resolve) => { socket.on('error', () => undefined); socket.once('close', () => resolve()) }))
    await new Promise((resolve) => setTimeout(resolve, 100))   // the request has reached the handler
    try {
      await within(app.close(), 'close() after io.close() closed the listener')
      await within(Promise.all(ended), 'both connections closed by the server')
    } finally { silent.destroy(); busy.destroy() }
  })
})
