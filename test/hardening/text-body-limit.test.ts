// A bodyLimit raised past 512 MB (an upload service) and a body read as one string: V8 cannot make
// a string longer than 536,870,888 units, and decoding such a body threw ERR_STRING_TOO_LONG in
// the body's 'end' listener, uncaught: the process ended (Fastify 3 and 5 end too, measured with a
// 540 MB text/plain and JSON body). The string-decoding parsers (parseAs 'string', the built-in text
// and JSON ones) now read under that cap: 413 as for bodyLimit, refused from the Content-Length
// before a byte is read. The cap is checked here through the declared length (sending 540 MB would
// hold as much in the test process); the received-bytes path is the same limit (read-body.ts).
import { expect } from 'chai'
import { constants } from 'node:buffer'
import type { IncomingMessage } from 'node:http'
import type { Request } from '../../src/runtime'
import { expectErrorShape, listening, rawRequest } from './helpers'

const GiB = 1024 * 1024 * 1024
const DECLARED = 600 * 1024 * 1024

const head = (path: string, contentType: string): string =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Length: ${DECLARED}\r\n\r\n` + 'x'.repeat(1024)

describe('hardening: a body over the longest string V8 can make, with bodyLimit raised past it', function () {
  this.timeout(10_000)

  const STRING_READERS: Array<[string, string]> = [
    ["a parser declared with parseAs: 'string'", 'text/csv'],
    ['the built-in text/plain parser', 'text/plain'],
    ['the built-in JSON parser', 'application/json'],
  ]
  for (const [name, contentType] of STRING_READERS) {
    it(`${name}: 413 ENC_ERR_CTP_BODY_TOO_LARGE naming V8's cap, before the body is read; the handler is not run and the process lives`, async () => {
      let handled = 0
      const { address } = await listening((root) => {
        root.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request: Request, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => { done(null, body.length) })
        root.post('/up', async () => { handled++; return 'read' })
        root.get('/after', async () => 'still serving')
      }, { bodyLimit: GiB })
      const res = await rawRequest(address, head('/up', contentType))
      expect(res.status).to.equal(413)
      expect(expectErrorShape(res.body, 413)).to.deep.include({
        code: 'ENC_ERR_CTP_BODY_TOO_LARGE',
        message: `Request body is too large: the limit is ${constants.MAX_STRING_LENGTH} bytes`,
      })
      expect(handled).to.equal(0)
      expect((await rawRequest(address, 'GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).body).to.equal('still serving')
    })
  }

  it("a route's own bodyLimit raised past it is capped the same way", async () => {
    const { address } = await listening((root) => { root.post('/up', { bodyLimit: GiB }, async () => 'read') })
    const res = await rawRequest(address, head('/up', 'text/plain'))
    expect(expectErrorShape(res.body, 413).message).to.equal(`Request body is too large: the limit is ${constants.MAX_STRING_LENGTH} bytes`)
  })

  it("a parser given the body as a Buffer is not capped: the same body is read (here cut by bodyTimeout's 408, not refused 413)", async () => {
    const { address } = await listening((root) => {
      root.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request: Request, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => { done(null, body.length) })
      root.post('/up', async () => 'read')
    }, { bodyLimit: GiB, bodyTimeout: 300 })
    const res = await rawRequest(address, head('/up', 'application/octet-stream'))
    expect(expectErrorShape(res.body, 408).code).to.equal('ENC_ERR_CTP_BODY_TIMEOUT')
  })

  it('a stream parser reads the body itself and is not capped either', async () => {
    const { address } = await listening((root) => {
      root.addContentTypeParser('application/octet-stream', (_request: Request, payload: IncomingMessage, done: (error: Error | null, value?: unknown) => void) => { payload.resume(); payload.on('end', () => done(null, 'ended')) })
      root.post('/up', async () => 'read')
    }, { bodyLimit: GiB, bodyTimeout: 300 })
    const res = await rawRequest(address, head('/up', 'application/octet-stream'))
    expect(expectErrorShape(res.body, 408).code).to.equal('ENC_ERR_CTP_BODY_TIMEOUT')
  })

  it('under the cap nothing changes: a string-read body within a raised bodyLimit is parsed', async () => {
    const { address } = await listening((root) => {
      root.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request: Request, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => { done(null, body.length) })
      root.post('/up', async (request) => ({ length: request.body }))
    }, { bodyLimit: GiB })
    const body = 'é'.repeat(100_000)
    const res = await rawRequest(address, `POST /up HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/csv\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
    expect(JSON.parse(res.body)).to.deep.equal({ length: 100_000 })
  })
})
