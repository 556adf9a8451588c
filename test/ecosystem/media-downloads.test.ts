// docs/files-and-media.md, "Files and media": downloads through @fastify/static 10's reply.sendFile() from a
// decorator route (ranges, validators, HEAD, a unicode file name), signed expiring links, and a
// slow reader of a large file. Loopback only; every wait is bounded; the temp directory is removed.
import { connect } from 'node:net'
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { createApp } from '../../src/modules'
import type { Scope } from '../../src/runtime'
import { recordingLogger } from '../support/servers'
import { mediaModule } from './fixtures/media-app'

const PDF = Buffer.from('%PDF-1.4 0123456789abcdefghijklmnopqrstuvwxyz\n')

describe('media service: downloads, ranges and signed links (docs/files-and-media.md, "Files and media")', function () {
  this.timeout(10_000)
  let dir: string
  let app: Scope
  let base: string
  let media: ReturnType<typeof mediaModule>
  const logger = recordingLogger()

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'enclave-media-'))
    media = mediaModule({ dir, maxFile: 64 * 1024, maxTotal: 64 * 1024, secret: 'test-secret' })
    app = await createApp(media.MediaModule, { logger })
    await app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
    await writeFile(join(media.store, 'doc'), PDF)
    media.stored.set('doc', { id: 'doc', name: 'résumé 日本.pdf', type: 'application/pdf', size: PDF.length, sha256: '' })
  })
  after(async () => {
    await app.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('answers ranges as @fastify/static does: 206 with Content-Range, 416 past the end, several ranges with the whole file (200), If-Range by ETag; 304 on If-None-Match; HEAD with the length and no body', async () => {
    const get = (headers: Record<string, string> = {}, method = 'GET') => fetch(`${base}/media/doc`, { method, headers })
    const full = await get()
    expect(full.status).to.equal(200)
    expect(full.headers.get('accept-ranges')).to.equal('bytes')
    expect(full.headers.get('content-type')).to.equal('application/pdf')
    expect(full.headers.get('content-disposition')).to.equal(`attachment; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC.pdf`)
    expect(Buffer.from(await full.arrayBuffer())).to.deep.equal(PDF)
    const etag = full.headers.get('etag')!
    const one = await get({ range: 'bytes=9-18' })
    expect([one.status, one.headers.get('content-range'), await one.text()]).to.deep.equal([206, `bytes 9-18/${PDF.length}`, '0123456789'])
    const past = await get({ range: `bytes=${PDF.length}-` })
    expect([past.status, past.headers.get('content-range')]).to.deep.equal([416, `bytes */${PDF.length}`])
    const several = await get({ range: 'bytes=0-1,5-6' })
    expect([several.status, await several.text()]).to.deep.equal([200, PDF.toString()])
    expect((await get({ range: 'bytes=0-3', 'if-range': etag })).status).to.equal(206)
    expect((await get({ range: 'bytes=0-3', 'if-range': '"stale"' })).status).to.equal(200)
    // fetch() adds `Cache-Control: no-cache` to a conditional request unless one is given, and send honours it.
    const cached = await get({ 'if-none-match': etag, 'cache-control': 'max-age=0' })
    expect([cached.status, await cached.text()]).to.deep.equal([304, ''])
    const head = await get({}, 'HEAD')
    expect([head.status, head.headers.get('content-length'), await head.text()]).to.deep.equal([200, String(PDF.length), ''])
  })

  it('a signed link serves the file until it expires; a tampered or expired one is 403 MEDIA_LINK_REFUSED', async () => {
    const { url } = await (await fetch(`${base}/media/doc/link`)).json() as { url: string }
    const ok = await fetch(base + url)
    expect([ok.status, await ok.text()]).to.deep.equal([200, PDF.toString()])
    const { url: expired } = await (await fetch(`${base}/media/doc/link?ttl=-5`)).json() as { url: string }
    for (const bad of [url.replace(/sig=(.)/, (_m, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`), url.replace(/expires=\d+/, (m) => `expires=${Number(m.slice(8)) + 1}`), expired]) {
      const res = await fetch(base + bad)
      expect(res.status, bad).to.equal(403)
      expect(((await res.json()) as { code?: string }).code).to.equal('MEDIA_LINK_REFUSED')
    }
  })

  it('traversal attempts and encoded NULs in the id never reach a file: 404 in the error shape', async () => {
    for (const path of ['..%2f..%2fpackage.json', '..%252fdoc', 'doc%00.pdf', 'doc%2f..%2f..%2fpackage.json']) {
      const res = await fetch(`${base}/media/${path}`)
      expect(res.status, path).to.equal(404)
      expect(((await res.json()) as { code?: string }).code, path).to.equal('MEDIA_NOT_FOUND')
    }
  })

  // README Options, maxQueuedBytes: a stream reply's queue is bounded by backpressure, so a client
  // that stops reading for a while is not cut (only a queue that keeps growing is).
  it('a reader that stops for longer than two queue sweeps, then reads, gets all of a 24 MB file (maxQueuedBytes does not cut it)', async () => {
    const size = 24 * 1024 * 1024
    await writeFile(join(media.store, 'big'), '%PDF-')
    await truncate(join(media.store, 'big'), size)
    media.stored.set('big', { id: 'big', name: 'big.pdf', type: 'application/pdf', size, sha256: '' })
    const port = (app.server.address() as { port: number }).port
    const received = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /media/big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
      let bytes = 0
      socket.pause()
      setTimeout(() => socket.resume(), 700)
      socket.on('data', (chunk: Buffer) => { bytes += chunk.length })
      socket.on('close', () => resolve(bytes))
      socket.on('error', reject)
      setTimeout(() => { socket.destroy(); reject(new Error(`stalled at ${bytes} bytes`)) }, 8_000).unref()
    })
    expect(received).to.be.greaterThan(size)   // the head, then every byte of the file
    expect(logger.entries.filter((entry) => entry.level === 'warn' || entry.level === 'error')).to.deep.equal([])
  })
})
