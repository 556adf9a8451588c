// Spec §2.2 "Shared schema" and §2.3 "Reference resolution": the six reference forms, each in the
// validator and in the serializer, over HTTP. The shared schema is added at the root and the
// routes live in a child context (an ancestor's schema); one more test repeats the shared forms
// with the schema in the route's own context.
import { expect } from 'chai'
import type { Request, Scope } from '../../src'
import { badRequest, bootError, build, http, server, thrown } from './helpers'

const owner = { type: 'object', properties: { id: { type: 'integer' } } }

/** One shared schema that every shared reference form points into. */
const shared = {
  $id: 'shared',
  type: 'object',
  definitions: {
    qty: { type: 'integer', minimum: 1 },
    owner,
    sku: { $id: '#sku', type: 'string', maxLength: 3 },
    ownerAnchor: { $id: '#owner', type: 'object', properties: { id: { type: 'integer' } } },
  },
  properties: {
    name: { type: 'string', maxLength: 5 },
    owner,
  },
}

/** A server whose child context declares `declare`'s routes; `shared` is added at the root. */
function inChild(declare: (child: Scope) => void): Promise<Scope> {
  return build((root) => {
    root.addSchema(shared)
    root.register(async (child: Scope) => declare(child))
  })
}

/** A GET /s route whose 200 response schema is `schema`; the handler answers `payload`. */
function serializerRoute(schema: Record<string, unknown>, payload: unknown): Promise<Scope> {
  return inChild((child) => {
    child.get('/s', { schema: { response: { 200: schema } } }, async () => payload)
  })
}

/** A POST /v route validating the body with `body`. */
function validatorRoute(body: Record<string, unknown>): Promise<Scope> {
  return inChild((child) => {
    child.post('/v', { schema: { body } }, async (req: Request) => ({ body: req.body }))
  })
}

const ownerPayload = { owner: { id: '7', secret: 'x' }, leaked: true }

describe('conformance §2.2: shared schema', () => {
  it('§2.2-id-required: a shared schema needs an $id to be added (and referenced)', () => {
    const app = server()
    const error = thrown(() => app.addSchema({ type: 'object' } as never))
    expect(error.code).to.equal('ENC_ERR_SCH_MISSING_ID')
    expect(error.message).to.contain('$id')
  })

  it('§2.2-id-url: the $id may be a URL-like identifier', async () => {
    const app = await build((root) => {
      root.addSchema({ $id: 'http://example.com/schemas/point', type: 'object', required: ['x'], properties: { x: { type: 'integer' } } })
      root.post('/p', {
        schema: {
          body: { $ref: 'http://example.com/schemas/point#' },
          response: { 200: { type: 'object', properties: { x: { $ref: 'http://example.com/schemas/point#/properties/x' } } } },
        },
      }, async (req: Request) => ({ x: String((req.body as { x: number }).x), y: 1 }))
    })
    expect((await http(app).post('/p').send({ x: 4 }).expect(200)).text).to.equal('{"x":4}')
    await http(app).post('/p').send({}).expect(400, badRequest("body should have required property 'x'"))
  })

  it('§2.2-id-plain: the $id may be a plain name', async () => {
    const app = await build((root) => {
      root.addSchema({ $id: 'point', type: 'object', required: ['x'], properties: { x: { type: 'integer' } } })
      root.post('/p', { schema: { body: { $ref: 'point#' }, response: { 200: { $ref: 'point#' } } } },
        async (req: Request) => ({ ...(req.body as object), y: 1 }))
    })
    expect((await http(app).post('/p').send({ x: 4 }).expect(200)).text).to.equal('{"x":4}')
    await http(app).post('/p').send({}).expect(400, badRequest("body should have required property 'x'"))
  })

  it('§2.2-schema-body: the keys other than $id are the body of the schema', async () => {
    const app = await build((root) => {
      root.addSchema({ $id: 'limits', type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 2, maximum: 4 } } })
      root.post('/n', { schema: { body: { $ref: 'limits#' } } }, async (req: Request) => req.body)
    })
    await http(app).post('/n').send({ n: 3 }).expect(200, { n: 3 })
    await http(app).post('/n').send({ n: 5 }).expect(400, badRequest('body/n should be <= 4'))
    await http(app).post('/n').send({ n: 1 }).expect(400, badRequest('body/n should be >= 2'))
  })

  it('§2.2-scoped: a shared schema is visible only in its context and descendants (not in a sibling)', async () => {
    const app = server()
    app.register(async (a: Scope) => { a.addSchema({ $id: 'onlyA', type: 'object' }) })
    app.register(async (b: Scope) => { b.post('/b', { schema: { body: { $ref: 'onlyA#' } } }, async () => ({})) })
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('onlyA')
  })
})

describe('conformance §2.3: reference resolution in the validator', () => {
  it('§2.3-#name-validator: #<name> resolves to the subschema with that $id in the current schema', async () => {
    const app = await validatorRoute({
      type: 'object',
      definitions: { positive: { $id: '#positive', type: 'integer', minimum: 1 } },
      properties: { n: { $ref: '#positive' } },
    })
    await http(app).post('/v').send({ n: 2 }).expect(200, { body: { n: 2 } })
    await http(app).post('/v').send({ n: 0 }).expect(400, badRequest('body/n should be >= 1'))
  })

  it('§2.3-#/definitions-validator: #/definitions/<name> resolves to that field of the current schema', async () => {
    const app = await validatorRoute({
      type: 'object',
      definitions: { positive: { type: 'integer', minimum: 1 } },
      properties: { n: { $ref: '#/definitions/positive' } },
    })
    await http(app).post('/v').send({ n: 2 }).expect(200, { body: { n: 2 } })
    await http(app).post('/v').send({ n: 0 }).expect(400, badRequest('body/n should be >= 1'))
  })

  it('§2.3-id#-validator: <schema_id># resolves to the whole shared schema', async () => {
    const app = await validatorRoute({ $ref: 'shared#' })
    await http(app).post('/v').send({ name: 'ada' }).expect(200, { body: { name: 'ada' } })
    await http(app).post('/v').send({ name: 'too long' }).expect(400, badRequest('body/name should NOT be longer than 5 characters'))
  })

  it('§2.3-id#/definitions-validator: <schema_id>#/definitions/<name> resolves inside the shared schema', async () => {
    const app = await validatorRoute({ type: 'object', properties: { qty: { $ref: 'shared#/definitions/qty' } } })
    await http(app).post('/v').send({ qty: 3 }).expect(200, { body: { qty: 3 } })
    await http(app).post('/v').send({ qty: 0 }).expect(400, badRequest('body/qty should be >= 1'))
  })

  it('§2.3-id#name-validator: <schema_id>#<name> resolves to the subschema with $id #<name> in the shared schema', async () => {
    const app = await validatorRoute({ type: 'object', properties: { sku: { $ref: 'shared#sku' } } })
    await http(app).post('/v').send({ sku: 'ABC' }).expect(200, { body: { sku: 'ABC' } })
    await http(app).post('/v').send({ sku: 'ABCD' }).expect(400, badRequest('body/sku should NOT be longer than 3 characters'))
  })

  it('§2.3-id#/properties-validator: <schema_id>#/properties/<name> resolves to that property of the shared schema', async () => {
    const app = await validatorRoute({ type: 'object', properties: { nick: { $ref: 'shared#/properties/name' } } })
    await http(app).post('/v').send({ nick: 'ada' }).expect(200, { body: { nick: 'ada' } })
    await http(app).post('/v').send({ nick: 'too long' }).expect(400, badRequest('body/nick should NOT be longer than 5 characters'))
  })
})

describe('conformance §2.3: reference resolution in the serializer', () => {
  // Each target is an object schema with an integer `id`: the output shows both the filtering
  // (only `id`) and the type (the string '7' becomes 7), so only a resolved reference passes.
  it('§2.3-#name-serializer: #<name> resolves in the serializer', async () => {
    const app = await serializerRoute({
      type: 'object',
      definitions: { ownerAnchor: { $id: '#localOwner', type: 'object', properties: { id: { type: 'integer' } } } },
      properties: { owner: { $ref: '#localOwner' } },
    }, ownerPayload)
    expect((await http(app).get('/s').expect(200)).text).to.equal('{"owner":{"id":7}}')
  })

  it('§2.3-#/definitions-serializer: #/definitions/<name> resolves in the serializer', async () => {
    const app = await serializerRoute({
      type: 'object',
      definitions: { owner },
      properties: { owner: { $ref: '#/definitions/owner' } },
    }, ownerPayload)
    expect((await http(app).get('/s').expect(200)).text).to.equal('{"owner":{"id":7}}')
  })

  it('§2.3-id#-serializer: <schema_id># resolves in the serializer', async () => {
    const app = await serializerRoute({ $ref: 'shared#' }, { name: 'ada', ...ownerPayload })
    expect((await http(app).get('/s').expect(200)).text).to.equal('{"name":"ada","owner":{"id":7}}')
  })

  it('§2.3-id#/definitions-serializer: <schema_id>#/definitions/<name> resolves in the serializer', async () => {
    const app = await serializerRoute({ type: 'object', properties: { owner: { $ref: 'shared#/definitions/owner' } } }, ownerPayload)
    expect((await http(app).get('/s').expect(200)).text).to.equal('{"owner":{"id":7}}')
  })

  it('§2.3-id#name-serializer: <schema_id>#<name> resolves in the serializer', async () => {
    const app = await serializerRoute({ type: 'object', properties: { owner: { $ref: 'shared#owner' } } }, ownerPayload)
    expect((await http(app).get('/s').expect(200)).text).to.equal('{"owner":{"id":7}}')
  })

  it('§2.3-id#/properties-serializer: <schema_id>#/properties/<name> resolves in the serializer', async () => {
    const app = await serializerRoute({ type: 'object', properties: { owner: { $ref: 'shared#/properties/owner' } } }, ownerPayload)
    expect((await http(app).get('/s').expect(200)).text).to.equal('{"owner":{"id":7}}')
  })

  it('§2.3-matrix-own-context: the shared forms also resolve when the schema is added in the route context itself', async () => {
    const app = await build((root) => {
      root.register(async (child: Scope) => {
        child.addSchema(shared)
        child.post('/v', {
          schema: {
            body: {
              type: 'object',
              properties: {
                whole: { $ref: 'shared#' }, qty: { $ref: 'shared#/definitions/qty' }, sku: { $ref: 'shared#sku' }, nick: { $ref: 'shared#/properties/name' },
              },
            },
            response: {
              200: {
                type: 'object',
                properties: {
                  whole: { $ref: 'shared#' }, a: { $ref: 'shared#/definitions/owner' }, b: { $ref: 'shared#owner' }, c: { $ref: 'shared#/properties/owner' },
                },
              },
            },
          },
        }, async () => ({ whole: { name: 'n', x: 1 }, a: { id: '1', x: 1 }, b: { id: '2', x: 1 }, c: { id: '3', x: 1 } }))
      })
    })
    const res = await http(app).post('/v').send({ whole: { name: 'ok' }, qty: 1, sku: 'AB', nick: 'n' }).expect(200)
    expect(res.text).to.equal('{"whole":{"name":"n"},"a":{"id":1},"b":{"id":2},"c":{"id":3}}')
    await http(app).post('/v').send({ whole: { name: 'too long' } }).expect(400, badRequest('body/whole/name should NOT be longer than 5 characters'))
    await http(app).post('/v').send({ qty: 0 }).expect(400, badRequest('body/qty should be >= 1'))
    await http(app).post('/v').send({ sku: 'ABCD' }).expect(400, badRequest('body/sku should NOT be longer than 3 characters'))
    await http(app).post('/v').send({ nick: 'too long' }).expect(400, badRequest('body/nick should NOT be longer than 5 characters'))
  })
})
