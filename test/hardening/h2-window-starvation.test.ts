// HTTP/2 window starvation: a client that opens streams for large replies and never opens its
// flow-control window (SETTINGS_INITIAL_WINDOW_SIZE 0, or a stream it never reads, so no
// WINDOW_UPDATE). A file download's source respects backpressure, so its reply never ends: the
// idle-session rule counted it as a handler still at work and kept the session, and each file
// descriptor, for good (hostile24 watched 30 s; Fastify 3 and 5 keep them too). Such a stream now
// waits on its client like a written reply does: once the session is idle (http2SessionTimeout) it
// is destroyed after drainTimeout without progress, and every source is closed. Bounded: short
// timeouts here, every wait under 15 s, streams counted.
import { connect, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2'
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { server } from '../support/servers'
import { within } from '../support/raw-http'
import type { Scope } from '../../src/runtime'

const FILE_BYTES = 4 * 1024 * 1024
const STREAMS = 5

describe('hardening: HTTP/2 clients that never open their flow-control window', function () {
  this.timeout(30_000)
  let dir = ''
  let file = ''
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'enclave-h2-window-'))
    file = join(dir, 'download.bin')
    writeFileSync(file, Buffer.alloc(FILE_BYTES, 0x61))
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  /** A server whose /download streams the file, counting the sources opened and closed. */
  async function downloads(options: { drainTimeout: number; http2SessionTimeout: number }): Promise<{ app: Scope; address: string; sources: { opened: number; closed: number } }> {
    const sources = { opened: 0, closed: 0 }
    const app = server({ http2: true, logger: false, ...options })
    app.get('/download', async (_request, reply) => {
      const source = createReadStream(file)
      sources.opened++
      source.once('close', () => { sources.closed++ })
      reply.type('application/octet-stream')
      return source
    })
    app.get('/big', async (_request, reply) => reply.type('application/octet-stream').send(Buffer.alloc(FILE_BYTES, 0x62)))
    app.get('/ok', async () => 'ok')
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    return { app, address, sources }
  }

  function opened(address: string, settings: { initialWindowSize?: number } = {}): { session: ClientHttp2Session; closed: Promise<void> } {
    const session = connect(address, { settings })
    session.on('error', () => undefined)
    const closed = new Promise<void>((resolve) => session.once('close', () => resolve()))
    return { session, closed }
  }

  /** Opens a stream on `path` and never reads it: its window is never updated. */
  function starved(session: ClientHttp2Session, path: string): ClientHttp2Stream {
    const stream = session.request({ ':path': path })
    stream.on('error', () => undefined)
    stream.pause()
    return stream
  }

  function answerOf(stream: ClientHttp2Stream): Promise<{ status: number; bytes: number }> {
    return new Promise((resolve, reject) => {
      let status = 0
      let bytes = 0
      stream.on('response', (headers) => { status = Number(headers[':status']) })
      stream.on('data', (chunk: Buffer) => { bytes += chunk.length })
      stream.on('end', () => resolve({ status, bytes }))
      stream.on('error', reject)
    })
  }

  for (const [label, settings] of [['SETTINGS_INITIAL_WINDOW_SIZE 0', { initialWindowSize: 0 }], ['streams it never reads', {}]] as const) {
    it(`${label}: ${STREAMS} file downloads are cut once the idle session has waited drainTimeout, each file closed (Fastify 3 and 5 hold them open)`, async () => {
      const { address, sources } = await downloads({ drainTimeout: 1_000, http2SessionTimeout: 500 })
      const { session, closed } = opened(address, settings)
      for (let i = 0; i < STREAMS; i++) starved(session, '/download')
      // Destroyed on failure too: a session the server keeps would hold close() past the hook's timeout.
      await within(closed, 15_000, 'the starved session closed by the server').finally(() => session.destroy())
      expect(sources.opened).to.equal(STREAMS)
      for (let i = 0; i < 100 && sources.closed < STREAMS; i++) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(sources.closed, 'every file stream closed').to.equal(STREAMS)
      // The server serves the next client.
      const next = opened(address)
      expect(await within(answerOf(next.session.request({ ':path': '/ok' })), 5_000, 'GET /ok on a new session')).to.deep.equal({ status: 200, bytes: 2 })
      next.session.close()
    })
  }

  it('a reply written whole (a 4 MB buffer) to a window of 0 is cut by the same rule', async () => {
    const { address } = await downloads({ drainTimeout: 1_000, http2SessionTimeout: 500 })
    const { session, closed } = opened(address, { initialWindowSize: 0 })
    starved(session, '/big')
    await within(closed, 15_000, 'the starved session closed by the server').finally(() => session.destroy())
  })

  it('a client that reads the download slowly but steadily, past drainTimeout and http2SessionTimeout, gets every byte', async () => {
    const { address, sources } = await downloads({ drainTimeout: 1_000, http2SessionTimeout: 500 })
    const { session } = opened(address)
    const stream = session.request({ ':path': '/download' })
    // A pause of 100 ms after every 64 KB read spreads the 4 MB over more than 6 s.
    let sincePause = 0
    stream.on('data', (chunk: Buffer) => {
      sincePause += chunk.length
      if (sincePause < 64 * 1024) return
      sincePause = 0
      stream.pause()
      setTimeout(() => stream.resume(), 100)
    })
    try {
      const answer = await within(answerOf(stream), 25_000, 'the slow download')
      expect(answer).to.deep.equal({ status: 200, bytes: FILE_BYTES })
      for (let i = 0; i < 100 && sources.closed < 1; i++) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(sources).to.deep.equal({ opened: 1, closed: 1 })
    } finally {
      session.destroy()
    }
  })

  it('a quiet stream reply with nothing queued (a producer still at work) still keeps its session past drainTimeout', async () => {
    const app = server({ http2: true, logger: false, drainTimeout: 500, http2SessionTimeout: 300 })
    const { PassThrough } = await import('node:stream')
    const feeds: InstanceType<typeof PassThrough>[] = []
    app.get('/events', async (_request, reply) => {
      const feed = new PassThrough()
      feeds.push(feed)
      reply.type('text/event-stream')
      return feed
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const { session } = opened(address)
    const stream = session.request({ ':path': '/events' })
    const answer = answerOf(stream)
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    expect(session.destroyed, 'the session kept').to.equal(false)
    feeds[0].end('data: late\n\n')
    expect(await within(answer, 5_000, 'the event stream ending')).to.deep.equal({ status: 200, bytes: 'data: late\n\n'.length })
    session.close()
  })
})
