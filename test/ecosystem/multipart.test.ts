import { connect } from 'node:net'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { expect } from 'chai'
import request from 'supertest'
import multipart from '@fastify/multipart'
import { modes, topology } from './helpers'
import { recordingLogger } from '../support/servers'
import { expectErrorShape } from '../hardening/helpers'
import { createServer, type Request } from '../../src/runtime'
import { createApp } from '../../src/modules'
import { Module } from '../../src/decorators'

interface FilePart { filename: string; mimetype: string; fieldname: string; fields: Record<string, { value?: string }>; toBuffer(): Promise<Buffer> }

// @fastify/multipart README: `request.file()` streams the first file (with the fields before
// it), `request.parts()` iterates, `attachFieldsToBody` puts everything on request.body; limits
// answer 413 with the plugin's code.
describe('@fastify/multipart in Enclave', () => {
  const upload = async (req: Request) => {
    if (typeof req.file !== 'function') return { multipart: false }
    const data = await (req.file as () => Promise<FilePart>)()
    const content = (await data.toBuffer()).toString()
    return { field: data.fieldname, filename: data.filename, mimetype: data.mimetype, content, title: data.fields.title?.value ?? null }
  }

  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('streams an uploaded file with request.file() in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: multipart, probe: upload })
        for (const path of ['/inside/probe', '/inside/child/probe']) {
          await request(app.server).post(path).field('title', 'notes').attach('doc', Buffer.from('file body'), { filename: 'a.txt', contentType: 'text/plain' })
            .expect(200, { field: 'doc', filename: 'a.txt', mimetype: 'text/plain', content: 'file body', title: 'notes' })
        }
        await request(app.server).post('/outside/probe').attach('doc', Buffer.from('file body'), 'a.txt').expect(415)
      })

      it('attaches fields and files to request.body with attachFieldsToBody', async () => {
        const app = await topology(mode, {
          plugin: multipart,
          options: { attachFieldsToBody: 'keyValues' },
          probe: async (req) => ({ body: Object.fromEntries(Object.entries(req.body as Record<string, unknown>).map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString() : v])) }),
        })
        await request(app.server).post('/inside/probe').field('name', 'Ada').attach('doc', Buffer.from('contents'), 'b.txt')
          .expect(200, { body: { name: 'Ada', doc: 'contents' } })
      })

      it('answers 413 with FST_REQ_FILE_TOO_LARGE when a file passes limits.fileSize', async () => {
        const app = await topology(mode, { plugin: multipart, options: { limits: { fileSize: 4 }, throwFileSizeLimit: true }, probe: upload })
        const res = await request(app.server).post('/inside/probe').attach('doc', Buffer.from('much too large'), 'c.txt').expect(413)
        expect(res.body.code).to.equal('FST_REQ_FILE_TOO_LARGE')
      })

      // The parser's own errors carry no status: Fastify 5.12.8 answers them 500. They are the client's bytes.
      it('a malformed multipart body (cut short, no boundary, a boundary it does not frame, one too long) is 400 ENC_ERR_MULTIPART_MALFORMED, not a 500', async () => {
        const logger = recordingLogger()
        const app = await topology(mode, { plugin: multipart, probe: upload, server: { logger } })
        const part = (boundary: string, end: string): string => `--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="a.txt"\r\n\r\nhello${end}`
        const long = 'b'.repeat(300)
        const cases: ReadonlyArray<readonly [string, string, RegExp]> = [
          ['multipart/form-data; boundary=XyZ', part('XyZ', ''), /unexpected end of multipart data/],
          ['multipart/form-data', part('XyZ', '\r\n--XyZ--\r\n'), /Boundary not found/],
          ['multipart/form-data; boundary=Other', part('XyZ', '\r\n--XyZ--\r\n'), /Unexpected end of multipart data/],
          ['multipart/form-data; boundary=XyZ', 'not multipart at all', /Unexpected end of multipart data/],
          [`multipart/form-data; boundary=${long}`, part(long, `\r\n--${long}--\r\n`), /boundary is longer than 252 characters/],
        ]
        for (const [type, body, message] of cases) {
          const res = await request(app.server).post('/inside/probe').set('content-type', type).send(body).expect(400)
          expect(expectErrorShape(JSON.stringify(res.body), 400).code, type).to.equal('ENC_ERR_MULTIPART_MALFORMED')
          expect(res.body.message, type).to.match(message)
        }
        expect(logger.entries.filter((e) => e.level === 'error')).to.deep.equal([])
        // The plugin's own coded errors keep their status.
        await request(app.server).post('/inside/probe').attach('doc', Buffer.from('ok'), 'a.txt').expect(200)
      })
    })
  }

  // A module registering the plugin again for its own options (NestJS's per-module forRoot habit):
  // the plugin declares into the registering scope, so the child would redefine what it inherits.
  describe('registered again below a scope that has it', () => {
    const expectAgainHint = (error: Error & { code?: string }, where: string) => {
      expect(error.code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
      expect(error.message).to.include(`The plugin fastifyMultipart is registered in ${where} already`)
      expect(error.message).to.include(`register it once, in ${where}`)
      expect(error.message).to.include('request.file({ limits })')
      expect(error.message).not.to.include('Rename it')
    }

    it('a child module listing @fastify/multipart again fails boot saying to register it once, not to rename', async () => {
      @Module({ plugins: [[multipart, { attachFieldsToBody: true }]] }) class UploadsModule {}
      @Module({ plugins: [[multipart, { limits: { fileSize: 1024 } }], UploadsModule] }) class AppModule {}
      const error = await createApp(AppModule).then(() => null, (e: Error) => e)
      expectAgainHint(error as Error, 'AppModule')
    })

    it('a child scope registering @fastify/multipart again fails boot saying to register it once', async () => {
      const app = createServer()
      app.register(multipart)
      app.register(async (child) => { child.register(multipart, { attachFieldsToBody: true }) })
      const error = await app.ready().then(() => null, (e: Error) => e)
      expectAgainHint(error as Error, 'root')
      await app.close()
    })
  })

  // A document service writes each upload to disk with pipeline(); a client that leaves mid-upload
  // rejects it with 'aborted' (ECONNRESET), which the handler cleans up after and rethrows.
  it('a client that leaves mid-upload: the rethrown abort is logged at info, not as an error after the response had started', async () => {
    const logger = recordingLogger()
    const app = createServer({ logger })
    app.register(multipart)
    let failed: (error: unknown) => void = () => {}
    const handlerFailed = new Promise<unknown>((resolve) => { failed = resolve })
    app.post('/upload', async (request) => {
      const file = await (request as unknown as { file(): Promise<{ file: NodeJS.ReadableStream }> }).file()
      try {
        await pipeline(file.file, new Writable({ write: (_chunk, _encoding, done) => done() }))
      } catch (error) {
        failed(error)
        throw error
      }
      return { ok: true }
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = new URL(address)
    const socket = connect(Number(port), '127.0.0.1')
    socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 100000\r\n\r\n' +
      '--B\r\nContent-Disposition: form-data; name="doc"; filename="a.txt"\r\n\r\n' + 'a'.repeat(5000))
    await new Promise((resolve) => setTimeout(resolve, 100))
    socket.destroy()
    expect((await handlerFailed as { code?: string }).code).to.equal('ECONNRESET')
    await new Promise((resolve) => setTimeout(resolve, 50))
    await app.close()
    expect(logger.entries.filter((e) => e.level === 'error').map((e) => e.msg)).to.deep.equal([])
    const entry = logger.entries.find((e) => (e.obj.err as { code?: string } | undefined)?.code === 'ECONNRESET')
    expect(entry?.level).to.equal('info')
    expect(entry?.msg).to.include('the client went away before the answer')
  })
})
