// drainTimeout: a client that pipelines requests and never reads the answers cannot keep its
// connection (and the answers queued on it) forever. Short limits; every wait is bounded, and
// no assertion is about how long anything took.
import { connect, type Socket } from 'node:net'
import { expect } from 'chai'
import { listening, sleep, within } from './helpers'
import { readSteadily } from '../support/steady-reader'

/** Connects, stops reading at once, and writes `count` pipelined GETs of `path`. */
async function nonReader(address: string, path: string, count: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(address)
  const socket = connect({ host: hostname, port: Number(port) })
  socket.on('error', () => undefined)
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  await within(new Promise<void>((resolve) => socket.once('connect', () => resolve())), 5_000, 'connecting')
  socket.pause()
  for (let i = 0; i < count; i++) socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
  return { socket, closed }
}

const big = 'x'.repeat(256 * 1024)

describe('hardening: drainTimeout (a client that stops reading)', () => {
  it('a connection whose answers are not read within drainTimeout is destroyed', async () => {
    const { app, address } = await listening((root) => { root.get('/big', async () => big) }, { drainTimeout: 200 })
    // Seen from the server: a paused client may not notice the close until it reads again.
    const serverSide = new Promise<void>((resolve) => app.server.once('connection', (socket: Socket) => socket.once('close', () => resolve())))
    const { socket } = await nonReader(address, '/big', 40)
    await within(serverSide, 5_000, 'waiting for the server to destroy the stalled connection')
    socket.destroy()
  })

  it('a client that reads, even with the same pipelined load, is served in full', async () => {
    const { address } = await listening((root) => { root.get('/big', async () => big) }, { drainTimeout: 200 })
    const { socket, closed } = await nonReader(address, '/big', 8)
    let received = 0
    socket.on('data', (chunk: Buffer) => { received += chunk.length })
    socket.resume()
    for (let i = 0; i < 500 && received < 8 * big.length; i++) await sleep(10)
    expect(received).to.be.greaterThan(8 * big.length)
    socket.destroy()
    await closed
  })

  it('drainTimeout: 0 turns it off: the stalled connection stays open', async () => {
    const { app, address } = await listening((root) => { root.get('/big', async () => big) }, { drainTimeout: 0 })
    let serverSocket: Socket | null = null
    app.server.once('connection', (socket: Socket) => { serverSocket = socket })
    const { socket } = await nonReader(address, '/big', 40)
    await sleep(600)
    expect(serverSocket).to.not.equal(null)
    expect((serverSocket as unknown as Socket).destroyed).to.equal(false)
    socket.destroy()
  })

  // One large write drains only at its end: progress is the write queue falling (drain-watch.ts).
  const huge = Buffer.alloc(8 * 1024 * 1024, 0x61)

  it('a client that reads one reply larger than the socket buffers slowly but steadily, over drainTimeout, is not cut', async () => {
    // 16 MB/s: one kernel-buffer step (~1.5 MB) in ~0.1 s, far within drainTimeout, and the 32 MB
    // in ~2 s, twice drainTimeout: no stall-free sweep window is needed beyond what a GC pause leaves.
    const steady = Buffer.alloc(32 * 1024 * 1024, 0x61)
    const { address } = await listening((root) => { root.get('/huge', async (_request, reply) => { reply.header('content-type', 'application/octet-stream'); return steady }) }, { drainTimeout: 1000 })
    const { socket, closed } = await nonReader(address, '/huge', 1)
    let ended = false
    closed.then(() => { ended = true }, () => undefined)
    const received = await readSteadily(socket, steady.length, 16 * 1024 * 1024, () => ended)
    expect(ended, 'the connection was cut').to.equal(false)
    expect(received).to.be.greaterThan(steady.length)
    socket.destroy()
    await closed
  })

  it('a client that stops reading one reply larger than the socket buffers is cut after drainTimeout', async () => {
    const { app, address } = await listening((root) => { root.get('/huge', async () => huge) }, { drainTimeout: 200 })
    const serverSide = new Promise<void>((resolve) => app.server.once('connection', (socket: Socket) => socket.once('close', () => resolve())))
    const { socket } = await nonReader(address, '/huge', 1)
    await within(serverSide, 5_000, 'waiting for the server to destroy the stalled connection')
    socket.destroy()
  })
})
