// Request bodies shaped to cost the server: decompression bombs in every coding
// @fastify/compress decodes, chunk framing lines of 20 KB, a multipart body of 10,000 parts under
// the plugin's default limits and part headers of 100 KB, a JSON object of 100,000 tiny keys, and
// lone surrogates echoed into a 400. Each answer is a 4xx in the JSON shape (or the 200 the body
// deserves), none takes seconds, and the connection or process survives. No timing assertions.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { expect } from 'chai'
import compress from '@fastify/compress'
import multipart from '@fastify/multipart'
import type { MultipartFile } from '@fastify/multipart'
import { server } from '../support/servers'
import { rawRequest } from '../support/raw-http'
import { expectErrorShape } from './helpers'
import type { Request, Scope } from '../../src/runtime'

async function listen(app: Scope): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' })
}

const post = (path: string, type: string, body: Buffer | string, extra = ''): Buffer => {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body
  return Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: ${type}\r\nContent-Length: ${bytes.length}\r\n${extra}\r\n`), bytes])
}

describe('hardening: hostile request bodies', function () {
  this.timeout(15_000)

  describe('decompression bombs through @fastify/compress request decoding (8 MB inflated, bodyLimit 1 MB)', () => {
    const inflated = Buffer.from(`{"a":"${'0'.repeat(8 * 1024 * 1024)}"}`)
    const codings: Array<[string, (b: Buffer) => Buffer]> = [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]]
    for (const [coding, squeeze] of codings) {
      it(`${coding}: 413 ENC_ERR_CTP_BODY_TOO_LARGE once the inflated bytes pass bodyLimit (never inflated whole), connection closed`, async () => {
        const app = server()
        await app.register(compress, { requestEncodings: ['gzip', 'deflate', 'br'] })
        app.post('/echo', async (request) => ({ length: JSON.stringify(request.body).length }))
        const squeezed = squeeze(inflated)
        expect(squeezed.length).to.be.below(64 * 1024)
        const res = await rawRequest(await listen(app), post('/echo', 'application/json', squeezed, `Content-Encoding: ${coding}\r\n`))
        expect(res.status).to.equal(413)
        expect(expectErrorShape(res.body, 413).code).to.equal('ENC_ERR_CTP_BODY_TOO_LARGE')
      })
    }
  })

  describe('chunked framing lines', () => {
    it('a chunk extension of 20 KB: 400 ENC_ERR_REQUEST_MALFORMED in JSON (Node\'s llhttp caps extensions), the handler never runs', async () => {
      const app = server()
      let ran = false
      app.post('/echo', async () => { ran = true; return 'ok' })
      const res = await rawRequest(await listen(app), `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n3;${'e'.repeat(20_000)}\r\nabc\r\n0\r\n\r\n`)
      expect(res.status).to.equal(400)
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_REQUEST_MALFORMED')
      expect(ran).to.equal(false)
    })

    it('a chunk size past 64 bits: 400 ENC_ERR_REQUEST_MALFORMED in JSON, the handler never runs', async () => {
      const app = server()
      let ran = false
      app.post('/echo', async () => { ran = true; return 'ok' })
      const res = await rawRequest(await listen(app), `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n${'f'.repeat(18)}\r\nabc\r\n0\r\n\r\n`)
      expect(res.status).to.equal(400)
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_REQUEST_MALFORMED')
      expect(ran).to.equal(false)
    })

    it('a chunk size line of 20 KB of leading zeros is a valid size (as in Node): the body is read as sent', async () => {
      const app = server()
      app.post('/echo', async (request) => request.body)
      const res = await rawRequest(await listen(app), `POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n${'0'.repeat(20_000)}3\r\nabc\r\n0\r\n\r\n`)
      expect(res.status).to.equal(200)
      expect(res.body).to.equal('abc')
    })
  })

  describe('multipart bombs through @fastify/multipart at its default limits', () => {
    async function uploadApp(): Promise<string> {
      const app = server({ bodyLimit: 4 * 1024 * 1024 })
      await app.register(multipart)
      app.post('/up', async (request) => {
        let parts = 0
        for await (const part of (request as Request & { parts(): AsyncIterable<MultipartFile | { type: 'field' }> }).parts()) {
          parts++
          if (part.type === 'file') for await (const _chunk of (part as MultipartFile).file) { /* drained */ }
        }
        return { parts }
      })
      return listen(app)
    }
    const B = 'XyZ'

    it('10,000 fields: 413 FST_PARTS_LIMIT (the plugin\'s default of 1,000 parts) in the JSON shape', async () => {
      let body = ''
      for (let i = 0; i < 10_000; i++) body += `--${B}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`
      const res = await rawRequest(await uploadApp(), post('/up', `multipart/form-data; boundary=${B}`, body + `--${B}--\r\n`))
      expect(res.status).to.equal(413)
      expect(expectErrorShape(res.body, 413).code).to.equal('FST_PARTS_LIMIT')
    })

    it('a part header of 100 KB and a part with 5,000 header lines: answered (busboy drops what is past its header limits), no crash', async () => {
      const address = await uploadApp()
      const long = await rawRequest(address, post('/up', `multipart/form-data; boundary=${B}`, `--${B}\r\nContent-Disposition: form-data; name="a"\r\nX-Big: ${'h'.repeat(100_000)}\r\n\r\nv\r\n--${B}--\r\n`))
      expect(long.status).to.be.oneOf([200, 400, 413])
      let lines = ''
      for (let i = 0; i < 5_000; i++) lines += `X-H${i}: v\r\n`
      const many = await rawRequest(address, post('/up', `multipart/form-data; boundary=${B}`, `--${B}\r\nContent-Disposition: form-data; name="a"\r\n${lines}\r\nv\r\n--${B}--\r\n`))
      expect(many.status).to.be.oneOf([200, 400, 413])
      if (long.status !== 200) expectErrorShape(long.body, long.status)
      if (many.status !== 200) expectErrorShape(many.body, many.status)
    })
  })

  describe('JSON', () => {
    it('an object of 100,000 tiny keys at the default bodyLimit is parsed and validated (linear in its size: ~0.1–0.2 s CPU on the loaded CI machine, JSON.parse the most of it)', async () => {
      const app = server()
      app.post('/keys', { schema: { body: { type: 'object', properties: { a: { type: 'string' } } } } }, async (request) => ({ keys: Object.keys(request.body as object).length }))
      const keys: string[] = []
      for (let i = 0; i < 100_000; i++) keys.push(`"${i.toString(36)}":1`)
      const body = `{${keys.join(',')}}`
      expect(body.length).to.be.below(1024 * 1024)
      const res = await app.inject({ method: 'POST', url: '/keys', headers: { 'content-type': 'application/json' }, payload: body })
      expect(res.statusCode).to.equal(200)
      expect(res.json()).to.deep.equal({ keys: 100_000 })
    })

    it('a lone surrogate in a property name echoed into a 400 goes out escaped (\\ud800): the body is ASCII, valid JSON, and gives the name back', async () => {
      const app = server()
      app.post('/names', { schema: { body: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } } } }, async () => ({ ok: true }))
      const address = await listen(app)
      for (const name of ['\ud800', 'ab\udc00cd']) {
        const res = await rawRequest(address, post('/names', 'application/json', JSON.stringify({ [name]: 1 })))
        expect(res.status).to.equal(400)
        expect(/^[\x20-\x7e]*$/.test(res.body), res.body).to.equal(true)
        const message = expectErrorShape(res.body, 400).message as string
        expect(message).to.include(`'${name}'`)
      }
    })
  })
})
