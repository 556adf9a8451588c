// maxQueuedBytes: output queued for a client that does not read it is bounded by size, not only by
// drainTimeout (which alone let a producer ignoring backpressure hold its send rate × 60 s: ~2 GB at
// 32 MB/s). drainTimeout is 60 s in every test here, so any cut seen within the test's seconds is
// the byte limit's. Bounded: each producer stops at a byte budget, every wait under 6 s.
import { connect, type Socket } from 'node:net'
import { PassThrough, Readable } from 'node:stream'
import { expect } from 'chai'
import websocket from '@fastify/websocket'
import type { WebSocket } from 'ws'
import { recordingLogger, server, thrown } from '../support/servers'
import { sleep, within } from '../support/raw-http'
import { readSteadily } from '../support/steady-reader'
import { carelessFeed } from '../support/careless-feed'
import type { Scope, ServerOptions } from '../../src/runtime'

const LIMIT = 2 * 1024 * 1024
// Every producer stops here: a test whose limit did not act ends with the connection still open and fails, it never fills memory.
const BUDGET = 256 * 1024 * 1024

async function start(app: Scope): Promise<number> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return Number(new URL(address).port)
}

/** A client that sends `request` and never reads; resolves once the server has closed it (seen from the server). */
function nonReader(app: Scope, port: number, request: string): { socket: Socket; serverClosed: Promise<void> } {
  const serverClosed = new Promise<void>((resolve) => app.server.once('connection', (s: Socket) => s.once('close', () => resolve())))
  const socket = connect({ host: '127.0.0.1', port })
  socket.on('error', () => undefined)
  socket.pause()
  socket.write(request)
  return { socket, serverClosed }
}

function limitWarnings(logger: ReturnType<typeof recordingLogger>): Array<Record<string, unknown>> {
  return logger.entries.filter((e) => e.level === 'warn' && (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_CONNECTION_QUEUE_LIMIT').map((e) => e.obj)
}

const options = (logger: ReturnType<typeof recordingLogger>, extra: ServerOptions = {}): ServerOptions => ({ logger, drainTimeout: 60_000, maxQueuedBytes: LIMIT, ...extra })

describe('hardening: maxQueuedBytes (output queued for a client that does not read it)', function () {
  this.timeout(15_000)

  it('an event stream whose producer ignores backpressure is cut once its source holds more than the limit: source destroyed, one warning naming the route', async () => {
    const logger = recordingLogger()
    const app = server(options(logger))
    // write() regardless of its answer, as a careless hub does.
    const produced = carelessFeed(app, '/events', BUDGET)
    const port = await start(app)
    const { socket, serverClosed } = nonReader(app, port, 'GET /events HTTP/1.1\r\nHost: x\r\n\r\n')
    await within(serverClosed, 6_000, 'the server to cut the connection')
    expect(produced.source?.destroyed, 'the source destroyed').to.equal(true)
    // The limit, the socket buffers and about half a second of the send rate (~32 MB/s at most here).
    expect(produced.written).to.be.below(LIMIT + 24 * 1024 * 1024)
    const warnings = limitWarnings(logger)
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.include({ route: 'GET /events', url: '/events', limit: LIMIT })
    expect(warnings[0].queued).to.be.above(LIMIT)
    expect(warnings[0].reqId).to.be.a('string')
    expect((warnings[0].err as Error).message).to.match(/; its connection was closed\./)
    socket.destroy()
  })

  it('a websocket handler that sends regardless of bufferedAmount is cut once the socket holds more than the limit, one warning naming the upgrade', async () => {
    const logger = recordingLogger()
    const app = server(options(logger))
    await app.register(websocket)
    let sent = 0
    let ws: WebSocket | undefined
    app.get('/push', { websocket: true }, ((socket: WebSocket) => {
      ws = socket
      const chunk = Buffer.alloc(65_536, 1)
      const timer = setInterval(() => { if (socket.readyState === 1 && sent < BUDGET) { socket.send(chunk); sent += chunk.length } }, 2)
      socket.on('close', () => clearInterval(timer))
    }) as never)
    const port = await start(app)
    const key = 'dGhlIHNhbXBsZSBub25jZQ=='
    const { socket, serverClosed } = nonReader(app, port,
      `GET /push HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`)
    await within(serverClosed, 6_000, 'the server to cut the connection')
    expect(sent).to.be.below(LIMIT + 24 * 1024 * 1024)
    for (let i = 0; i < 50 && ws?.readyState !== 3; i++) await sleep(20)
    expect(ws?.readyState, 'the websocket closed').to.equal(3)
    const warnings = limitWarnings(logger)
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.include({ method: 'GET', url: '/push', websocket: true })
    socket.destroy()
  })

  it('a handler writing to reply.raw regardless of write()\'s answer is cut once the socket holds more than the limit, one warning naming the request', async () => {
    const logger = recordingLogger()
    const app = server(options(logger))
    let written = 0
    app.get('/raw', (_request, reply) => {
      reply.hijack()
      reply.raw.writeHead(200, { 'content-type': 'application/octet-stream' })
      const chunk = Buffer.alloc(65_536, 1)
      const timer = setInterval(() => {
        if (reply.raw.destroyed || written >= BUDGET) { clearInterval(timer); return }
        reply.raw.write(chunk)
        written += chunk.length
      }, 2)
    })
    const port = await start(app)
    const { socket, serverClosed } = nonReader(app, port, 'GET /raw HTTP/1.1\r\nHost: x\r\n\r\n')
    await within(serverClosed, 6_000, 'the server to cut the connection')
    expect(written).to.be.below(LIMIT + 24 * 1024 * 1024)
    const warnings = limitWarnings(logger)
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.include({ method: 'GET', url: '/raw' })
    socket.destroy()
  })

  it('one reply far over the limit, sent at once (a 24 MB buffer), is not cut while its client reads it slowly: its queue only shrinks', async () => {
    const logger = recordingLogger()
    const payload = Buffer.alloc(24 * 1024 * 1024, 0x61)
    const app = server(options(logger))
    app.get('/huge', async (_request, reply) => { reply.type('application/octet-stream'); return payload })
    const port = await start(app)
    const socket = connect({ host: '127.0.0.1', port })
    socket.on('error', () => undefined)
    socket.pause()
    let closed = false
    socket.once('close', () => { closed = true })
    socket.write('GET /huge HTTP/1.1\r\nHost: x\r\n\r\n')
    const received = await readSteadily(socket, payload.length, 16 * 1024 * 1024, () => closed)
    expect(closed, 'the connection was cut').to.equal(false)
    expect(received).to.be.greaterThan(payload.length)
    expect(limitWarnings(logger)).to.deep.equal([])
    socket.destroy()
  })

  it('maxQueuedBytes: 0 turns the limit off (drainTimeout still cuts); a negative or fractional value is refused at createServer()', async () => {
    const app = server({ drainTimeout: 300, maxQueuedBytes: 0 })
    let written = 0
    app.get('/events', async (_request, reply) => {
      const source = new Readable({ read() {} })
      const timer = setInterval(() => { if (written < 64 * 1024 * 1024) { source.push(Buffer.alloc(65_536)); written += 65_536 } }, 2)
      source.on('close', () => clearInterval(timer))
      reply.type('text/event-stream')
      return source
    })
    const port = await start(app)
    const { socket, serverClosed } = nonReader(app, port, 'GET /events HTTP/1.1\r\nHost: x\r\n\r\n')
    await within(serverClosed, 6_000, 'drainTimeout to cut the connection')
    socket.destroy()
    expect(thrown(() => server({ maxQueuedBytes: -1 })).code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
    expect(thrown(() => server({ maxQueuedBytes: 1.5 })).code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
  })
})
