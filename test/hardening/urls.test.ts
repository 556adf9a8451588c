// Hostile URLs: query strings that would be cut, escapes that cannot be decoded, text meant to
// break out of the JSON answer, over-long parameters; HEAD and 405 over a raw socket.
import { expect } from 'chai'
import { expectErrorShape, listening, rawClient, server } from './helpers'

describe('hardening: URLs and query strings', () => {
  describe('query strings: every key parsed, or a 4xx; never silently cut', () => {
    it('exactly maxQueryKeys keys (default 1000) are all parsed', async () => {
      const app = server()
      app.get('/q', async (request) => ({ keys: Object.keys(request.query).length, last: request.query.k999 }))
      const query = Array.from({ length: 1000 }, (_, i) => `k${i}=${i}`).join('&')
      const res = await app.inject({ url: `/q?${query}` })
      expect(JSON.parse(res.body)).to.deep.equal({ keys: 1000, last: '999' })
    })

    it('one key more is 414 ENC_ERR_QUERY_TOO_MANY_KEYS, and the handler does not run', async () => {
      let ran = false
      const app = server()
      app.get('/q', async () => { ran = true; return {} })
      const query = Array.from({ length: 1001 }, (_, i) => `k${i}=${i}`).join('&')
      const res = await app.inject({ url: `/q?${query}` })
      expect(res.statusCode).to.equal(414)
      expect(expectErrorShape(res.body, 414).code).to.equal('ENC_ERR_QUERY_TOO_MANY_KEYS')
      expect(ran).to.equal(false)
    })

    it('a not-found URL with too many keys is not a crash either (its query is parsed by the same rule)', async () => {
      const app = server()
      const query = Array.from({ length: 1001 }, (_, i) => `k${i}=${i}`).join('&')
      const res = await app.inject({ url: `/none?${query}` })
      expect(res.statusCode).to.be.within(400, 499)
      expectErrorShape(res.body, res.statusCode)
    })

    it('a repeated key is one key with every value: nothing dropped, not even the keys after it', async () => {
      // querystring.parse's own maxKeys counts pairs: it would keep 1000 values of `a` and drop `b`.
      const app = server()
      app.get('/q', async (request) => request.query)
      const res = await app.inject({ url: `/q?${Array.from({ length: 1500 }, (_, i) => `a=${i}`).join('&')}&b=1` })
      const query = JSON.parse(res.body)
      expect(query.a).to.have.length(1500)
      expect(query.b).to.equal('1')
    })

    it('bad percent-escapes in the query are kept as text, not a 5xx', async () => {
      const app = server()
      app.get('/q', async (request) => request.query)
      const res = await app.inject({ url: '/q?a=%zz&b=%E0%A4%A&%=1' })
      expect(res.statusCode).to.equal(200)
      expect(JSON.parse(res.body)).to.include({ a: '%zz' })
    })
  })

  describe('a path that cannot be decoded: 400 with well-formed JSON, whatever the URL holds', () => {
    for (const path of ['/u/%E0%A4%A', '/u/%zz"}{"x":"', '/u/%"\\"}\\\\', '/%c0%af"\\u0000']) {
      it(`${path}`, async () => {
        const { address } = await listening((root) => { root.get('/u/:id', async () => ({})) })
        const client = await rawClient(address)
        client.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
        const res = await client.next()
        expect(res.status).to.equal(400)
        const body = expectErrorShape(res.body, 400)
        expect(body.code).to.equal('ENC_ERR_BAD_URL')
        // The URL is in the message, escaped: the JSON has exactly the four keys and no more.
        expect(body.message).to.contain(path)
      })
    }

    it('a 404 message carrying quotes and backslashes is escaped too', async () => {
      const { address } = await listening(() => undefined)
      const client = await rawClient(address)
      client.write('GET /x?a="},"statusCode":200,"x":"\\ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      const res = await client.next()
      expect(res.status).to.equal(404)
      expect(expectErrorShape(res.body, 404).message).to.equal('Route GET:/x?a="},"statusCode":200,"x":"\\ not found')
    })
  })

  describe('route parameters: longer than maxParamLength (default 100) -> 414', () => {
    it('100 characters pass, 101 are 414 ENC_ERR_PARAM_TOO_LONG', async () => {
      const app = server()
      app.get('/u/:id', async (request) => ({ id: request.params.id }))
      expect((await app.inject({ url: `/u/${'a'.repeat(100)}` })).statusCode).to.equal(200)
      const res = await app.inject({ url: `/u/${'a'.repeat(101)}` })
      expect(res.statusCode).to.equal(414)
      expect(expectErrorShape(res.body, 414).code).to.equal('ENC_ERR_PARAM_TOO_LONG')
    })

    it('counts decoded characters, and any of several parameters', async () => {
      const app = server({ maxParamLength: 3 })
      app.get('/u/:a/:b', async () => ({}))
      expect((await app.inject({ url: '/u/%41%42%43/x' })).statusCode).to.equal(200)
      expect((await app.inject({ url: '/u/x/abcd' })).statusCode).to.equal(414)
    })

    it("a wildcard's rest of the path is not a parameter: not limited", async () => {
      const app = server({ maxParamLength: 5 })
      app.get('/files/*', async (request) => ({ rest: request.params['*'] }))
      const res = await app.inject({ url: `/files/${'d/'.repeat(40)}f` })
      expect(res.statusCode).to.equal(200)
    })
  })

  describe('a fragment (#) in the request target, over a raw socket', () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['/raw#frag', {}],
      ['/raw#x?a=1', {}],
      ['/p/1#frag', {}],
      ['/p/1#x?a=1', {}],
      ['/raw?a=1#b=2', { a: '1#b=2' }],
      ['/nowhere#frag', {}],
    ]
    for (const [target, query] of cases) {
      it(`${target}: a fragment ends the path and never becomes query keys (query ${JSON.stringify(query)})`, async () => {
        const { address } = await listening((root) => {
          root.get('/raw', async (request) => ({ query: request.query }))
          root.get('/p/:id', async (request) => ({ query: request.query }))
          root.setNotFoundHandler(async (request, reply) => reply.code(404).send({ query: request.query }))
        })
        const client = await rawClient(address)
        client.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
        const res = await client.next()
        expect(JSON.parse(res.body), res.body).to.deep.equal({ query })
      })
    }
  })

  describe('HEAD and wrong methods, over a raw socket', () => {
    it('HEAD on a GET route: the GET status and headers, content-length included, and no body bytes', async () => {
      const { address } = await listening((root) => { root.get('/x', async () => ({ hello: 'world' })) })
      const client = await rawClient(address)
      client.write('HEAD /x HTTP/1.1\r\nHost: x\r\n\r\nGET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      // takeResponse reads content-length bytes: for HEAD there must be none, so parse the head only.
      await client.waitClosed()
      const text = client.pending
      const [head, afterHead] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)]
      expect(head).to.match(/^HTTP\/1\.1 200 /)
      expect(head.toLowerCase()).to.contain('content-length: 17')
      // The next bytes are the GET's status line: the HEAD answer carried no body.
      expect(afterHead).to.match(/^HTTP\/1\.1 200 /)
      expect(afterHead.endsWith('{"hello":"world"}')).to.equal(true)
    })

    it('a wrong method on an existing path: 405 with Allow and the JSON shape', async () => {
      const { address } = await listening((root) => {
        root.get('/x', async () => ({}))
        root.put('/x', async () => ({}))
      })
      const client = await rawClient(address)
      client.write('DELETE /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      const res = await client.next()
      expect(res.status).to.equal(405)
      expect(res.headers.allow.split(', ').sort()).to.deep.equal(['GET', 'HEAD', 'PUT'])
      expect(expectErrorShape(res.body, 405).code).to.equal('ENC_ERR_METHOD_NOT_ALLOWED')
    })

    it('a method no route uses at all on an existing path is 405 too; on an unknown path 404', async () => {
      const app = server()
      app.get('/x', async () => ({}))
      expect((await app.inject({ method: 'PATCH', url: '/x' })).statusCode).to.equal(405)
      expect((await app.inject({ method: 'PATCH', url: '/y' })).statusCode).to.equal(404)
    })
  })
})
