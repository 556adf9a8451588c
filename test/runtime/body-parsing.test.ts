import { expect } from 'chai'
import request from 'supertest'
import type { Scope } from '../../src/runtime'
import { build, rawRequest, server, thrown } from './helpers'

/** A server with POST /echo answering `{ body, type }` (`type` is the JS type of request.body). */
function echo(declare: (root: Scope) => void = () => undefined, options = {}): Promise<Scope> {
  return build((root) => {
    declare(root)
    const handler = async (req: { body: unknown }) => ({ body: req.body ?? null, type: req.body === null ? 'null' : Buffer.isBuffer(req.body) ? 'buffer' : typeof req.body })
    root.route({ method: ['POST', 'PUT', 'PATCH', 'DELETE', 'GET'], url: '/echo', handler })
  }, options)
}

describe('runtime: body parsing', () => {
  describe('JSON', () => {
    const accepted = ['application/json', 'Application/JSON', 'application/json; charset=utf-8', 'APPLICATION/JSON ; charset=UTF-8',
      'application/vnd.api+json', 'application/problem+json; charset=utf-8']
    for (const type of accepted) {
      it(`parses '${type}'`, async () => {
        const app = await echo()
        await request(app.server).post('/echo').set('content-type', type).send('{"a":[1,{"b":null}]}')
          .expect(200, { body: { a: [1, { b: null }] }, type: 'object' })
      })
    }

    for (const method of ['put', 'patch', 'delete'] as const) {
      it(`parses a ${method.toUpperCase()} body`, async () => {
        const app = await echo()
        await request(app.server)[method]('/echo').send({ x: 1 }).expect(200, { body: { x: 1 }, type: 'object' })
      })
    }

    const forbidden: Array<[string, string]> = [
      ['__proto__', '{"a":1,"__proto__":{"polluted":true}}'],
      ['a nested __proto__', '{"a":{"b":{"__proto__":{"polluted":true}}}}'],
      ['an escaped __proto__', '{"\\u005f_proto__":{"polluted":true}}'],
      ['constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}'],
    ]
    for (const [label, text] of forbidden) {
      it(`refuses ${label} with the exact 400 payload`, async () => {
        let handled = false
        const app = await build((root) => { root.post('/echo', async () => { handled = true; return 'x' }) })
        const res = await request(app.server).post('/echo').set('content-type', 'application/json').send(text).expect(400)
        expect(res.text).to.equal('{"statusCode":400,"code":"ENC_ERR_CTP_FORBIDDEN_PROTO","error":"Bad Request","message":"Object contains forbidden prototype property"}')
        expect(handled).to.equal(false)
        expect(({} as Record<string, unknown>).polluted).to.equal(undefined)
      })
    }

    it('accepts a key named constructor that is not an object with prototype', async () => {
      const app = await echo()
      await request(app.server).post('/echo').send({ constructor: 'x', prototype: 1 }).expect(200, { body: { constructor: 'x', prototype: 1 }, type: 'object' })
    })

    it('an empty JSON body (content-length: 0) is the exact 400 payload', async () => {
      const app = await echo()
      const res = await request(app.server).post('/echo').set('content-type', 'application/json').set('content-length', '0').expect(400)
      expect(res.text).to.equal('{"statusCode":400,"code":"ENC_ERR_CTP_EMPTY_JSON_BODY","error":"Bad Request","message":"Body cannot be empty when content-type is set to \'application/json\'"}')
    })

    it('malformed JSON is the exact 400 payload', async () => {
      const text = '{"a":1,}'
      let reason = ''
      try { JSON.parse(text) } catch (error) { reason = (error as Error).message }
      const app = await echo()
      const res = await request(app.server).post('/echo').set('content-type', 'application/json').send(text).expect(400)
      expect(res.body).to.deep.equal({ statusCode: 400, code: 'ENC_ERR_CTP_INVALID_JSON', error: 'Bad Request', message: `Body is not valid JSON: ${reason}` })
      expect(res.text).to.equal(JSON.stringify(res.body)) // key order: statusCode, code, error, message
    })

    it('a body nested deeper than maxJsonDepth is 400, not a stack overflow', async () => {
      const app = await echo(undefined, { maxJsonDepth: 5 })
      await request(app.server).post('/echo').set('content-type', 'application/json').send('[[[[[1]]]]]').expect(200)
      const res = await request(app.server).post('/echo').set('content-type', 'application/json').send('[[[[[[1]]]]]]').expect(400)
      expect(res.body.code).to.equal('ENC_ERR_CTP_JSON_TOO_DEEP')
    })
  })

  describe('other media types', () => {
    it('text/plain is a string', async () => {
      const app = await echo()
      await request(app.server).post('/echo').set('content-type', 'text/plain; charset=utf-8').send('hello, wörld')
        .expect(200, { body: 'hello, wörld', type: 'string' })
    })

    it('an unknown type is the exact 415 payload', async () => {
      let handled = false
      const app = await build((root) => { root.post('/echo', async () => { handled = true; return 'x' }) })
      const res = await request(app.server).post('/echo').set('content-type', 'application/xml').send('<a/>').expect(415)
      expect(res.text).to.equal('{"statusCode":415,"code":"ENC_ERR_CTP_INVALID_MEDIA_TYPE","error":"Unsupported Media Type","message":"Unsupported Media Type: application/xml"}')
      expect(handled).to.equal(false)
    })

    for (const type of ['application/jsonx', 'application/json-patch', 'text/json', 'application/x+jsonp', 'text/plain, application/json', 'application/json\tx']) {
      it(`'${type.replace('\t', '\\t')}' is not JSON`, async () => {
        const app = await echo()
        const res = await request(app.server).post('/echo').set('content-type', type).send('{"a":1}').expect(415)
        expect(res.body.code).to.equal('ENC_ERR_CTP_INVALID_MEDIA_TYPE')
      })
    }

    it('a body without a content type is 415', async () => {
      const app = await echo()
      const res = await request(app.server).post('/echo').set('content-length', '3').send(Buffer.from('abc')).unset('content-type').expect(415)
      expect(res.body).to.include({ statusCode: 415, code: 'ENC_ERR_CTP_INVALID_MEDIA_TYPE' })
    })

    it('a POST without any body is handled with body null (Fastify 3)', async () => {
      const app = await echo()
      await request(app.server).post('/echo').expect(200, { body: null, type: 'null' })
    })
  })

  describe('GET and HEAD', () => {
    it('a body on GET is not parsed (malformed JSON is not an error)', async () => {
      const app = await echo()
      await request(app.server).get('/echo').set('content-type', 'application/json').send('{not json').expect(200, { body: null, type: 'null' })
    })

    it('a body on HEAD is not parsed', async () => {
      let body: unknown = 'unset'
      const app = await build((root) => { root.head('/h', async (req) => { body = req.body; return '' }) })
      // Written by hand: an HTTP client sends a HEAD body without framing.
      const res = await rawRequest(await app.listen(0),
        'HEAD /h HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{not json')
      expect(res.status).to.equal(200)
      expect(body).to.equal(null)
    })
  })

  describe('custom parsers (addContentTypeParser)', () => {
    it('parseAs string (the default) gets the text', async () => {
      const app = await echo((root) => {
        root.addContentTypeParser('application/x-www-form-urlencoded', (_req, body) => Object.fromEntries(new URLSearchParams(body as string)))
      })
      await request(app.server).post('/echo').type('form').send('a=1&b=two').expect(200, { body: { a: '1', b: 'two' }, type: 'object' })
    })

    it('parseAs buffer gets the raw bytes', async () => {
      let received: unknown = null
      const app = await echo((root) => {
        root.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body) => { received = body; return body })
      })
      const bytes = Buffer.from([0, 255, 1, 254])
      await request(app.server).post('/echo').set('content-type', 'application/octet-stream').send(bytes).expect(200)
      expect(Buffer.isBuffer(received)).to.equal(true)
      expect((received as Buffer).equals(bytes)).to.equal(true)
    })

    it('an async parser resolves the body', async () => {
      const app = await echo((root) => {
        root.addContentTypeParser('text/csv', async (_req, body) => { await Promise.resolve(); return String(body).split(',') })
      })
      await request(app.server).post('/echo').set('content-type', 'text/csv').send('a,b,c').expect(200, { body: ['a', 'b', 'c'], type: 'object' })
    })

    it('a parser that throws an error with a 4xx status answers that status with its message', async () => {
      const app = await echo((root) => {
        root.addContentTypeParser('text/csv', () => { throw Object.assign(new Error('bad csv'), { statusCode: 422 }) })
      })
      const res = await request(app.server).post('/echo').set('content-type', 'text/csv').send('a').expect(422)
      expect(res.body).to.deep.equal({ statusCode: 422, error: 'Unprocessable Entity', message: 'bad csv' })
    })

    it('a parser that rejects with a plain error answers a generic 500', async () => {
      const app = await echo((root) => { root.addContentTypeParser('text/csv', async () => { throw new Error('parser secret') }) })
      const res = await request(app.server).post('/echo').set('content-type', 'text/csv').send('a').expect(500)
      expect(res.body).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    })

    it('a parser error goes through the scope error handler', async () => {
      const app = await echo((root) => {
        root.addContentTypeParser('text/csv', () => { throw new Error('bad csv') })
        root.setErrorHandler(async (error, _req, reply) => { reply.code(400).send({ parserSaid: error.message }) })
      })
      await request(app.server).post('/echo').set('content-type', 'text/csv').send('a').expect(400, { parserSaid: 'bad csv' })
    })

    it('a scope may replace the JSON parser for its subtree, +json types included', async () => {
      const app = await build((root) => {
        root.post('/outside', async (req) => ({ body: req.body }))
        root.register(async (s) => {
          s.addContentTypeParser('application/json', (_req, body) => ({ custom: String(body).length }))
          s.post('/inside', async (req) => ({ body: req.body }))
        })
      })
      await request(app.server).post('/inside').send({ a: 1 }).expect(200, { body: { custom: 7 } })
      await request(app.server).post('/inside').set('content-type', 'application/ld+json').send('{"a":1}').expect(200, { body: { custom: 7 } })
      await request(app.server).post('/outside').send({ a: 1 }).expect(200, { body: { a: 1 } })
    })

    it("a catch-all '*' parser takes any type without its own parser", async () => {
      const app = await echo((root) => { root.addContentTypeParser('*', (req, body) => `${String(req.headers['content-type'])}:${String(body)}`) })
      await request(app.server).post('/echo').set('content-type', 'image/x-thing').send('raw').expect(200, { body: 'image/x-thing:raw', type: 'string' })
      await request(app.server).post('/echo').send({ a: 1 }).expect(200, { body: { a: 1 }, type: 'object' })
    })

    // Issue 12 (deliberate change): as in Fastify, '*' receives any content type, also one that
    // is no type/subtype; such a type still never reaches the JSON parser or another typed one.
    it("a catch-all '*' parser also takes a body sent without a content type, or with one that is no media type", async () => {
      const app = await echo((root) => { root.addContentTypeParser('*', (_req, body) => `any:${String(body)}`) })
      await request(app.server).post('/echo').send(Buffer.from('raw')).unset('content-type').expect(200, { body: 'any:raw', type: 'string' })
      await request(app.server).post('/echo').set('content-type', 'text/plain; application/json x').send('raw').expect(200)
      await request(app.server).post('/echo').set('content-type', 'not a type').send('raw').expect(200, { body: 'any:raw', type: 'string' })
      const without = await echo()
      await request(without.server).post('/echo').set('content-type', 'not a type').send('raw').expect(415)
    })

    it('a parser for a visible type throws ENC_ERR_CTP_ALREADY_PRESENT; a bad type ENC_ERR_CTP_INVALID', () => {
      const app = server()
      app.addContentTypeParser('text/csv', (_r, b) => b)
      expect(thrown(() => app.addContentTypeParser('TEXT/CSV', (_r, b) => b)).code).to.equal('ENC_ERR_CTP_ALREADY_PRESENT')
      expect(thrown(() => app.addContentTypeParser('not a type', (_r, b) => b)).code).to.equal('ENC_ERR_CTP_INVALID')
      expect(thrown(() => app.addContentTypeParser('text/x', 'nope' as never)).code).to.equal('ENC_ERR_CTP_INVALID')
    })

    it('hasContentTypeParser sees the built-in and the visible parsers', () => {
      const app = server()
      expect(app.hasContentTypeParser('application/json')).to.equal(true)
      expect(app.hasContentTypeParser('text/plain')).to.equal(true)
      expect(app.hasContentTypeParser('text/csv')).to.equal(false)
      app.addContentTypeParser('text/csv', (_r, b) => b)
      expect(app.hasContentTypeParser('text/csv; charset=utf-8')).to.equal(true)
    })
  })
})
