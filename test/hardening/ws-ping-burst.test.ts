// A burst of pings right after a websocket upgrade: ws (8.x), not Enclave, terminates the socket
// once more than maxPendingAutoPongs (default 60) automatic pongs wait to be flushed: no close
// frame, no log. The plugin's `options: { maxPendingAutoPongs }` is the knob (docs/plugins.md).
import { connect } from 'node:net'
import { expect } from 'chai'
import websocket from '@fastify/websocket'
import type { WebSocket } from 'ws'
import { recordingLogger, server } from '../support/servers'

/** A masked client frame with a payload under 126 bytes. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = Buffer.from([1, 2, 3, 4])
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, payload.map((b, i) => b ^ mask[i % 4])])
}

interface Burst { pongs: number; closeFrame: boolean; socketClosed: boolean }

/** Upgrades, sends `count` pings in one write, and counts pongs until the socket closes or all came (or 3 s). */
async function pingBurst(address: string, count: number): Promise<Burst> {
  const { hostname, port } = new URL(address)
  const socket = connect({ host: hostname, port: Number(port) })
  const seen: Burst = { pongs: 0, closeFrame: false, socketClosed: false }
  let buffer = Buffer.alloc(0)
  let upgraded = false
  socket.on('error', () => undefined)
  await new Promise<void>((resolve) => {
    const guard = setTimeout(resolve, 3_000)
    const done = (): void => { clearTimeout(guard); resolve() }
    socket.on('close', () => { seen.socketClosed = true; done() })
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) return
        upgraded = true
        buffer = buffer.subarray(end + 4)
        socket.write(Buffer.concat(Array.from({ length: count }, () => clientFrame(9, Buffer.from('ping')))))
      }
      // Server frames here are short and unmasked: 2 header bytes, then the payload.
      while (buffer.length >= 2 && buffer.length >= 2 + (buffer[1] & 0x7f)) {
        const opcode = buffer[0] & 0x0f
        if (opcode === 10) seen.pongs++
        if (opcode === 8) seen.closeFrame = true
        buffer = buffer.subarray(2 + (buffer[1] & 0x7f))
      }
      if (seen.pongs === count) done()
    })
    socket.write('GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
  })
  socket.destroy()
  return seen
}

async function echoServer(options: Record<string, unknown>, logger = recordingLogger()): Promise<string> {
  const app = server({ logger })
  await app.register(websocket, { options })
  app.get('/ws', { websocket: true }, ((socket: WebSocket) => { socket.on('message', (m: Buffer) => socket.send(m)) }) as never)
  return app.listen({ port: 0, host: '127.0.0.1' })
}

describe('hardening: websocket ping burst after the upgrade', () => {
  it("200 pings in one write: ws's maxPendingAutoPongs (60) terminates the socket with no close frame and nothing logged", async () => {
    const logger = recordingLogger()
    const seen = await pingBurst(await echoServer({}, logger), 200)
    // 60 when the burst arrives in one read; more if the reads split it and pongs flushed between them.
    expect(seen.pongs).to.be.within(60, 199)
    expect({ closeFrame: seen.closeFrame, socketClosed: seen.socketClosed }).to.deep.equal({ closeFrame: false, socketClosed: true })
    expect(logger.entries.filter((e) => e.level !== 'info' && e.level !== 'debug')).to.deep.equal([])
  })

  it("200 pings in one write with the plugin's options.maxPendingAutoPongs: 0 are all answered and the socket stays open", async () => {
    const seen = await pingBurst(await echoServer({ maxPendingAutoPongs: 0 }), 200)
    expect(seen).to.deep.equal({ pongs: 200, closeFrame: false, socketClosed: false })
  })
})
