// Uploads to @fastify/multipart (default options) that the client abandons halfway: 20 clients
// each send the first 100 KB of a 500 KB file and reset the connection (HTTP/1.1) or cancel the
// stream (HTTP/2). Whichever way the handler reads the file (request.file() then toBuffer(), a
// pipeline into a file on disk, the parts() iterator, saveRequestFiles()), its await ends at once
// with the client's abort rather than waiting for bodyTimeout or handlerTimeout; each request ends
// in exactly one terminal hook (onRequestAbort or onResponse), no file descriptor and no temporary
// file is left behind, nothing is unhandled, and the server answers the next request.
import { createWriteStream, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { connect as http2Connect, constants as h2 } from 'node:http2'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { expect } from 'chai'
import multipart from '@fastify/multipart'
import type { Scope } from '../../src/runtime'
import { server } from '../support/servers'
import { RawClient, sleep } from '../support/raw-http'
import { poll } from '../support/until'

type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const CLIENTS = 20
const fds = (): number => readdirSync('/proc/self/fd').length
const PART_HEAD = '--XX\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'
const PARTIAL = PART_HEAD + 'x'.repeat(100_000)

type Reader = (request: Loose, dir: string, n: number) => Promise<void>
const READERS: Record<string, Reader> = {
  'file().toBuffer()': async (request) => { await (await request.file()).toBuffer() },
  'a pipeline into a file': async (request, dir, n) => { await pipeline((await request.file()).file, createWriteStream(join(dir, `upload-${n}`))) },
  'the parts() iterator': async (request) => { for await (const part of request.parts()) if (part.file !== undefined) await part.toBuffer() },
  'saveRequestFiles()': async (request, dir) => { await request.saveRequestFiles({ tmpdir: dir }) },
}

interface Outcome { settled: string[]; ends: Map<string, string[]>; started: Set<string>; unhandled: unknown[] }

async function uploadApp(read: Reader, dir: string, options: Record<string, unknown>): Promise<{ app: Scope; address: string; outcome: Outcome }> {
  const outcome: Outcome = { settled: [], ends: new Map(), started: new Set(), unhandled: [] }
  const app = server({ handlerTimeout: 30_000, bodyTimeout: 30_000, ...options }) as Loose
  const end = (kind: string) => async (request: Loose): Promise<void> => { outcome.ends.set(request.id, [...(outcome.ends.get(request.id) ?? []), kind]) }
  app.addHook('onRequest', async (request: Loose) => { outcome.started.add(request.id) })
  app.addHook('onResponse', end('response'))
  app.addHook('onRequestAbort', end('abort'))
  await app.register(multipart)
  let n = 0
  app.post('/upload', async (request: Loose) => {
    try {
      await read(request, dir, n++)
      outcome.settled.push('read')
    } catch (error) {
      outcome.settled.push(`rejected: ${(error as { code?: string }).code ?? (error as Error).message}`)
      throw error
    }
    return { ok: true }
  })
  app.get('/ok', async () => ({ ok: true }))
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app: app as unknown as Scope, address, outcome }
}

const until = (condition: () => boolean, ms: number): Promise<boolean> => poll(condition, { ms })

async function abandonOverHttp1(address: string): Promise<void> {
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    const client = new RawClient(address)
    client.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: 500000\r\n\r\n${PARTIAL}`)
    await sleep(150)
    client.socket.resetAndDestroy()
    await client.closed
  }))
}

async function abandonOverHttp2(address: string): Promise<void> {
  const session = http2Connect(address)
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    const stream = session.request({ ':method': 'POST', ':path': '/upload', 'content-type': 'multipart/form-data; boundary=XX', 'content-length': '500000' }, { endStream: false })
    stream.on('error', () => undefined)
    stream.write(PARTIAL)
    await sleep(150)
    stream.close(h2.NGHTTP2_CANCEL)
    await new Promise((resolve) => stream.once('close', resolve))
  }))
  session.destroy()
}

describe('hardening: multipart uploads abandoned halfway', function () {
  this.timeout(20_000)
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown): void => { unhandled.push(reason) }
  let dir: string
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'enclave-upload-')); unhandled.length = 0; process.on('unhandledRejection', onUnhandled) })
  afterEach(() => { process.removeListener('unhandledRejection', onUnhandled); rmSync(dir, { recursive: true, force: true }) })

  for (const [transport, options, abandon] of [['HTTP/1.1', {}, abandonOverHttp1], ['h2c', { http2: true }, abandonOverHttp2]] as const) {
    for (const [how, read] of Object.entries(READERS)) {
      it(`over ${transport}, read by ${how}: ${CLIENTS} handlers' awaits reject at the abort (not at a timeout), one terminal hook each, no descriptor or temporary file left`, async () => {
        const { app, address, outcome } = await uploadApp(read, dir, options)
        const before = fds()
        const started = Date.now()
        await abandon(address)
        await until(() => outcome.settled.length === CLIENTS && [...outcome.started].every((id) => outcome.ends.has(id)), 5_000)
        expect(Date.now() - started, 'well before bodyTimeout and handlerTimeout (30 s)').to.be.below(10_000)
        expect(outcome.settled.length, 'handlers whose await ended').to.equal(CLIENTS)
        expect(outcome.settled.filter((s) => s === 'read'), 'no handler read a whole file').to.deep.equal([])
        expect(outcome.started.size, 'requests that reached onRequest').to.equal(CLIENTS)
        for (const id of outcome.started) expect(outcome.ends.get(id), `terminal hooks of ${id}`).to.have.length(1)
        // Files written before the abort may stay for the pipeline reader (the handler owns them); saveRequestFiles cleans its own.
        if (how === 'saveRequestFiles()') expect(readdirSync(dir), 'temporary files left').to.deep.equal([])
        await until(() => fds() <= before, 2_000)
        expect(fds(), 'file descriptors').to.be.at.most(before)
        expect(unhandled).to.deep.equal([])
        const probe = await (app as Loose).inject({ method: 'GET', url: '/ok' })
        expect(probe.statusCode).to.equal(200)
      })
    }
  }
})
