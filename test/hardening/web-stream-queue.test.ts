// A web ReadableStream reply whose source enqueues regardless of `desiredSize` (a `start(controller)`
// that keeps the controller and feeds it, as an event hub does): Readable.fromWeb() reads it only as
// the response drains, so for a client that reads nothing the chunks piled up in the web stream's
// own queue, which neither the socket nor the Node stream shows, and it grew without bound
// (NOTE19's open item). maxQueuedBytes now counts that queue (serve/web-stream-queue.ts): the
// connection is cut (HTTP/1) or the stream reset (HTTP/2), logged as every other stream kind.
// drainTimeout is 60 s here, so a cut within the test's seconds is the byte limit's. Bounded: each
// source stops at a budget or when cancelled; every wait under 6 s.
import { connect as connectH2 } from 'node:http2'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { recordingLogger, server } from '../support/servers'
import { nonReader } from '../support/non-reader'
import { within } from '../support/raw-http'
import { markWebSource, webQueueBytes } from '../../src/runtime/serve/web-stream-queue'
import type { Scope } from '../../src/runtime'

const LIMIT = 2 * 1024 * 1024
const BUDGET = 256 * 1024 * 1024
const CHUNK = 64 * 1024

interface PushFeed { enqueued: number; cancelled: boolean }

/**
 * GET `path`: a web stream whose start() keeps its controller and enqueues fresh 64 KB chunks in a
 * tight loop (eight per 10 ms tick, ~50 MB/s) regardless of desiredSize, up to `budget` bytes;
 * it stops when cancelled or when enqueue() throws (the stream closed).
 */
function pushFeed(app: Scope, path: string, budget: number, type?: 'bytes'): PushFeed {
  const feed: PushFeed = { enqueued: 0, cancelled: false }
  app.get(path, async (_request, reply) => {
    let timer: ReturnType<typeof setInterval> | undefined
    reply.type('application/octet-stream')
    return new ReadableStream<Uint8Array>({
      type,
      start(controller: { enqueue(chunk: Uint8Array): void }) {
        timer = setInterval(() => {
          for (let i = 0; i < 8; i++) {
            if (feed.enqueued >= budget || feed.cancelled) { clearInterval(timer); return }
            try { controller.enqueue(new Uint8Array(CHUNK).fill(120)) } catch { clearInterval(timer); return }
            feed.enqueued += CHUNK
          }
        }, 10)
      },
      cancel() { feed.cancelled = true; clearInterval(timer) },
    } as never)
  })
  return feed
}

function limitWarnings(logger: ReturnType<typeof recordingLogger>): ReturnType<typeof recordingLogger>['entries'] {
  return logger.entries.filter((e) => e.level === 'warn' && (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_CONNECTION_QUEUE_LIMIT')
}

describe('hardening: a web ReadableStream reply enqueued regardless of desiredSize (maxQueuedBytes)', function () {
  this.timeout(15_000)

  for (const type of [undefined, 'bytes'] as const) {
    it(`HTTP/1: a ${type === 'bytes' ? 'byte' : 'default'} web stream fed 64 KB chunks regardless of desiredSize, to a client that reads nothing, is cut once its queue holds more than the limit: source cancelled, one warning naming the route`, async () => {
      const logger = recordingLogger()
      const app = server({ logger, drainTimeout: 60_000, maxQueuedBytes: LIMIT })
      const feed = pushFeed(app, '/push', BUDGET, type)
      const { socket, serverClosed } = await nonReader(app, '/push')
      await within(serverClosed, 6_000, 'the server to cut the connection')
      await within(new Promise<void>((resolve) => { const check = setInterval(() => { if (feed.cancelled) { clearInterval(check); resolve() } }, 10) }), 2_000, 'the source cancelled')
      // The limit, the socket buffers and about half a second of the feed's rate (~50 MB/s at most).
      expect(feed.enqueued).to.be.below(LIMIT + 40 * 1024 * 1024)
      const warnings = limitWarnings(logger)
      expect(warnings).to.have.length(1)
      expect(warnings[0].obj).to.include({ route: 'GET /push', url: '/push', limit: LIMIT })
      expect(warnings[0].obj.queued).to.be.above(LIMIT)
      socket.destroy()
      await app.close()
    })
  }

  it('HTTP/2: the same web stream to a client that reads nothing is reset (ENHANCE_YOUR_CALM) once its queue holds more than the limit; one warning; the session goes on serving', async () => {
    const logger = recordingLogger()
    const app = server({ http2: true, logger, drainTimeout: 60_000, http2SessionTimeout: 10_000, maxQueuedBytes: LIMIT })
    const feed = pushFeed(app, '/push', BUDGET)
    app.get('/ok', async () => 'ok')
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const session = connectH2(address)
    session.on('error', () => undefined)
    const push = session.request({ ':path': '/push' })
    push.on('error', () => undefined)
    push.pause()
    const reset = new Promise<number>((resolve) => push.once('close', () => resolve(push.rstCode ?? -1)))
    expect(await within(reset, 6_000, 'the stream to be reset'), 'RST_STREAM code').to.equal(0xb)
    expect(feed.enqueued).to.be.below(LIMIT + 40 * 1024 * 1024)
    const warnings = limitWarnings(logger)
    expect(warnings).to.have.length(1)
    expect(warnings[0].obj).to.include({ route: 'GET /push', url: '/push', limit: LIMIT })
    const ok = session.request({ ':path': '/ok' })
    let body = ''
    ok.setEncoding('utf8')
    ok.on('data', (chunk: string) => { body += chunk })
    await within(new Promise((resolve) => ok.on('end', resolve)), 4_000, 'GET /ok on the same session')
    expect(body).to.equal('ok')
    session.close()
    await app.close()
  })

  it('webQueueBytes measures a default web stream\'s queued chunks in bytes (strings by length), a byte stream\'s queue total, and 0 for a stream not made from a web stream or an empty queue', () => {
    let control: ReadableStreamDefaultController<unknown> | undefined
    const web = new ReadableStream<unknown>({ start(controller) { control = controller } })
    const node = Readable.fromWeb(web as never, { objectMode: true })
    markWebSource(node, web)
    expect(webQueueBytes(node)).to.equal(0)
    control?.enqueue(new Uint8Array(1000))
    control?.enqueue('abc')
    control?.enqueue({ not: 'bytes' })
    expect(webQueueBytes(node)).to.equal(1003)
    let bytesControl: ReadableByteStreamController | undefined
    const bytes = new ReadableStream({ type: 'bytes', start(controller) { bytesControl = controller } })
    const bytesNode = Readable.fromWeb(bytes as never)
    markWebSource(bytesNode, bytes)
    for (let i = 0; i < 5; i++) bytesControl?.enqueue(new Uint8Array(777))
    expect(webQueueBytes(bytesNode)).to.equal(5 * 777)
    expect(webQueueBytes(new Readable({ read() {} }))).to.equal(0)
    node.destroy()
    bytesNode.destroy()
  })
})
