// Object-mode and web stream replies to a client that never reads. Pulled sources (a generator
// through Readable.from(), a web ReadableStream with pull()) are pulled only as the socket drains:
// production stops at about the socket buffers. A push-based object-mode source that ignores
// push()'s answer piles up in its own buffer, which counts objects, not bytes: maxQueuedBytes now
// measures its chunks (serve/object-mode-bytes.ts) and cuts it. drainTimeout is 60 s here, so a cut
// within the test's seconds is the byte limit's. Bounded: every producer stops at a budget, waits under 6 s.
import { connect } from 'node:net'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { recordingLogger, server } from '../support/servers'
import { nonReader } from '../support/non-reader'
import { sleep, within } from '../support/raw-http'
import { untilSettled } from '../support/settled'
import { objectModeBytes } from '../../src/runtime/serve/object-mode-bytes'

const LIMIT = 2 * 1024 * 1024
const BUDGET = 256 * 1024 * 1024
const CHUNK = 'x'.repeat(16_384)

describe('hardening: object-mode and web stream replies to a client that never reads', function () {
  this.timeout(15_000)

  it('a generator through Readable.from() and a web ReadableStream with pull() stop being pulled at about the socket buffers (under 16 MB of 1.6 GB offered)', async () => {
    const app = server({ drainTimeout: 60_000 })
    let generated = 0
    let pulled = 0
    app.get('/gen', async (_request, reply) => {
      reply.type('text/plain')
      return Readable.from((function * () { for (let i = 0; i < 100_000; i++) { generated++; yield CHUNK } })())
    })
    app.get('/web', async (_request, reply) => {
      reply.type('text/plain')
      const bytes = new TextEncoder().encode(CHUNK)
      return new ReadableStream<Uint8Array>({ pull(controller) { if (pulled++ >= 100_000) controller.close(); else controller.enqueue(bytes) } })
    })
    const one = await nonReader(app, '/gen')
    const port = (app.server.address() as { port: number }).port
    const two = connect({ host: '127.0.0.1', port })
    two.on('error', () => undefined)
    two.pause()
    two.write('GET /web HTTP/1.1\r\nHost: x\r\n\r\n')
    // Both producing, then both stopped (a sum that stays put): the buffers are full.
    await untilSettled(() => generated === 0 || pulled === 0 ? 0 : generated + pulled)
    const after = { generated, pulled }
    await sleep(1_000)
    expect({ generated, pulled }, 'no production while nobody reads').to.deep.equal(after)
    expect(generated * CHUNK.length).to.be.below(16 * 1024 * 1024)
    expect(pulled * CHUNK.length).to.be.below(16 * 1024 * 1024)
    one.socket.destroy()
    two.destroy()
  })

  it('an object-mode source pushed to regardless of push()\'s answer is cut once it holds more than maxQueuedBytes: source destroyed, one warning naming the route', async () => {
    const logger = recordingLogger()
    const app = server({ logger, drainTimeout: 60_000, maxQueuedBytes: LIMIT })
    let source: Readable | undefined
    let pushed = 0
    app.get('/feed', async (_request, reply) => {
      source = new Readable({ objectMode: true, read() {} })
      const timer = setInterval(() => { for (let i = 0; i < 4 && pushed < BUDGET; i++) { source?.push(CHUNK); pushed += CHUNK.length } }, 2)
      source.on('close', () => clearInterval(timer))
      reply.type('application/x-ndjson')
      return source
    })
    const { socket, serverClosed } = await nonReader(app, '/feed')
    await within(serverClosed, 6_000, 'the server to cut the connection')
    expect(source?.destroyed, 'the source destroyed').to.equal(true)
    expect(pushed).to.be.below(LIMIT + 24 * 1024 * 1024)
    const warnings = logger.entries.filter((e) => e.level === 'warn' && (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_CONNECTION_QUEUE_LIMIT')
    expect(warnings).to.have.length(1)
    expect(warnings[0].obj).to.include({ route: 'GET /feed', url: '/feed', limit: LIMIT })
    socket.destroy()
  })

  it('objectModeBytes counts strings and bytes held in an object-mode buffer, estimates past its sample, and counts 0 for an empty or byte-mode-less stream', () => {
    const stream = new Readable({ objectMode: true, read() {} })
    expect(objectModeBytes(stream)).to.equal(0)
    stream.push('abc')
    stream.push(Buffer.alloc(10))
    stream.push({ not: 'bytes' })
    expect(objectModeBytes(stream)).to.equal(13)
    const many = new Readable({ objectMode: true, read() {} })
    for (let i = 0; i < 10_000; i++) many.push('xy')
    expect(objectModeBytes(many)).to.equal(20_000)
    many.destroy()
    stream.destroy()
  })
})
