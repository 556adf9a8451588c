// A body whose size does not match its Content-Length. Node's parser frames an HTTP/1.1 body by
// that header, so this is a body Node did not frame: inject() given a content-length header of its
// own. Fastify 3.27.4 answers 400 (FST_ERR_CTP_INVALID_CONTENT_LENGTH); so does Enclave, with its code.
import { expect } from 'chai'
import { build } from './helpers'

describe('a body that does not match its Content-Length', () => {
  it('a body longer or shorter than its Content-Length is a 400 ENC_ERR_CTP_INVALID_CONTENT_LENGTH; a matching one is parsed', async () => {
    const app = await build((root) => { root.post('/', async (request) => ({ got: request.body })) })
    const body = JSON.stringify({ text: '12345678901234567890' })
    for (const length of [10, body.length + 5]) {
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json', 'content-length': String(length) }, payload: body })
      expect(res.statusCode).to.equal(400)
      expect(res.json()).to.deep.include({ statusCode: 400, code: 'ENC_ERR_CTP_INVALID_CONTENT_LENGTH', error: 'Bad Request' })
    }
    const ok = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, payload: body })
    expect(ok.json()).to.deep.equal({ got: { text: '12345678901234567890' } })
    await app.close()
  })

  it('a content-length without leading digits (inject() given `abc`) declares nothing: the body is parsed, as Fastify 3 reads it with parseInt; `1x` is read as 1', async () => {
    const app = await build((root) => { root.post('/', async (request) => ({ got: request.body })) })
    const body = JSON.stringify({ a: 1 })
    for (const length of ['abc', '']) {
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json', 'content-length': length }, payload: body })
      expect([res.statusCode, res.json()], length).to.deep.equal([200, { got: { a: 1 } }])
    }
    const partial = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json', 'content-length': '1x' }, payload: body })
    expect(partial.json()).to.deep.include({ statusCode: 400, code: 'ENC_ERR_CTP_INVALID_CONTENT_LENGTH' })
    await app.close()
  })
})
