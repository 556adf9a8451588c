import { expect } from 'chai'
import { SchemaCompilers, pickSerializer } from '../../src/runtime/schemas'
import type { SchemaStore } from '../../src/runtime/schemas'
import { compile, messageOf, storeTree } from './helpers'

function sharedSchema(id: string): Record<string, unknown> {
  return {
    $id: id,
    type: 'object',
    definitions: { name: { type: 'string', maxLength: 3 } },
    properties: {
      x: { type: 'integer' },
      nested: { $id: '#nested', type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    },
  }
}

interface Form {
  form: string
  /** The schema of property `a` (and any local definitions), given the shared schema's id. */
  schema(id: string): Record<string, unknown>
  valid: { input: unknown; coerced: unknown }
  invalid: { input: unknown; message: string }
  serialize: { input: unknown; output: string }
}

const local$id = { type: 'object', properties: { a: { $ref: '#local' }, b: { $id: '#local', type: 'integer' } } }
const forms: Form[] = [
  {
    form: '#<name> (local $id)',
    schema: () => local$id,
    valid: { input: { a: '5' }, coerced: { a: 5 } },
    invalid: { input: { a: 'x' }, message: 'body/a should be integer' },
    serialize: { input: { a: 5, secret: 1 }, output: '{"a":5}' },
  },
  {
    form: '#/definitions/<name> (local definitions)',
    schema: () => ({ type: 'object', definitions: { d: { type: 'integer' } }, properties: { a: { $ref: '#/definitions/d' } } }),
    valid: { input: { a: '5' }, coerced: { a: 5 } },
    invalid: { input: { a: 'x' }, message: 'body/a should be integer' },
    serialize: { input: { a: 5, secret: 1 }, output: '{"a":5}' },
  },
  {
    form: '<id># (root reference)',
    schema: (id) => ({ type: 'object', properties: { a: { $ref: `${id}#` } } }),
    valid: { input: { a: { x: '1' } }, coerced: { a: { x: 1 } } },
    invalid: { input: { a: { x: 'q' } }, message: 'body/a/x should be integer' },
    serialize: { input: { a: { x: 1, secret: 2 }, secret: 1 }, output: '{"a":{"x":1}}' },
  },
  {
    form: '<id>#/definitions/<name>',
    schema: (id) => ({ type: 'object', properties: { a: { $ref: `${id}#/definitions/name` } } }),
    valid: { input: { a: 'ab' }, coerced: { a: 'ab' } },
    invalid: { input: { a: 'abcd' }, message: 'body/a should NOT be longer than 3 characters' },
    serialize: { input: { a: 'ab', secret: 1 }, output: '{"a":"ab"}' },
  },
  {
    form: '<id>#<name> (subschema $id inside the shared schema)',
    schema: (id) => ({ type: 'object', properties: { a: { $ref: `${id}#nested` } } }),
    valid: { input: { a: { n: '3' } }, coerced: { a: { n: 3 } } },
    invalid: { input: { a: {} }, message: "body/a should have required property 'n'" },
    serialize: { input: { a: { n: 3, secret: 2 } }, output: '{"a":{"n":3}}' },
  },
  {
    form: '<id>#/properties/<name>',
    schema: (id) => ({ type: 'object', properties: { a: { $ref: `${id}#/properties/x` } } }),
    valid: { input: { a: '1' }, coerced: { a: 1 } },
    invalid: { input: { a: 'z' }, message: 'body/a should be integer' },
    serialize: { input: { a: 7, secret: 1 }, output: '{"a":7}' },
  },
]

const placements: Array<{ where: string; stores(): { declaring: SchemaStore; route: SchemaStore } }> = [
  { where: 'in the route\'s own scope', stores: () => { const { a } = storeTree(); return { declaring: a, route: a } } },
  { where: 'in an ancestor scope', stores: () => { const { root, a1 } = storeTree(); return { declaring: root, route: a1 } } },
]

for (const id of ['shared', 'http://example.com/schemas/shared']) {
  describe(`§2.3 reference forms, shared schema $id '${id}'`, () => {
    for (const { form, schema, valid, invalid, serialize } of forms) {
      for (const { where, stores } of placements) {
        it(`validator resolves ${form}, declared ${where}`, () => {
          const { declaring, route } = stores()
          declaring.add(sharedSchema(id))
          const { body } = compile({ body: schema(id) }, { store: route })
          const data = JSON.parse(JSON.stringify(valid.input))
          expect(messageOf(body, 'body', data)).to.equal(null)
          expect(data).to.deep.equal(valid.coerced)
          expect(messageOf(body, 'body', invalid.input)).to.equal(invalid.message)
        })

        it(`serializer resolves ${form}, declared ${where}, leaving out unknown properties`, () => {
          const { declaring, route } = stores()
          declaring.add(sharedSchema(id))
          const { response } = compile({ response: { 200: schema(id) } }, { store: route })
          expect(pickSerializer(response!, 200)!(serialize.input)).to.equal(serialize.output)
        })
      }
    }
  })
}

describe('§2.1 a whole part given as a $ref, and shared schemas that reference each other', () => {
  function tree(): { root: SchemaStore; a1: SchemaStore } {
    const { root, a, a1 } = storeTree()
    root.add({ $id: 'address', type: 'object', required: ['city'], properties: { city: { type: 'string' } } })
    a.add({ $id: 'person', type: 'object', required: ['name'], properties: { name: { type: 'string' }, home: { $ref: 'address#' } } })
    return { root, a1 }
  }

  it('validates a body that is a root reference to a shared schema which references another', () => {
    const { a1 } = tree()
    const { body } = compile({ body: { $ref: 'person#' } }, { store: a1 })
    expect(messageOf(body, 'body', { name: 'Ada', home: { city: 'London' } })).to.equal(null)
    expect(messageOf(body, 'body', {})).to.equal("body should have required property 'name'")
    expect(messageOf(body, 'body', { name: 'Ada', home: {} })).to.equal("body/home should have required property 'city'")
  })

  it('serializes a response that is a root reference through two shared schemas', () => {
    const { a1 } = tree()
    const { response } = compile({ response: { 200: { $ref: 'person#' } } }, { store: a1 })
    expect(pickSerializer(response!, 200)!({ name: 'Ada', password: 'x', home: { city: 'London', code: 1 } }))
      .to.equal('{"name":"Ada","home":{"city":"London"}}')
  })

  it('lets routes of one scope share the compilers (one SchemaCompilers per server)', () => {
    const { a1 } = tree()
    const compilers = new SchemaCompilers()
    const one = compile({ body: { $ref: 'person#' } }, { store: a1, compilers, url: '/one' })
    const two = compile({ body: { $ref: 'address#' } }, { store: a1, compilers, url: '/two' })
    expect(messageOf(one.body, 'body', { name: 'x' })).to.equal(null)
    expect(messageOf(two.body, 'body', {})).to.equal("body should have required property 'city'")
  })
})
