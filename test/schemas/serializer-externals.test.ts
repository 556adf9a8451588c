import { expect } from 'chai'
import { SchemaCompilers, pickSerializer } from '../../src/runtime/schemas'
import { referencedExternals } from '../../src/runtime/schemas/referenced-externals'
import type { SharedSchema } from '../../src/runtime/schemas'
import { compile, storeTree, thrown } from './helpers'

const shared = (id: string, body: Record<string, unknown>): SharedSchema => ({ $id: id, ...body }) as SharedSchema

describe('the shared schemas given to fast-json-stringify (issue 16 §1)', () => {
  const external: Record<string, SharedSchema> = {
    user: shared('user', { type: 'object', properties: { name: { type: 'string' }, address: { $ref: 'address#' } } }),
    address: shared('address', { type: 'object', properties: { city: { type: 'string' }, geo: { $ref: 'geo#/definitions/point' } } }),
    geo: shared('geo', { definitions: { point: { type: 'object', properties: { lat: { type: 'number' } } } } }),
    product: shared('product', { type: 'object', properties: { title: { type: 'string' } } }),
  }

  it('are those a response schema refers to, directly or through another shared schema', () => {
    expect(Object.keys(referencedExternals({ $ref: 'user#' }, external)).sort()).to.deep.equal(['address', 'geo', 'user'])
    expect(Object.keys(referencedExternals({ type: 'array', items: { $ref: 'product' } }, external))).to.deep.equal(['product'])
    expect(referencedExternals({ type: 'object', properties: { a: { $ref: '#/definitions/x' } }, definitions: { x: { type: 'string' } } }, external)).to.deep.equal({})
  })

  it('are all of them when a $ref names something that is not a shared schema\'s $id, or an $id differs from its key', () => {
    expect(referencedExternals({ $ref: 'nested-id#' }, external)).to.equal(external)
    expect(referencedExternals({ $ref: 'http://example.com/user.json#' }, external)).to.equal(external)
    const renamed = { ...external, other: shared('not-other', { type: 'string' }) }
    expect(referencedExternals({ $ref: 'user#' }, renamed)).to.equal(renamed)
  })

  it('serialize a response that refers to shared schemas through other shared schemas as before', () => {
    const { root, a } = storeTree()
    for (const id of Object.keys(external)) root.add(JSON.parse(JSON.stringify(external[id])))
    const compilers = new SchemaCompilers()
    const first = pickSerializer(compile({ response: { 200: { $ref: 'product#' } } }, { store: a, compilers, url: '/p' }).response!, 200)!
    const second = pickSerializer(compile({ response: { 200: { $ref: 'user#' } } }, { store: a, compilers, url: '/u' }).response!, 200)!
    expect(first({ title: 't', extra: 1 })).to.equal('{"title":"t"}')
    expect(second({ name: 'n', address: { city: 'c', geo: { lat: 1.5, lng: 2 }, zip: 1 }, extra: 1 }))
      .to.equal('{"name":"n","address":{"city":"c","geo":{"lat":1.5}}}')
  })

  it('a shared schema fast-json-stringify refuses still fails every route with a response schema, not only the first', () => {
    const { root, a } = storeTree()
    // Invalid JSON Schema (`required` must be an array): a route with only a response schema never builds ajv.
    root.add({ $id: 'broken', type: 'object', required: 'name' } as never)
    const compilers = new SchemaCompilers()
    const one = thrown(() => compile({ response: { 200: { type: 'object', properties: { a: { type: 'string' } } } } }, { store: a, compilers, url: '/one' }))
    const two = thrown(() => compile({ response: { 200: { type: 'object', properties: { b: { type: 'string' } } } } }, { store: a, compilers, url: '/two' }))
    expect(one.code).to.equal('ENC_ERR_SCH_SERIALIZATION_BUILD')
    expect(two.code).to.equal('ENC_ERR_SCH_SERIALIZATION_BUILD')
    expect(two.message).to.include('/two')
  })
})
