// A request body with a Content-Encoding (gzip, br ...): the built-in JSON and text parsers read
// bytes as sent, so a compressed body was read as text (a 400 echoing binary bytes) and a plain
// body mislabelled gzip was accepted. RFC 9110 §15.5.16: 415, with Accept-Encoding saying what is taken.
import { createGunzip, gzipSync } from 'node:zlib'
import { expect } from 'chai'
import { expectErrorShape, server } from './helpers'

describe('hardening: request bodies with a Content-Encoding', () => {
  const refused: ReadonlyArray<readonly [string, string, string | Buffer, string]> = [
    ['a gzip JSON body', 'application/json', gzipSync('{"a":1}'), 'gzip'],
    ['a plain JSON body labelled gzip', 'application/json', '{"a":1}', 'gzip'],
    ['a text body labelled br', 'text/plain', 'hello', 'br'],
    ['a +json body labelled deflate (case kept aside)', 'application/problem+json', '{}', 'Deflate'],
  ]
  for (const [label, type, payload, coding] of refused) {
    it(`${label}: 415 ENC_ERR_CTP_UNSUPPORTED_ENCODING with Accept-Encoding: identity, the handler not run`, async () => {
      let ran = false
      const app = server()
      app.post('/x', async () => { ran = true; return {} })
      const res = await app.inject({ method: 'POST', url: '/x', payload, headers: { 'content-type': type, 'content-encoding': coding } })
      expect(res.statusCode).to.equal(415)
      expect(res.headers['accept-encoding']).to.equal('identity')
      const body = expectErrorShape(res.body, 415)
      expect(body.code).to.equal('ENC_ERR_CTP_UNSUPPORTED_ENCODING')
      expect(body.message).to.contain(coding.toLowerCase())
      expect(ran).to.equal(false)
    })
  }

  it('identity (any case) and an empty value are no coding: the body is parsed', async () => {
    const app = server()
    app.post('/x', async (request) => request.body)
    for (const coding of ['identity', ' IDENTITY ', '']) {
      const res = await app.inject({ method: 'POST', url: '/x', payload: '{"a":1}', headers: { 'content-type': 'application/json', 'content-encoding': coding } })
      expect(res.statusCode, coding).to.equal(200)
      expect(res.json(), coding).to.deep.equal({ a: 1 })
    }
  })

  it('a preParsing hook that decodes the body (returns a new stream) is trusted: 200 with the decoded body', async () => {
    const app = server()
    app.post('/x', {
      preParsing: async (request: { headers: Record<string, unknown> }, _reply: unknown, payload: unknown) =>
        request.headers['content-encoding'] === 'gzip' ? (payload as NodeJS.ReadableStream).pipe(createGunzip()) : payload,
    }, async (request) => request.body)
    const res = await app.inject({ method: 'POST', url: '/x', payload: gzipSync('{"a":1}'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ a: 1 })
  })

  it('a preParsing hook that hands the payload back unchanged decodes nothing: still 415', async () => {
    const app = server()
    app.post('/x', { preParsing: async (_request: unknown, _reply: unknown, payload: unknown) => payload }, async (request) => request.body)
    const res = await app.inject({ method: 'POST', url: '/x', payload: gzipSync('{"a":1}'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })
    expect(res.statusCode).to.equal(415)
  })

  it('a declared parser gets the encoded bytes as sent, to decode itself', async () => {
    const app = server()
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, async (_request: unknown, body: Buffer | string) => ({ bytes: (body as Buffer).length }))
    app.post('/x', async (request) => request.body)
    const gz = gzipSync('hello')
    const res = await app.inject({ method: 'POST', url: '/x', payload: gz, headers: { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' } })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ bytes: gz.length })
  })
})
