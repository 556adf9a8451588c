// A large streamed download to a client that never reads: in every send path that respects
// backpressure (a Node stream, a generator through Readable.from(), a web ReadableStream with
// pull(), reply.raw.write() waiting for 'drain'), what the server holds is bounded by the socket's
// and the source's high-water marks plus the kernel's buffers: the producer is asked for nothing
// more once they are full. Measured as bytes produced (exact) and memory in use (heap plus
// Buffers), sampled twice a second apart once the buffers are full: neither grows. Bounded: each
// source stops at 1 GB, each test within ~7 s.
import { connect, type Socket } from 'node:net'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { server } from '../support/servers'
import { sleep } from '../support/raw-http'
import { untilSettled } from '../support/settled'
import type { Reply, Scope } from '../../src/runtime'

const CHUNK = 64 * 1024
const BUDGET = 1024 * 1024 * 1024
// Loopback: the socket's buffer, the kernel's send and receive buffers (a few MB with Linux
// defaults) and the source's own buffer; a producer not held back makes hundreds of MB a second here.
const BOUND = 24 * 1024 * 1024

type Producer = (reply: Reply, count: (bytes: number) => void) => unknown

const paths: Record<string, Producer> = {
  'a Node stream (read() pushing 64 KB each call)': (_reply, count) => new Readable({
    read() { count(CHUNK); this.push(Buffer.alloc(CHUNK, 0x61)) },
  }),
  'an async generator through Readable.from()': (_reply, count) => Readable.from((async function * () {
    while (true) { count(CHUNK); yield Buffer.alloc(CHUNK, 0x61) }
  })(), { objectMode: false }),
  'a web ReadableStream with pull()': (_reply, count) => new ReadableStream<Uint8Array>({
    pull(controller) { count(CHUNK); controller.enqueue(new Uint8Array(CHUNK).fill(0x61)) },
  }),
  'reply.raw.write() waiting for drain': (reply, count) => {
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'application/octet-stream' })
    const write = (): void => {
      while (!reply.raw.destroyed) {
        count(CHUNK)
        if (!reply.raw.write(Buffer.alloc(CHUNK, 0x61))) { reply.raw.once('drain', write); return }
      }
    }
    write()
    return undefined
  },
}

const inUse = (): number => { const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers }

describe('hardening: a large streamed download to a client that never reads', function () {
  this.timeout(15_000)

  for (const [name, produce] of Object.entries(paths)) {
    it(`${name}: the producer is held back once the buffers are full (bytes produced and memory in use stop growing)`, async () => {
      let produced = 0
      const app: Scope = server({ drainTimeout: 60_000 })
      app.get('/download', (_request, reply) => {
        reply.type('application/octet-stream')
        return produce(reply, (bytes) => { if (produced >= BUDGET) throw new Error('budget spent'); produced += bytes })
      })
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const socket: Socket = connect({ host: '127.0.0.1', port: Number(new URL(address).port) })
      socket.on('error', () => undefined)
      socket.pause()
      socket.write('GET /download HTTP/1.1\r\nHost: x\r\n\r\n')
      await untilSettled(() => produced)
      const first = { produced, memory: inUse() }
      await sleep(1_000)
      expect(produced, 'bytes produced').to.be.below(BOUND)
      // At most one more chunk per buffer a GC or the kernel freed meanwhile.
      expect(produced - first.produced, 'bytes produced in the second second').to.be.at.most(4 * CHUNK)
      expect(inUse() - first.memory, 'memory in use growth').to.be.below(8 * 1024 * 1024)
      socket.destroy()
    })
  }
})
