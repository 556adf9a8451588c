// Content-Type headers built to cost: a thousand parameters, a charset the JSON parser does not
// decode. Measured on Enclave, Fastify 3.27.4 and Fastify 5: the 1,000-parameter header is read as
// its media type in a few ms on all three (the parameters are not parsed into a list); a UTF-16
// body labelled `charset=utf-16` is read as UTF-8 by all three and refused 400 as invalid JSON.
import { expect } from 'chai'
import { expectErrorShape, listening, rawRequest } from './helpers'

function post(contentType: string, body: Buffer | string): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body
  return Buffer.concat([Buffer.from(`POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: ${contentType}\r\nContent-Length: ${bytes.length}\r\n\r\n`), bytes])
}

describe('hardening: hostile Content-Type parameters', () => {
  const app = (): ReturnType<typeof listening> => listening((root) => {
    root.post('/echo', async (request) => ({ body: request.body }))
  })

  it('application/json with 1,000 parameters (and a charset after them) is parsed as JSON, as in Fastify 3 and 5', async () => {
    const { address } = await app()
    for (const tail of ['', '; charset=utf-8']) {
      const res = await rawRequest(address, post(`application/json${'; a=1'.repeat(1000)}${tail}`, '{"a":1}'))
      expect(res.status).to.equal(200)
      expect(JSON.parse(res.body)).to.deep.equal({ body: { a: 1 } })
    }
  })

  it('a text/plain body under 1,000 quoted parameters is still text, and an unknown type under them still 415 (as Fastify 3 and 5)', async () => {
    const { address } = await app()
    const text = await rawRequest(address, post(`text/plain${'; x="y;z"'.repeat(1000)}`, 'hello'))
    expect(JSON.parse(text.body)).to.deep.equal({ body: 'hello' })
    const unknown = await rawRequest(address, post(`application/x-unknown${'; a=1'.repeat(1000)}`, 'hello'))
    expect(expectErrorShape(unknown.body, 415).code).to.equal('ENC_ERR_CTP_INVALID_MEDIA_TYPE')
  })

  for (const [label, charset, body] of [
    ['UTF-16 (little-endian, no mark)', 'utf-16', Buffer.from('{"a":1}', 'utf16le')],
    ['UTF-16LE with its byte-order mark', 'utf-16le', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a":1}', 'utf16le')])],
  ] as Array<[string, string, Buffer]>) {
    it(`a ${label} JSON body labelled charset=${charset} is read as UTF-8: 400 ENC_ERR_CTP_INVALID_JSON, as Fastify 3 and 5 refuse it`, async () => {
      const { address } = await app()
      const res = await rawRequest(address, post(`application/json; charset=${charset}`, body))
      expect(res.status).to.equal(400)
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_CTP_INVALID_JSON')
    })
  }
})
