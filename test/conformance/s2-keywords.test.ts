// Spec §2.1, "Keywords used in the examples": each JSON Schema keyword is honoured by the request
// validator, shown by one request that passes and one that fails (or, for default, is filled in).
import { expect } from 'chai'
import type { Request, Scope } from '../../src'
import { badRequest, build, http } from './helpers'

/** A server with one POST /k route validating the body with `body`, echoing the body it got. */
function bodyRoute(body: Record<string, unknown>): Promise<Scope> {
  return build((root) => {
    root.post('/k', { schema: { body } }, async (req: Request) => ({ body: req.body }))
  })
}

describe('conformance §2.1: JSON Schema keywords of the examples', () => {
  it('§2.1-kw-type: type', async () => {
    const app = await bodyRoute({ type: 'object', properties: { n: { type: 'integer' } } })
    await http(app).post('/k').send({ n: 3 }).expect(200, { body: { n: 3 } })
    await http(app).post('/k').send({ n: 'three' }).expect(400, badRequest('body/n should be integer'))
    await http(app).post('/k').send([1]).expect(400, badRequest('body should be object'))
  })

  it('§2.1-kw-required: required', async () => {
    const app = await bodyRoute({ type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' }, b: { type: 'string' } } })
    await http(app).post('/k').send({ a: 'x', b: 'y' }).expect(200)
    await http(app).post('/k').send({ a: 'x' }).expect(400, badRequest("body should have required property 'b'"))
  })

  it('§2.1-kw-properties: properties', async () => {
    const app = await bodyRoute({ type: 'object', properties: { user: { type: 'object', properties: { age: { type: 'integer' } } } } })
    await http(app).post('/k').send({ user: { age: 3 } }).expect(200, { body: { user: { age: 3 } } })
    await http(app).post('/k').send({ user: { age: 'x' } }).expect(400, badRequest('body/user/age should be integer'))
  })

  it('§2.1-kw-items: items', async () => {
    const app = await bodyRoute({ type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } })
    await http(app).post('/k').send({ ids: [1, 2] }).expect(200, { body: { ids: [1, 2] } })
    await http(app).post('/k').send({ ids: [1, 'two'] }).expect(400, badRequest('body/ids/1 should be integer'))
  })

  it('§2.1-kw-maxItems: maxItems', async () => {
    const app = await bodyRoute({ type: 'object', properties: { tags: { type: 'array', maxItems: 2, items: { type: 'string' } } } })
    await http(app).post('/k').send({ tags: ['a', 'b'] }).expect(200)
    await http(app).post('/k').send({ tags: ['a', 'b', 'c'] }).expect(400, badRequest('body/tags should NOT have more than 2 items'))
  })

  it('§2.1-kw-maxLength: maxLength', async () => {
    const app = await bodyRoute({ type: 'object', properties: { name: { type: 'string', maxLength: 3 } } })
    await http(app).post('/k').send({ name: 'abc' }).expect(200)
    await http(app).post('/k').send({ name: 'abcd' }).expect(400, badRequest('body/name should NOT be longer than 3 characters'))
  })

  it('§2.1-kw-minimum: minimum', async () => {
    const app = await bodyRoute({ type: 'object', properties: { qty: { type: 'integer', minimum: 1 } } })
    await http(app).post('/k').send({ qty: 1 }).expect(200)
    await http(app).post('/k').send({ qty: 0 }).expect(400, badRequest('body/qty should be >= 1'))
  })

  it('§2.1-kw-enum: enum', async () => {
    const app = await bodyRoute({ type: 'object', properties: { size: { type: 'string', enum: ['S', 'M', 'L'] } } })
    await http(app).post('/k').send({ size: 'M' }).expect(200)
    await http(app).post('/k').send({ size: 'XL' }).expect(400, badRequest('body/size should be equal to one of the allowed values'))
  })

  it('§2.1-kw-oneOf: oneOf', async () => {
    const app = await bodyRoute({
      type: 'object',
      properties: { id: { oneOf: [{ type: 'integer', minimum: 1 }, { type: 'string', maxLength: 0 }] } },
    })
    await http(app).post('/k').send({ id: 5 }).expect(200)
    const res = await http(app).post('/k').send({ id: -1 }).expect(400)
    expect(res.body.message).to.contain('body/id should match exactly one schema in oneOf')
  })

  it('§2.1-kw-not: not', async () => {
    const app = await bodyRoute({ type: 'object', properties: { name: { type: 'string', not: { enum: ['root', 'admin'] } } } })
    await http(app).post('/k').send({ name: 'ada' }).expect(200)
    await http(app).post('/k').send({ name: 'root' }).expect(400, badRequest('body/name should NOT be valid'))
  })

  it('§2.1-kw-nullable: nullable', async () => {
    const app = await bodyRoute({ type: 'object', properties: { note: { type: 'string', nullable: true }, name: { type: 'string' } } })
    await http(app).post('/k').send({ note: null }).expect(200, { body: { note: null } })
    // Without nullable, null is coerced to the schema's type (coerceTypes), not kept.
    await http(app).post('/k').send({ name: null }).expect(200, { body: { name: '' } })
  })

  it('§2.1-kw-default: default', async () => {
    const app = await bodyRoute({ type: 'object', properties: { page: { type: 'integer', default: 1 }, q: { type: 'string' } } })
    await http(app).post('/k').send({ q: 'x' }).expect(200, { body: { q: 'x', page: 1 } })
    await http(app).post('/k').send({ q: 'x', page: 4 }).expect(200, { body: { q: 'x', page: 4 } })
  })

  it('§2.1-kw-definitions: definitions', async () => {
    const app = await bodyRoute({
      type: 'object',
      definitions: { positive: { type: 'integer', minimum: 1 } },
      properties: { qty: { $ref: '#/definitions/positive' } },
    })
    await http(app).post('/k').send({ qty: 2 }).expect(200)
    await http(app).post('/k').send({ qty: 0 }).expect(400, badRequest('body/qty should be >= 1'))
  })

  it('§2.1-kw-$id: $id', async () => {
    const app = await bodyRoute({
      $id: 'http://example.com/schemas/order',
      type: 'object',
      definitions: { code: { $id: '#code', type: 'string', maxLength: 4 } },
      properties: { code: { $ref: '#code' } },
    })
    await http(app).post('/k').send({ code: 'AB12' }).expect(200)
    await http(app).post('/k').send({ code: 'ABCDE' }).expect(400, badRequest('body/code should NOT be longer than 4 characters'))
  })

  it('§2.1-kw-$ref: $ref', async () => {
    const app = await build((root) => {
      root.addSchema({ $id: 'address', type: 'object', required: ['city'], properties: { city: { type: 'string' } } })
      root.post('/k', { schema: { body: { type: 'object', properties: { home: { $ref: 'address#' } } } } }, async (req: Request) => ({ body: req.body }))
    })
    await http(app).post('/k').send({ home: { city: 'Oslo' } }).expect(200)
    await http(app).post('/k').send({ home: {} }).expect(400, badRequest("body/home should have required property 'city'"))
  })

  it('§2.1-kw-type-array: a type may be an array of types, for example a number or null', async () => {
    const app = await bodyRoute({ type: 'object', properties: { price: { type: ['number', 'null'] } } })
    await http(app).post('/k').send({ price: 9.5 }).expect(200, { body: { price: 9.5 } })
    await http(app).post('/k').send({ price: null }).expect(200, { body: { price: null } })
    await http(app).post('/k').send({ price: { amount: 1 } }).expect(400, badRequest('body/price should be number,null'))
  })
})
