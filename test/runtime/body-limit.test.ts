import { expect } from 'chai'
import request from 'supertest'
import type { Scope, ServerOptions } from '../../src/runtime'
import { build, chunked, rawRequest } from './helpers'

const tooLarge = (limit: number): string =>
  `{"statusCode":413,"code":"ENC_ERR_CTP_BODY_TOO_LARGE","error":"Payload Too Large","message":"Request body is too large: the limit is ${limit} bytes"}`

/** A listening server with POST /server (no route limit) and POST /route (route bodyLimit). */
async function limited(options: ServerOptions, routeLimit?: number): Promise<{ app: Scope; address: string; handled: string[] }> {
  const handled: string[] = []
  const app = await build((root) => {
    root.post('/server', async (req) => { handled.push('server'); return { length: String(req.body).length } })
    root.post('/route', { bodyLimit: routeLimit }, async (req) => { handled.push('route'); return { length: String(req.body).length } })
    root.addContentTypeParser('text/x-small', { bodyLimit: 4 }, (_req, body) => body)
  }, options)
  return { app, address: await app.listen(0), handled }
}

function post(path: string, headers: Record<string, string>, body: string): string {
  const lines = Object.entries({ host: 'localhost', connection: 'close', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('')
  return `POST ${path} HTTP/1.1\r\n${lines}\r\n${body}`
}

describe('runtime: bodyLimit', () => {
  it('is 1 MiB by default: exactly 1 MiB is accepted', async () => {
    const { app } = await limited({})
    const text = 'a'.repeat(1024 * 1024)
    await request(app.server).post('/server').set('content-type', 'text/plain').send(text).expect(200, { length: 1024 * 1024 })
  })

  it('is 1 MiB by default: one byte more is the exact 413 payload', async () => {
    const { address, handled } = await limited({})
    // Only the headers are sent: the declared length is refused before any byte of the body is read.
    const res = await rawRequest(address, post('/server', { 'content-type': 'text/plain', 'content-length': String(1024 * 1024 + 1) }, ''))
    expect(res.status).to.equal(413)
    expect(res.body).to.equal(tooLarge(1024 * 1024))
    expect(handled).to.deep.equal([])
  })

  it('the server option: over the limit is the exact 413 payload; at the limit is accepted', async () => {
    const { app } = await limited({ bodyLimit: 10 })
    await request(app.server).post('/server').set('content-type', 'text/plain').send('0123456789').expect(200, { length: 10 })
    const res = await request(app.server).post('/server').set('content-type', 'text/plain').send('0123456789a').expect(413)
    expect(res.headers['content-type']).to.equal('application/json; charset=utf-8')
    expect(res.text).to.equal(tooLarge(10))
  })

  it('the route option wins over the server option, both ways', async () => {
    const loose = await limited({ bodyLimit: 10 }, 100)
    await request(loose.app.server).post('/route').set('content-type', 'text/plain').send('x'.repeat(50)).expect(200, { length: 50 })
    const strict = await limited({ bodyLimit: 100 }, 10)
    const res = await request(strict.app.server).post('/route').set('content-type', 'text/plain').send('x'.repeat(50)).expect(413)
    expect(res.text).to.equal(tooLarge(10))
    await request(strict.app.server).post('/server').set('content-type', 'text/plain').send('x'.repeat(50)).expect(200)
  })

  it("a parser's own bodyLimit applies when the route sets none", async () => {
    const { app } = await limited({ bodyLimit: 100 })
    await request(app.server).post('/server').set('content-type', 'text/x-small').send('1234').expect(200)
    const res = await request(app.server).post('/server').set('content-type', 'text/x-small').send('12345').expect(413)
    expect(res.text).to.equal(tooLarge(4))
  })

  it('counts bytes, not characters', async () => {
    const { app } = await limited({ bodyLimit: 10 })
    await request(app.server).post('/server').set('content-type', 'text/plain; charset=utf-8').send('ééééé').expect(200) // 10 bytes
    await request(app.server).post('/server').set('content-type', 'text/plain; charset=utf-8').send('éééééé').expect(413) // 12 bytes
  })

  describe('chunked bodies (no content-length to trust)', () => {
    it('are counted on the bytes received: several small chunks over the limit are 413', async () => {
      const { address, handled } = await limited({ bodyLimit: 10 })
      const res = await rawRequest(address, post('/server', { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, chunked(['aaaa', 'bbbb', 'cccc'])))
      expect(res.status).to.equal(413)
      expect(res.body).to.equal(tooLarge(10))
      expect(handled).to.deep.equal([])
    })

    it('under the limit are parsed whole', async () => {
      const { address } = await limited({ bodyLimit: 10 })
      const res = await rawRequest(address, post('/server', { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, chunked(['aaaa', 'bbbb'])))
      expect(res.status).to.equal(200)
      expect(JSON.parse(res.body)).to.deep.equal({ length: 8 })
    })

    it('with the route limit too', async () => {
      const { address } = await limited({ bodyLimit: 1000 }, 5)
      const res = await rawRequest(address, post('/route', { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, chunked(['abc', 'def'])))
      expect(res.status).to.equal(413)
      expect(res.body).to.equal(tooLarge(5))
    })

    it('a chunked JSON body is parsed', async () => {
      const app = await build((root) => { root.post('/json', async (req) => ({ body: req.body })) })
      const res = await rawRequest(await app.listen(0), post('/json', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, chunked(['{"a":', '[1,2]}'])))
      expect(res.status).to.equal(200)
      expect(JSON.parse(res.body)).to.deep.equal({ body: { a: [1, 2] } })
    })
  })

  it('a 413 closes the connection rather than draining an endless body', async () => {
    const { app } = await limited({ bodyLimit: 10 })
    const res = await request(app.server).post('/server').set('content-type', 'text/plain').send('x'.repeat(11)).expect(413)
    expect(res.headers.connection).to.equal('close')
  })
})
