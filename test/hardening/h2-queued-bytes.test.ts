// maxQueuedBytes on HTTP/2: flow control holds a stream's output in that stream (its window spent
// by a client that does not read), not in the session's socket, so the socket-level check never
// saw an event stream fed regardless of write()'s answer: it queued its send rate × drainTimeout.
// Each stream reply is now watched by itself and cut with RST_STREAM (ENHANCE_YOUR_CALM), the
// session and its other streams left serving. A client that opens streams and reads none of them
// with producers that respect backpressure is held by the windows (Node's flow control): pinned.
// drainTimeout is 60 s and http2SessionTimeout 10 s here. Bounded: producers stop at a budget, waits under 6 s.
import { connect, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2'
import { PassThrough, Readable } from 'node:stream'
import { expect } from 'chai'
import { recordingLogger, server } from '../support/servers'
import { sleep, within } from '../support/raw-http'
import { carelessFeed } from '../support/careless-feed'
import { untilSettled } from '../support/settled'
import type { Scope } from '../../src/runtime'

const LIMIT = 2 * 1024 * 1024
const BUDGET = 256 * 1024 * 1024

async function h2c(app: Scope): Promise<ClientHttp2Session> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const session = connect(address)
  session.on('error', () => undefined)
  return session
}

function answerOf(stream: ClientHttp2Stream): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let status = 0
    let body = ''
    stream.on('response', (headers) => { status = Number(headers[':status']) })
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => { body += chunk })
    stream.on('end', () => resolve({ status, body }))
    stream.on('error', reject)
  })
}

describe('hardening: maxQueuedBytes on HTTP/2 streams', function () {
  this.timeout(15_000)

  it('an event stream fed regardless of write()\'s answer to a client that reads nothing is reset once it holds more than the limit; one warning naming the route; the session goes on serving', async () => {
    const logger = recordingLogger()
    const app = server({ http2: true, logger, drainTimeout: 60_000, http2SessionTimeout: 10_000, maxQueuedBytes: LIMIT })
    const produced = carelessFeed(app, '/feed', BUDGET)
    app.get('/ok', async () => 'ok')
    const session = await h2c(app)
    const feed = session.request({ ':path': '/feed' })
    feed.on('error', () => undefined)
    feed.pause()
    const reset = new Promise<number>((resolve) => feed.once('close', () => resolve(feed.rstCode ?? -1)))
    expect(await within(reset, 6_000, 'the feed stream to be reset'), 'RST_STREAM code').to.equal(0xb)
    expect(produced.source?.destroyed, 'the source destroyed').to.equal(true)
    expect(produced.written).to.be.below(LIMIT + 24 * 1024 * 1024)
    const warnings = logger.entries.filter((e) => e.level === 'warn' && (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_CONNECTION_QUEUE_LIMIT')
    expect(warnings).to.have.length(1)
    expect(warnings[0].obj).to.include({ route: 'GET /feed', url: '/feed', limit: LIMIT })
    // The line says what was cut: this one stream, not the connection (the session goes on).
    expect(warnings[0].msg).to.match(/its stream was reset$/)
    expect((warnings[0].obj.err as Error).message).to.match(/; its stream was reset\./)
    expect(session.destroyed, 'the session kept').to.equal(false)
    expect(await within(answerOf(session.request({ ':path': '/ok' })), 4_000, 'GET /ok on the same session')).to.deep.equal({ status: 200, body: 'ok' })
    session.close()
  })

  it('100 streams of 4 MB downloads that are never read hold at most their flow-control windows: the producers, which respect backpressure, stop; nothing is cut', async () => {
    const logger = recordingLogger()
    const app = server({ http2: true, logger, drainTimeout: 60_000, http2SessionTimeout: 10_000, maxQueuedBytes: LIMIT })
    let produced = 0
    const chunk = Buffer.alloc(16_384, 0x61)
    app.get('/download', async (_request, reply) => {
      let left = 256
      reply.type('application/octet-stream')
      return new Readable({ read() { if (left-- > 0) { produced += chunk.length; this.push(chunk) } else this.push(null) } })
    })
    const session = await h2c(app)
    const streams = Array.from({ length: 100 }, () => {
      const stream = session.request({ ':path': '/download' })
      stream.on('error', () => undefined)
      stream.pause()
      return stream
    })
    await untilSettled(() => produced)
    const held = produced
    await sleep(1_000)
    expect(produced, 'no production while nobody reads').to.equal(held)
    // 100 windows of 64 KB, the connection's window, and each stream's and source's high-water marks: far below the 400 MB offered.
    expect(produced).to.be.below(64 * 1024 * 1024)
    expect(logger.entries.filter((e) => e.level === 'warn')).to.deep.equal([])
    for (const stream of streams) stream.close()
    // Destroyed, not closed: a GOAWAY would wait for the 100 unread streams.
    session.destroy()
  })
})
