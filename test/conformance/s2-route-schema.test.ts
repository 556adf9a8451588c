// Spec §2.1 "Route schema": each key of the table, the shorthand, `$ref` parts, the JSON-only and
// POST/PUT/PATCH-only body rules, lower-case header names and the response keys.
import { expect } from 'chai'
import type { Request } from '../../src'
import { badRequest, build, http } from './helpers'

const nameBody = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 10 } } }

describe('conformance §2.1: route schema', () => {
  it('§2.1-body: the body schema validates the request body', async () => {
    const app = await build((root) => {
      root.post('/users', { schema: { body: nameBody } }, async (req: Request) => req.body)
    })
    await http(app).post('/users').send({ name: 'ada' }).expect(200, { name: 'ada' })
    await http(app).post('/users').send({ name: 'a very long name' }).expect(400, badRequest('body/name should NOT be longer than 10 characters'))
  })

  it('§2.1-querystring: the querystring schema validates the query string', async () => {
    const app = await build((root) => {
      root.get('/search', { schema: { querystring: { type: 'object', required: ['q'], properties: { q: { type: 'string' } } } } },
        async (req: Request) => req.query)
    })
    await http(app).get('/search?q=kettle').expect(200, { q: 'kettle' })
    await http(app).get('/search').expect(400, badRequest("querystring should have required property 'q'"))
  })

  it('§2.1-query-alias: query is an alias of querystring', async () => {
    const app = await build((root) => {
      root.get('/search', { schema: { query: { type: 'object', required: ['q'], properties: { q: { type: 'string' } } } } },
        async (req: Request) => req.query)
    })
    await http(app).get('/search?q=kettle').expect(200, { q: 'kettle' })
    await http(app).get('/search').expect(400, badRequest("querystring should have required property 'q'"))
  })

  it('§2.1-params: the params schema validates the route parameters', async () => {
    const app = await build((root) => {
      root.get('/items/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } } } },
        async (req: Request) => req.params)
    })
    await http(app).get('/items/3').expect(200, { id: 3 })
    await http(app).get('/items/abc').expect(400, badRequest('params/id should be integer'))
  })

  it('§2.1-headers: the headers schema validates the request headers', async () => {
    const app = await build((root) => {
      root.get('/h', { schema: { headers: { type: 'object', required: ['x-api-version'], properties: { 'x-api-version': { type: 'integer' } } } } },
        async (req: Request) => ({ version: req.headers['x-api-version'] }))
    })
    await http(app).get('/h').set('x-api-version', '2').expect(200, { version: 2 })
    await http(app).get('/h').expect(400, badRequest("headers should have required property 'x-api-version'"))
    await http(app).get('/h').set('x-api-version', 'two').expect(400, badRequest('headers/x-api-version should be integer'))
  })

  it('§2.1-response: the response part is a map from status key to serialization schema', async () => {
    const app = await build((root) => {
      root.get('/r/:code', {
        schema: {
          response: {
            200: { type: 'object', properties: { ok: { type: 'boolean' } } },
            404: { type: 'object', properties: { missing: { type: 'string' } } },
          },
        },
      }, async (req: Request, reply) => {
        reply.code(Number(req.params.code))
        return { ok: true, missing: 'thing', extra: 1 }
      })
    })
    expect((await http(app).get('/r/200').expect(200)).text).to.equal('{"ok":true}')
    expect((await http(app).get('/r/404').expect(404)).text).to.equal('{"missing":"thing"}')
  })

  it('§2.1-shorthand: every part may list its properties at the top level, without type and properties', async () => {
    const app = await build((root) => {
      root.post('/s/:id', {
        schema: {
          body: { name: { type: 'string' }, age: { type: 'integer' } },
          querystring: { page: { type: 'integer' } },
          params: { id: { type: 'integer' } },
          headers: { 'x-n': { type: 'integer' } },
        },
      }, async (req: Request) => ({ body: req.body, page: req.query.page, id: req.params.id, n: req.headers['x-n'] }))
    })
    await http(app).post('/s/4?page=2').set('x-n', '9').send({ name: 'ada', age: '36' })
      .expect(200, { body: { name: 'ada', age: 36 }, page: 2, id: 4, n: 9 })
    await http(app).post('/s/4').send({ age: 'old' }).expect(400, badRequest('body/age should be integer'))
    await http(app).post('/s/4?page=x').send({}).expect(400, badRequest('querystring/page should be integer'))
    await http(app).post('/s/four').send({}).expect(400, badRequest('params/id should be integer'))
    await http(app).post('/s/4').set('x-n', 'nine').send({}).expect(400, badRequest('headers/x-n should be integer'))
  })

  it('§2.1-full-schema: every part may be a complete JSON Schema object (type object with properties)', async () => {
    const app = await build((root) => {
      root.put('/f/:id', {
        schema: {
          body: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          querystring: { type: 'object', properties: { page: { type: 'integer' } }, required: ['page'] },
          params: { type: 'object', properties: { id: { type: 'integer' } } },
          headers: { type: 'object', properties: { 'x-n': { type: 'integer' } }, required: ['x-n'] },
        },
      }, async (req: Request) => ({ id: req.params.id, page: req.query.page }))
    })
    await http(app).put('/f/1?page=2').set('x-n', '3').send({ name: 'a' }).expect(200, { id: 1, page: 2 })
    await http(app).put('/f/1?page=2').set('x-n', '3').send({}).expect(400, badRequest("body should have required property 'name'"))
    await http(app).put('/f/1').set('x-n', '3').send({ name: 'a' }).expect(400, badRequest("querystring should have required property 'page'"))
    await http(app).put('/f/1?page=2').send({ name: 'a' }).expect(400, badRequest("headers should have required property 'x-n'"))
  })

  it('§2.1-ref-part: every part may be a $ref, for example a root reference to a shared schema', async () => {
    const app = await build((root) => {
      root.addSchema({ $id: 'named', type: 'object', required: ['name'], properties: { name: { type: 'string' } } })
      root.addSchema({ $id: 'paging', type: 'object', required: ['page'], properties: { page: { type: 'integer' } } })
      root.addSchema({ $id: 'byId', type: 'object', properties: { id: { type: 'integer', minimum: 1 } } })
      root.addSchema({ $id: 'tenant', type: 'object', required: ['x-tenant'], properties: { 'x-tenant': { type: 'string' } } })
      root.post('/r/:id', {
        schema: { body: { $ref: 'named#' }, querystring: { $ref: 'paging#' }, params: { $ref: 'byId#' }, headers: { $ref: 'tenant#' } },
      }, async (req: Request) => ({ id: req.params.id, page: req.query.page, body: req.body }))
    })
    const ok = () => http(app).post('/r/5?page=1').set('x-tenant', 't')
    await ok().send({ name: 'a' }).expect(200, { id: 5, page: 1, body: { name: 'a' } })
    await ok().send({}).expect(400, badRequest("body should have required property 'name'"))
    await http(app).post('/r/5').set('x-tenant', 't').send({ name: 'a' }).expect(400, badRequest("querystring should have required property 'page'"))
    await http(app).post('/r/0?page=1').set('x-tenant', 't').send({ name: 'a' }).expect(400, badRequest('params/id should be >= 1'))
    await http(app).post('/r/5?page=1').send({ name: 'a' }).expect(400, badRequest("headers should have required property 'x-tenant'"))
  })

  // Deliberate deviation (issue 12 §1, README "Where Enclave deliberately differs from Fastify 3.27.4"): spec §1.6 (schemas are the security
  // boundary) wins over the letter of §2.1, so every parsed body is validated, as Fastify 3 and 5 do.
  it('§2.1-body-json-only: a body that is not JSON (text/plain) is validated against the body schema too (deliberate deviation, §1.6)', async () => {
    const app = await build((root) => {
      root.post('/users', { schema: { body: nameBody } }, async (req: Request) => ({ received: req.body }))
    })
    await http(app).post('/users').set('content-type', 'text/plain').send('not json at all').expect(400, badRequest('body should be object'))
    await http(app).post('/users').set('content-type', 'application/json').send('{}').expect(400)
    // A +json media type is JSON too.
    await http(app).post('/users').set('content-type', 'application/vnd.api+json').send('{}').expect(400)
  })

  it('§2.1-body-absent: a POST without any body is validated (as null), so a body schema cannot be skipped', async () => {
    let handled = 0
    const app = await build((root) => {
      root.post('/users', { schema: { body: nameBody } }, async () => { handled++; return {} })
    })
    await http(app).post('/users').expect(400, badRequest('body should be object'))
    expect(handled).to.equal(0)
  })

  // Deliberate deviation (issue 12 §1, README "Where Enclave deliberately differs from Fastify 3.27.4"), as Fastify 3.27.4 does: the body schema
  // applies whatever the method, not only to POST, PUT and PATCH, so no method bypasses it.
  it('§2.1-body-methods: the body schema applies to every method (deliberate deviation, §1.6): DELETE and OPTIONS bodies too', async () => {
    const app = await build((root) => {
      root.route({ method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '/m', schema: { body: nameBody }, handler: async () => ({ handled: true }) })
    })
    await http(app).post('/m').send({}).expect(400)
    await http(app).put('/m').send({}).expect(400)
    await http(app).patch('/m').send({}).expect(400)
    await http(app).delete('/m').send({}).expect(400)
    await http(app).options('/m').send({}).expect(400)
    await http(app).delete('/m').send({ name: 'ann' }).expect(200, { handled: true })
    await http(app).options('/m').send({ name: 'ann' }).expect(200, { handled: true })
  })

  it('§2.1-headers-lowercase: header names in a headers schema are written, and matched, in lower case', async () => {
    const app = await build((root) => {
      root.get('/lower', { schema: { headers: { type: 'object', required: ['x-token'], properties: { 'x-token': { type: 'string', minLength: 3 } } } } },
        async (req: Request) => ({ token: req.headers['x-token'] }))
    })
    // The client's capitalisation does not matter: Node lower-cases the names it receives.
    await http(app).get('/lower').set('X-Token', 'abcd').expect(200, { token: 'abcd' })
    await http(app).get('/lower').set('X-TOKEN', 'ab').expect(400, badRequest('headers/x-token should NOT be shorter than 3 characters'))
  })

  it('§2.1-response-exact: a response schema key may be an exact status code (200, 201)', async () => {
    const app = await build((root) => {
      root.post('/c', {
        schema: { response: { 201: { type: 'object', properties: { id: { type: 'integer' } } } } },
      }, async (_req: Request, reply) => reply.code(201).send({ id: '12', internal: true }))
    })
    expect((await http(app).post('/c').send({}).expect(201)).text).to.equal('{"id":12}')
  })

  it('§2.1-response-range: a response schema key may be the range key 2xx', async () => {
    const app = await build((root) => {
      root.get('/r/:code', {
        schema: { response: { '2xx': { type: 'object', properties: { id: { type: 'integer' } } } } },
      }, async (req: Request, reply) => reply.code(Number(req.params.code)).send({ id: 1, internal: true }))
    })
    expect((await http(app).get('/r/200').expect(200)).text).to.equal('{"id":1}')
    expect((await http(app).get('/r/203').expect(203)).text).to.equal('{"id":1}')
  })

  it('§2.1-response-shorthand: a response schema may list its properties at the top level', async () => {
    const app = await build((root) => {
      root.get('/me', { schema: { response: { 200: { name: { type: 'string' }, age: { type: 'integer' } } } } },
        async () => ({ name: 'ada', age: '36', password: 'p' }))
    })
    expect((await http(app).get('/me').expect(200)).text).to.equal('{"name":"ada","age":36}')
  })
})
