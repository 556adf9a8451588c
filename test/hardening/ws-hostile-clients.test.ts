// Hostile websocket clients against @fastify/websocket (usePlugin's register path, docs/plugins.md):
// a client that never reads while the handler pushes, malformed handshakes, upgrades opened and
// dropped by the hundred, a frame past maxPayload, and an upgrade flood during close(). The bounds
// are Enclave's drainTimeout and closeTimeout and ws's own checks; every wait is bounded.
import { connect, type Socket } from 'node:net'
import { expect } from 'chai'
import websocket from '@fastify/websocket'
import type { WebSocket } from 'ws'
import { server } from '../support/servers'
import { connectionsBack } from './helpers'
import { sleep, within } from '../support/raw-http'
import type { Scope, ServerOptions } from '../../src/runtime'

const KEY = 'dGhlIHNhbXBsZSBub25jZQ=='
const upgrade = (path: string, headers = `Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n`): string =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${headers}\r\n`

interface Exchange { text: string; closed: boolean }

/** Writes `bytes`, collects what comes back until the server closes the socket or `ms` pass. */
function exchange(port: number, bytes: string | Buffer, ms = 2_000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    let text = ''
    const guard = setTimeout(() => { socket.destroy(); resolve({ text, closed: false }) }, ms)
    socket.on('data', (chunk: Buffer) => { text += chunk.toString('latin1') })
    socket.on('error', () => undefined)
    socket.on('close', () => { clearTimeout(guard); resolve({ text, closed: true }) })
    socket.write(bytes)
  })
}

async function wsApp(options: ServerOptions = {}): Promise<{ app: Scope; port: number; pushers: WebSocket[] }> {
  const app = server(options)
  const pushers: WebSocket[] = []
  await app.register(websocket)
  app.get('/ws', { websocket: true }, ((socket: WebSocket) => { socket.on('message', (m: Buffer) => socket.send(m)) }) as never)
  // Pushes 64 KB every 5 ms without looking at bufferedAmount, as a careless handler would.
  app.get('/push', { websocket: true }, ((socket: WebSocket) => {
    pushers.push(socket)
    const chunk = Buffer.alloc(65_536, 1)
    const timer = setInterval(() => { if (socket.readyState === 1) socket.send(chunk) }, 5)
    socket.on('close', () => clearInterval(timer))
  }) as never)
  app.get('/plain', async () => ({ ok: true }))
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, port: Number(new URL(address).port), pushers }
}

describe('hardening: hostile websocket clients', function () {
  this.timeout(15_000)

  it('a client that never reads while the handler pushes is cut after drainTimeout: its websocket closes and the connection is gone', async () => {
    const { app, port, pushers } = await wsApp({ drainTimeout: 1_000 })
    const socket: Socket = connect({ host: '127.0.0.1', port })
    socket.on('error', () => undefined)
    socket.write(upgrade('/push'))
    socket.pause()
    for (let i = 0; i < 100 && pushers.length === 0; i++) await sleep(20)
    expect(pushers.length).to.equal(1)
    const started = Date.now()
    await within(new Promise((resolve) => pushers[0].once('close', resolve)), 6_000, 'the pushing websocket to be closed')
    // drainTimeout, plus at most one sweep (a quarter of it) and the time the buffers took to fill.
    expect(Date.now() - started).to.be.below(5_000)
    socket.destroy()
    expect(await connectionsBack(app)).to.equal(0)
  })

  const MALFORMED: Record<string, string> = {
    'a short Sec-WebSocket-Key': upgrade('/ws', 'Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n'),
    'no Sec-WebSocket-Key': upgrade('/ws', 'Sec-WebSocket-Version: 13\r\n'),
    'Sec-WebSocket-Version 99': upgrade('/ws', `Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 99\r\n`),
    'a Sec-WebSocket-Version that is not a number': upgrade('/ws', `Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: abc\r\n`),
    'Upgrade: h2c': `GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n`,
  }
  for (const [name, request] of Object.entries(MALFORMED)) {
    it(`a handshake with ${name} gets a 400 (in the JSON shape since session 18: ws-handshake-json.test.ts) and its connection closed; a good one is still upgraded`, async () => {
      const { app, port } = await wsApp()
      const bad = await exchange(port, request)
      expect(bad.text.split('\r\n')[0]).to.equal('HTTP/1.1 400 Bad Request')
      expect(bad.closed).to.equal(true)
      const good = await exchange(port, upgrade('/ws'), 300)
      expect(good.text.split('\r\n')[0]).to.equal('HTTP/1.1 101 Switching Protocols')
      expect(await connectionsBack(app)).to.equal(0)
    })
  }

  it('an upgrade carrying a body: the body bytes are read as websocket frames (unmasked: closed with 1002), never as a second request', async () => {
    const { app, port } = await wsApp()
    const got = await exchange(port, upgrade('/ws', `Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\nContent-Length: 40\r\n`) + 'GET /plain HTTP/1.1\r\nHost: localhost\r\n\r\n')
    expect(got.text.split('\r\n')[0]).to.equal('HTTP/1.1 101 Switching Protocols')
    expect(got.text).to.not.include('HTTP/1.1 200')
    expect(got.closed).to.equal(true)
    expect(await connectionsBack(app)).to.equal(0)
  })

  it('a frame claiming 2^62 bytes is refused by ws (maxPayload) and its socket closed', async () => {
    const { app, port } = await wsApp()
    const header = Buffer.from([0x82, 0xff, 0x40, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4])
    const got = await exchange(port, Buffer.concat([Buffer.from(upgrade('/ws')), header]))
    expect(got.text.split('\r\n')[0]).to.equal('HTTP/1.1 101 Switching Protocols')
    expect(got.closed).to.equal(true)
    expect(await connectionsBack(app)).to.equal(0)
  })

  it('500 upgrades opened and dropped (100 at a time): no websocket client and no connection left', async () => {
    const { app, port } = await wsApp()
    for (let round = 0; round < 5; round++) {
      await Promise.all(Array.from({ length: 100 }, () => new Promise<void>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port })
        const guard = setTimeout(() => { socket.destroy(); resolve() }, 3_000)
        socket.on('error', () => undefined)
        socket.once('data', () => socket.destroy())
        socket.on('close', () => { clearTimeout(guard); resolve() })
        socket.write(upgrade('/ws'))
      })))
    }
    expect(await connectionsBack(app)).to.equal(0)
    expect((app as unknown as { websocketServer: { clients: Set<unknown> } }).websocketServer.clients.size).to.equal(0)
  })

  it('200 upgrades in flight when close() begins and 100 more after: close() ends within closeTimeout and every client gets an answer or a closed socket', async () => {
    const { app, port } = await wsApp({ closeTimeout: 2_000 })
    const outcome = (): Promise<string> => exchange(port, upgrade('/ws'), 5_000).then((got) => got.closed ? 'closed' : `open: ${got.text.split('\r\n')[0]}`)
    const early = Array.from({ length: 200 }, outcome)
    await sleep(20)
    const started = Date.now()
    const closing = app.close()
    const late = Array.from({ length: 100 }, outcome)
    await within(closing, 4_000, 'close()')
    expect(Date.now() - started).to.be.below(3_000)
    const outcomes = await Promise.all([...early, ...late])
    expect(outcomes.filter((o) => o !== 'closed')).to.deep.equal([])
  })
})
