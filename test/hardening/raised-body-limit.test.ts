// bodyLimit raised to 100 MiB (an upload route) and clients that send part of a large body slowly,
// then leave: what the server buffered for them must go with them. Measured (8 clients, 40 MiB
// each of a declared 100 MiB, then gone): Enclave, Fastify 3 and Fastify 5 all hold ~320 MiB of
// Buffers while the bodies arrive and are back to their baseline (+2 MB) after a collection.
// Memory is judged after a full collection, against the bytes the clients sent (a ratio, not
// this machine's heap size).
import { connect, type Socket } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect } from 'chai'
import type { Request, Scope } from '../../src/runtime'
import { listening, sleep } from './helpers'

const MiB = 1024 * 1024
const CLIENTS = 4
const SENT_EACH = 24 * MiB

/** Buffer memory (external, which holds every Buffer's bytes) after a full collection. */
function buffersAfterGc(): number {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
  gc()
  return process.memoryUsage().external
}

const connections = (app: Scope): Promise<number> => new Promise((resolve) => app.server.getConnections((_e, n) => resolve(n)))

describe('hardening: bodyLimit raised to 100 MiB, slow uploads abandoned part-way', function () {
  this.timeout(30_000)

  for (const parseAs of ['buffer', 'string'] as const) {
    it(`(parseAs '${parseAs}') ${CLIENTS} clients each send ${SENT_EACH / MiB} MiB in 1 MiB steps then leave: the server held their bytes while reading and holds none after they are gone; the handler never ran`, async () => {
      let handled = 0
      const { app, address } = await listening((root) => {
        root.addContentTypeParser('application/octet-stream', { parseAs }, (_request: Request, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => { done(null, body.length) })
        root.post('/upload', async (request) => { handled++; return { length: request.body } })
        root.get('/ok', async () => 'ok')
      }, { bodyLimit: 100 * MiB })
      const port = Number(new URL(address).port)
      const baseline = buffersAfterGc()
      const sockets: Socket[] = Array.from({ length: CLIENTS }, () => {
        const socket = connect({ host: '127.0.0.1', port })
        socket.on('error', () => undefined)
        socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${100 * MiB}\r\n\r\n`)
        return socket
      })
      const step = Buffer.alloc(MiB, 7)
      for (let sent = 0; sent < SENT_EACH; sent += MiB) {
        await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => { if (!socket.write(step)) socket.once('drain', resolve); else resolve() })))
        await sleep(5)
      }
      // Bounded wait until the server has read what was sent (its buffered total stops growing).
      let holding = 0
      for (let i = 0; i < 50; i++) {
        await sleep(40)
        const now = buffersAfterGc() - baseline
        if (now <= holding) break
        holding = now
      }
      const sentTotal = CLIENTS * SENT_EACH
      // The measurement sees the bodies: most of what was sent is held (the rest may sit in socket buffers).
      expect(holding, 'bytes held while the bodies arrive').to.be.above(sentTotal * 0.5)
      for (const socket of sockets) socket.destroy()
      for (let i = 0; i < 200 && await connections(app) !== 0; i++) await sleep(20)
      expect(await connections(app)).to.equal(0)
      await sleep(50)
      const after = buffersAfterGc() - baseline
      // Released: a tenth of what was sent is far above what any per-connection state costs.
      expect(after, 'bytes still held after the clients left').to.be.below(sentTotal * 0.1)
      expect(handled).to.equal(0)
      expect(await (await fetch(`${address}/ok`)).text()).to.equal('ok')
    })
  }
})
