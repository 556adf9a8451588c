// @fastify/websocket with permessage-deflate turned on by the user (`options: { perMessageDeflate:
// true }`: off by default in ws): a compressed frame is bounded by maxPayload after inflating, not
// by its size on the wire. A 256 KB frame that inflates to 256 MiB is refused at 1 MiB with 1009
// and never reaches the handler; a message sent in 2,000 fragments, each far under the limit, is
// refused once their sum passes it. Measured on Enclave and Fastify 5 with the same plugin (the
// plugin's current major needs Fastify 5): 1009 on both, +3 MB RSS on both for the bomb.
import { connect } from 'node:net'
import { deflateRawSync, constants as zlib } from 'node:zlib'
import { expect } from 'chai'
import websocket from '@fastify/websocket'
import { WebSocket } from 'ws'
import { server } from '../support/servers'
import { connectionsBack } from './helpers'
import { within } from '../support/raw-http'
import type { Scope } from '../../src/runtime'

const KEY = 'dGhlIHNhbXBsZSBub25jZQ=='
const MAX_PAYLOAD = 1 << 20

/**
 * A permessage-deflate payload (RFC 7692 §7.2.1: sync-flushed, its 00 00 ff ff tail removed) that
 * inflates to `mib` MiB of zeros: one compressed MiB repeated. Each copy is whole deflate blocks
 * closed by the flush's empty stored block (only the last copy loses its 00 00 ff ff: the bits
 * before it belong to that block) and its back-references stay within itself, so the copies
 * concatenate into one valid stream without compressing `mib` MiB here.
 */
function inflatesTo(mib: number): Buffer {
  const one = deflateRawSync(Buffer.alloc(1 << 20), { finishFlush: zlib.Z_SYNC_FLUSH })
  const all = Buffer.concat(Array.from({ length: mib }, () => one))
  return all.subarray(0, all.length - 4)
}

/** A masked client frame: FIN, RSV1 (compressed), binary. */
function compressedFrame(payload: Buffer): Buffer {
  const mask = Buffer.from([1, 2, 3, 4])
  const length = payload.length < 65_536 ? Buffer.from([0xfe, payload.length >> 8, payload.length & 0xff]) : (() => {
    const b = Buffer.alloc(9); b[0] = 0xff; b.writeBigUInt64BE(BigInt(payload.length), 1); return b
  })()
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]))
  return Buffer.concat([Buffer.from([0xc2]), length, mask, masked])
}

interface Outcome { head: string; closeCode: number | null; closed: boolean }

/** Upgrades with permessage-deflate offered, sends `frame`, reads the server's close frame until it closes the socket or `ms` pass. */
function sendFrame(port: number, frame: Buffer, ms = 8_000): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    let bytes = Buffer.alloc(0)
    const outcome = (closed: boolean): Outcome => {
      const end = bytes.indexOf('\r\n\r\n')
      const head = end < 0 ? bytes.toString('latin1') : bytes.subarray(0, end).toString('latin1')
      const rest = end < 0 ? Buffer.alloc(0) : bytes.subarray(end + 4)
      // The server's frames are unmasked; a close frame (0x88) with a 2-byte length carries its code first.
      const at = rest.indexOf(0x88)
      return { head, closeCode: at >= 0 && rest.length >= at + 4 ? rest.readUInt16BE(at + 2) : null, closed }
    }
    const guard = setTimeout(() => { socket.destroy(); resolve(outcome(false)) }, ms)
    socket.on('data', (chunk: Buffer) => { bytes = Buffer.concat([bytes, chunk]) })
    socket.on('error', () => undefined)
    socket.on('close', () => { clearTimeout(guard); resolve(outcome(true)) })
    socket.write(`GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${KEY}\r\n` +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n')
    socket.write(frame)
  })
}

async function deflateApp(): Promise<{ app: Scope; port: number; received: number[] }> {
  const app = server()
  const received: number[] = []
  await app.register(websocket, { options: { maxPayload: MAX_PAYLOAD, perMessageDeflate: true } })
  app.get('/ws', { websocket: true }, ((socket: WebSocket) => {
    socket.on('message', (message: Buffer) => { received.push(message.length); socket.send(`got ${message.length}`) })
  }) as never)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, port: Number(new URL(address).port), received }
}

function client(port: number, perMessageDeflate: boolean): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { perMessageDeflate })
    socket.once('open', () => resolve(socket))
    socket.once('error', reject)
  })
}

describe('hardening: websocket permessage-deflate turned on, against hostile frames', function () {
  this.timeout(20_000)

  it('a 256 KB frame inflating to 256 MiB closes with 1009 at maxPayload (1 MiB): the handler never sees it, memory stays far below the inflated size, the connection is gone', async () => {
    const { app, port, received } = await deflateApp()
    const frame = compressedFrame(inflatesTo(256))
    expect(frame.length).to.be.below(512 * 1024)
    const before = process.memoryUsage().rss
    const got = await sendFrame(port, frame)
    const grown = process.memoryUsage().rss - before
    expect(got.head.split('\r\n')[0]).to.equal('HTTP/1.1 101 Switching Protocols')
    expect(got.head.toLowerCase()).to.include('sec-websocket-extensions: permessage-deflate')
    // 1009 (message too big) is ws's answer once the inflated bytes pass maxPayload; 1002 would
    // mean the compressed frame was not understood at all.
    expect(got.closeCode).to.equal(1009)
    expect(got.closed).to.equal(true)
    expect(received).to.deep.equal([])
    // Inflating it all would hold 256 MiB (twice that once joined); measured: +3 MB.
    expect(grown).to.be.below(128 * 1024 * 1024)
    expect(await connectionsBack(app)).to.equal(0)
  })

  it('a compressed message under maxPayload is still inflated and echoed (the bound is on the inflated size, not a refusal of compression)', async () => {
    const { port, received } = await deflateApp()
    const socket = await client(port, true)
    const answer = new Promise<string>((resolve) => socket.once('message', (data: Buffer) => resolve(data.toString())))
    socket.send(Buffer.alloc(MAX_PAYLOAD - 1024, 7))
    expect(await within(answer, 5_000, 'the echo')).to.equal(`got ${MAX_PAYLOAD - 1024}`)
    expect(received).to.deep.equal([MAX_PAYLOAD - 1024])
    socket.terminate()
  })

  it('a message in 2,000 fragments of 1 KB that never ends closes with 1009 once the fragments pass maxPayload', async () => {
    const { app, port, received } = await deflateApp()
    const socket = await client(port, false)
    const closed = new Promise<number>((resolve) => socket.once('close', (code: number) => resolve(code)))
    socket.on('error', () => undefined)
    const fragment = Buffer.alloc(1024, 97)
    for (let i = 0; i < 2_000 && socket.readyState === WebSocket.OPEN; i++) socket.send(fragment, { fin: false, binary: true })
    expect(await within(closed, 8_000, 'the websocket to close')).to.equal(1009)
    expect(received).to.deep.equal([])
    expect(await connectionsBack(app)).to.equal(0)
  })
})
