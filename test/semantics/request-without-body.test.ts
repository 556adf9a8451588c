// Issue 12 §1 and Fastify 3.27.4 (lib/handleRequest.js, lib/request.js): which requests have their body
// parsed, what `request.body` is when none is (null), and that a body schema applies to every method.
import { expect } from 'chai'
import request from 'supertest'
import type { Request, Scope } from '../../src'
import { build, rawRequest } from '../runtime/helpers'

const methods = ['PUT', 'PATCH', 'OPTIONS', 'DELETE'] as const

/** One route per method on /echo answering `request.body` itself, as Fastify's own method tests do. */
function echoAll(declare: (root: Scope) => void = () => undefined): Promise<Scope> {
  return build((root) => {
    declare(root)
    root.route({ method: ['POST', ...methods], url: '/echo', handler: async (req: Request, reply) => { reply.send(req.body); return reply } })
  })
}

describe('semantics: a request without a body (Fastify 3, issue 12 §1)', () => {
  for (const method of methods) {
    it(`${method} without any body: request.body is null and the reply is JSON \`null\``, async () => {
      const app = await echoAll()
      const injected = await app.inject({ method, url: '/echo' })
      expect(injected.statusCode).to.equal(200)
      expect(injected.body).to.equal('null')
      expect(injected.headers['content-type']).to.equal('application/json; charset=utf-8')
      const res = await rawRequest(await app.listen(0), `${method} /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`)
      expect(res.status).to.equal(200)
      expect(res.body).to.equal('null')
    })
  }

  it('DELETE with application/json and no framing at all is not parsed: body null, not a 400', async () => {
    const app = await echoAll()
    const res = await app.inject({ method: 'DELETE', url: '/echo', headers: { 'content-type': 'application/json' } })
    expect(res.statusCode).to.equal(200)
    expect(res.body).to.equal('null')
  })

  it('OPTIONS and DELETE bodies without a content type are not parsed (200, body null); POST, PUT and PATCH ones are 415', async () => {
    const app = await echoAll()
    for (const method of ['options', 'delete'] as const) {
      await request(app.server)[method]('/echo').set('content-length', '5').send(Buffer.from('hello')).unset('content-type').expect(200, 'null')
    }
    for (const method of ['post', 'put', 'patch'] as const) {
      const res = await request(app.server)[method]('/echo').set('content-length', '5').send(Buffer.from('hello')).unset('content-type')
      expect(res.status).to.equal(415)
    }
  })

  it('OPTIONS and DELETE bodies that name their content type are parsed', async () => {
    const app = await echoAll()
    await request(app.server).options('/echo').send({ a: 1 }).expect(200, { a: 1 })
    await request(app.server).delete('/echo').send({ a: 1 }).expect(200, { a: 1 })
  })

  it('a POST framed as empty without a content type reaches no parser, not even the catch-all one', async () => {
    let parsed = 0
    const app = await echoAll((root) => root.addContentTypeParser('*', (_req, body) => { parsed++; return String(body) }))
    const res = await rawRequest(await app.listen(0), 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
    expect(res.status).to.equal(200)
    expect(res.body).to.equal('null')
    expect(parsed).to.equal(0)
  })
})

describe('semantics: a body schema applies to every method (issue 12 §1)', () => {
  const body = { type: 'object', required: ['hello'], properties: { hello: { type: 'integer' } } } as const

  it('an OPTIONS body is validated (and coerced) against the body schema', async () => {
    const app = await build((root) => { root.options('/', { schema: { body } }, async (req: Request) => req.body) })
    const res = await app.inject({ method: 'OPTIONS', url: '/', payload: { hello: 'world' } })
    expect(res.statusCode).to.equal(400)
    expect(res.json()).to.deep.equal({ statusCode: 400, error: 'Bad Request', message: 'body/hello should be integer' })
    await request(app.server).options('/').send({ hello: '42' }).expect(200, { hello: 42 })
  })

  it('a DELETE body is validated against the body schema', async () => {
    const app = await build((root) => { root.delete('/', { schema: { body } }, async (req: Request) => req.body) })
    await request(app.server).delete('/').send({ hello: 'x' }).expect(400)
    await request(app.server).delete('/').send({ hello: 1 }).expect(200, { hello: 1 })
  })

  it('a GET route\'s body schema sees null (a GET body is never parsed): a 400 whose validationContext is body', async () => {
    let context: unknown
    let handled = 0
    const app = await build((root) => {
      root.setErrorHandler(async (error, _req, reply) => { context = error.validationContext; reply.code(400).send({ context }) })
      root.get('/', { schema: { body } }, async () => { handled++; return {} })
    })
    const res = await app.inject({ method: 'GET', url: '/', payload: { hello: 1 } })
    expect(res.statusCode).to.equal(400)
    expect(context).to.equal('body')
    expect(handled).to.equal(0)
  })

  it('a route without any body passes a body schema that allows null: type [object, null], or nullable', async () => {
    const seen: unknown[] = []
    const app = await build((root) => {
      root.post('/either', { schema: { body: { type: ['object', 'null'], properties: { a: { type: 'string' } } } } }, async (req: Request) => { seen.push(req.body); return { body: req.body } })
      root.post('/nullable', { schema: { body: { type: 'object', nullable: true, properties: { a: { type: 'string' } } } } }, async (req: Request) => { seen.push(req.body); return { body: req.body } })
    })
    await request(app.server).post('/either').expect(200, { body: null })
    await request(app.server).post('/nullable').expect(200, { body: null })
    await request(app.server).post('/either').send({ a: 'x' }).expect(200, { body: { a: 'x' } })
    // A JSON `null` body is parsed to null and passes too.
    await request(app.server).post('/nullable').set('content-type', 'application/json').send('null').expect(200, { body: null })
    expect(seen).to.deep.equal([null, null, { a: 'x' }, null])
  })

  it('a POST without a body against an object schema is a 400 (null is no object)', async () => {
    const app = await build((root) => { root.post('/', { schema: { body } }, async () => ({})) })
    await request(app.server).post('/').expect(400, { statusCode: 400, error: 'Bad Request', message: 'body should be object' })
  })
})
