// docs/files-and-media.md, "Files and media": uploads streamed to disk (@fastify/multipart 10), checked while the
// bytes pass, and tus-style resumable uploads through a stream content-type parser. Loopback
// only; every wait is bounded; the temp directory is removed.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readlinkSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { createApp } from '../../src/modules'
import type { Scope } from '../../src/runtime'
import { mediaModule } from './fixtures/media-app'
import { sleep } from '../support/raw-http'

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(20_000, 7)])
const PDF = Buffer.from('%PDF-1.4 a small document\n')

/** Polls `check` every 20 ms for at most `ms`; true when it held. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 3_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (await check()) return true
  return check()
}

/** Descriptors of this process open on files under `dir` (Linux; null elsewhere). */
function openUnder(dir: string): number | null {
  if (!existsSync('/proc/self/fd')) return null
  return readdirSync('/proc/self/fd').filter((fd) => { try { return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir) } catch { return false } }).length
}

/** The files in `dir` with their sizes, so a leftover says what it is (an empty one: removed before it was created). */
async function listing(dir: string): Promise<string[]> {
  return Promise.all((await readdir(dir)).map(async (name) => `${name} (${(await stat(join(dir, name))).size} B)`))
}

describe('media service: uploads to disk and resumable uploads (docs/files-and-media.md, "Files and media")', function () {
  this.timeout(10_000)
  let dir: string
  let app: Scope
  let base: string
  let media: ReturnType<typeof mediaModule>

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'enclave-media-'))
    media = mediaModule({ dir, maxFile: 64 * 1024, maxTotal: 100 * 1024, secret: 'test-secret' })
    app = await createApp(media.MediaModule, { logger: false })
    await app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
  })
  after(async () => {
    await app.close()
    await rm(dir, { recursive: true, force: true })
  })

  const form = (...files: Array<[string, Buffer, string]>): FormData => {
    const body = new FormData()
    body.append('title', 'holiday')
    for (const [name, bytes, type] of files) body.append('file', new Blob([bytes], { type }), name)
    return body
  }

  it('streams each file to disk with the fields, its SHA-256 computed as the bytes pass and its type from its magic bytes, not the client\'s Content-Type', async () => {
    const res = await fetch(`${base}/media`, { method: 'POST', body: form(['résumé.png', PNG, 'text/plain'], ['doc.pdf', PDF, 'application/pdf']) })
    expect(res.status).to.equal(200)
    const { fields, files } = await res.json() as { fields: unknown; files: Array<{ id: string; name: string; type: string; size: number; sha256: string }> }
    expect(fields).to.deep.equal({ title: 'holiday' })
    expect(files.map(({ name, type, size }) => ({ name, type, size }))).to.deep.equal([
      { name: 'résumé.png', type: 'image/png', size: PNG.length }, { name: 'doc.pdf', type: 'application/pdf', size: PDF.length },
    ])
    expect(files[0]!.sha256).to.equal(createHash('sha256').update(PNG).digest('hex'))
    expect(await readFile(join(media.store, files[0]!.id))).to.deep.equal(PNG)
    expect(await listing(media.partial)).to.deep.equal([])
  })

  it('refuses by magic bytes (415), per file and in total (413 with the app\'s codes) and past limits.files (the plugin\'s 413); no partial file stays', async () => {
    const refused = async (body: FormData): Promise<{ status: number; code: unknown }> => {
      const res = await fetch(`${base}/media`, { method: 'POST', body })
      return { status: res.status, code: ((await res.json()) as { code?: unknown }).code }
    }
    expect(await refused(form(['fake.png', Buffer.from('MZ\x90\x00 an executable, said to be a png'), 'image/png']))).to.deep.equal({ status: 415, code: 'MEDIA_TYPE_REFUSED' })
    const big = Buffer.concat([PNG, Buffer.alloc(64 * 1024)])
    expect(await refused(form(['big.png', big, 'image/png']))).to.deep.equal({ status: 413, code: 'MEDIA_FILE_TOO_LARGE' })
    const part = Buffer.concat([PNG, Buffer.alloc(20_000)])   // 40 KB each: the third passes 100 KB in total
    expect(await refused(form(['a.png', part, 'image/png'], ['b.png', part, 'image/png'], ['c.png', part, 'image/png']))).to.deep.equal({ status: 413, code: 'MEDIA_TOTAL_TOO_LARGE' })
    expect(await refused(form(['a.pdf', PDF, 'application/pdf'], ['b.pdf', PDF, 'application/pdf'], ['c.pdf', PDF, 'application/pdf'], ['d.pdf', PDF, 'application/pdf']))).to.deep.equal({ status: 413, code: 'FST_FILES_LIMIT' })
    expect(await listing(media.partial)).to.deep.equal([])
  })

  it('uploads refused at their first bytes, twenty at once, leave no partial file: the removal waits for the file\'s write stream to close', async () => {
    // pipeline() rejects while the write stream is still opening its file: a removal that did not wait could run
    // before the open and leave an empty file (seen once under load; this many at once crowds libuv's thread pool).
    const statuses = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
      const res = await fetch(`${base}/media`, { method: 'POST', body: form([`fake${i}.png`, Buffer.from('MZ\x90\x00 not an image'), 'image/png']) })
      await res.arrayBuffer()
      return res.status
    }))
    expect(statuses).to.deep.equal(Array(20).fill(415))
    await sleep(50)                                   // an open that outran its removal would show by now
    expect(await listing(media.partial)).to.deep.equal([])
    expect(openUnder(dir) ?? 0).to.equal(0)
  })

  it('a client that aborts mid-upload leaves no partial file and no open descriptor, and the server serves on', async () => {
    const boundary = 'abortedUpload'
    const before = new Set(await readdir(media.partial))   // judged on its own file: an earlier test's leftover is that test's failure
    const mine = async (): Promise<string[]> => (await readdir(media.partial)).filter((name) => !before.has(name))
    const req = httpRequest(`${base}/media`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': 10_000_000 } })
    req.on('error', () => undefined)
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.png"\r\nContent-Type: image/png\r\n\r\n`)
    req.write(PNG)
    expect(await eventually(async () => (await mine()).length === 1), 'the upload reached the disk').to.equal(true)
    req.destroy()
    expect(await eventually(async () => (await mine()).length === 0), 'partial file removed').to.equal(true)
    expect(await eventually(() => (openUnder(dir) ?? 0) === 0), 'descriptors closed').to.equal(true)
    const res = await fetch(`${base}/media`, { method: 'POST', body: form(['doc.pdf', PDF, 'application/pdf']) })
    expect(res.status).to.equal(200)
  })

  it('resumes a tus upload: POST creates it, HEAD gives the offset, a PATCH cut off keeps what arrived, the next PATCH from that offset completes it; a wrong offset is 409', async () => {
    const content = Buffer.alloc(60_000, 3)
    const created = await fetch(`${base}/uploads`, { method: 'POST', headers: { 'upload-length': String(content.length), 'tus-resumable': '1.0.0' } })
    expect(created.status).to.equal(201)
    const url = base + created.headers.get('location')
    const offset = async (): Promise<number> => Number((await fetch(url, { method: 'HEAD' })).headers.get('upload-offset'))
    expect(await offset()).to.equal(0)
    const patch = httpRequest(url, { method: 'PATCH', headers: { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0', 'content-length': content.length } })
    patch.on('error', () => undefined)
    patch.write(content.subarray(0, 25_000))
    expect(await eventually(async () => (await offset()) === 25_000), 'the first bytes were written').to.equal(true)
    patch.destroy()
    await sleep(50)
    const at = await offset()
    expect(at).to.equal(25_000)
    const wrong = await fetch(url, { method: 'PATCH', headers: { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' }, body: content })
    expect(wrong.status).to.equal(409)
    const rest = await fetch(url, { method: 'PATCH', headers: { 'content-type': 'application/offset+octet-stream', 'upload-offset': String(at) }, body: content.subarray(at) })
    expect(rest.status).to.equal(204)
    expect(rest.headers.get('upload-offset')).to.equal(String(content.length))
    expect(await readFile(join(media.partial, created.headers.get('location')!.split('/').pop()!))).to.deep.equal(content)
  })
})
