import { expect } from 'chai'
import request from 'supertest'
import { build, rawRequest } from './helpers'

describe('runtime: request limits', () => {
  it('a query string with more keys than maxQueryKeys is 414, never silently truncated', async () => {
    let handled = false
    const app = await build((root) => { root.get('/q', async (req) => { handled = true; return { query: req.query } }) }, { maxQueryKeys: 2 })
    await request(app.server).get('/q?a=1&b=2').expect(200, { query: { a: '1', b: '2' } })
    const res = await request(app.server).get('/q?a=1&b=2&c=3').expect(414)
    expect(res.body).to.deep.equal({ statusCode: 414, code: 'ENC_ERR_QUERY_TOO_MANY_KEYS', error: 'URI Too Long', message: 'The query string has more than 2 keys' })
    expect(handled).to.equal(true) // only by the first request
  })

  it('the shortest query with one key too many (bare keys: a&b&c) is 414 too', async () => {
    const app = await build((root) => { root.get('/q', async (req) => ({ query: req.query })) }, { maxQueryKeys: 2 })
    await request(app.server).get('/q?a&b').expect(200, { query: { a: '', b: '' } })
    await request(app.server).get('/q?a&b&c').expect(414)
    // Repeated keys are one key: a long query of two distinct keys is within the limit.
    await request(app.server).get('/q?a=1&a=2&a=3&b=4').expect(200, { query: { a: ['1', '2', '3'], b: '4' } })
  })

  it('a route parameter longer than maxParamLength is 414', async () => {
    const app = await build((root) => { root.get('/u/:id', async (req) => ({ id: req.params.id })) }, { maxParamLength: 5 })
    await request(app.server).get('/u/12345').expect(200, { id: '12345' })
    const res = await request(app.server).get('/u/123456').expect(414)
    expect(res.body.code).to.equal('ENC_ERR_PARAM_TOO_LONG')
  })

  it('a URL that cannot be decoded is 400 with a code', async () => {
    const app = await build((root) => { root.get('/u/:id', async (req) => ({ id: req.params.id })) })
    const res = await request(app.server).get('/u/%E0%A4%A').expect(400)
    expect(res.body).to.include({ statusCode: 400, code: 'ENC_ERR_BAD_URL', error: 'Bad Request' })
  })

  it('a malformed request line is answered with the JSON error shape and the connection closed', async () => {
    const app = await build(() => undefined)
    const res = await rawRequest(await app.listen(0), 'NOT A REQUEST\r\n\r\n')
    expect(res.status).to.equal(400)
    expect(res.headers.connection).to.equal('close')
    expect(JSON.parse(res.body)).to.deep.equal({ statusCode: 400, code: 'ENC_ERR_REQUEST_MALFORMED', error: 'Bad Request', message: 'Bad Request' })
  })

  it('Content-Length together with Transfer-Encoding (a smuggling shape) is refused 400', async () => {
    let handled = false
    const app = await build((root) => { root.post('/x', async () => { handled = true; return 'x' }) })
    const res = await rawRequest(await app.listen(0), 'POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n' +
      'Content-Length: 3\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n')
    expect(res.status).to.equal(400)
    expect(JSON.parse(res.body).code).to.equal('ENC_ERR_REQUEST_MALFORMED')
    expect(handled).to.equal(false)
  })

  it('headers larger than Node accepts are 431 with a code', async () => {
    const app = await build((root) => { root.get('/x', async () => 'x') })
    const res = await rawRequest(await app.listen(0), `GET /x HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`)
    expect(res.status).to.equal(431)
    expect(JSON.parse(res.body)).to.deep.equal({ statusCode: 431, code: 'ENC_ERR_REQUEST_HEADERS_TOO_LARGE', error: 'Request Header Fields Too Large', message: 'Request Header Fields Too Large' })
  })
})
