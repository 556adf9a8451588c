import { expect } from 'chai'
import { SchemaCompilers } from '../../src/runtime/schemas'
import { collectRefs, copySchemaNoting, findAsync, schemaCacheKey, schemaJsonText, visitSchemas } from '../../src/runtime/schemas/schema-walk'
import { normalizeRouteSchema } from '../../src/runtime/schemas/route-schema'
import { checkKeywords, type KnownKeywords } from '../../src/runtime/schemas/keyword-check'
import { createResponseSerializers, pickSerializer } from '../../src/runtime/schemas/response-serializers'
import { compile, messageOf, storeTree } from './helpers'

// Issue 16 §1: what boot does per route schema beyond compiling it, done once instead of twice.

const route = { method: 'POST', url: '/x', scopePath: 'root' }

describe('boot bookkeeping per route schema (issue 16 §1)', () => {
  it('normalization copies and notes a possible $async in one walk; findAsync still decides', () => {
    const plain = { type: 'object', properties: { a: { type: 'string' } } }
    expect(copySchemaNoting(plain).mayBeAsync).to.equal(false)
    expect(copySchemaNoting({ type: 'object', properties: { a: { $async: true } } }).mayBeAsync).to.equal(true)
    expect(copySchemaNoting({ $async: false }).mayBeAsync).to.equal(false)
    // A `$async` inside data (a default) is noted, and findAsync, which knows schema positions, clears it.
    const inData = { type: 'object', default: { $async: true } }
    expect(copySchemaNoting(inData).mayBeAsync).to.equal(true)
    expect(findAsync(inData)).to.equal(null)
    expect(() => normalizeRouteSchema({ body: inData }, route)).not.to.throw()
    expect(() => normalizeRouteSchema({ body: { type: 'object', properties: { a: { $async: true } } } }, route))
      .to.throw().with.property('code', 'ENC_ERR_SCH_ASYNC')
  })

  it('the cache key of a JSON-only copy is its JSON text; RegExp and function values still count', () => {
    const json = copySchemaNoting({ type: 'string', pattern: '^a$', enum: ['a', 1, null] }).copy
    expect(schemaCacheKey(json)).to.equal(JSON.stringify(json))
    const withRegExp = copySchemaNoting({ type: 'string', format: 'x', formatMaximum: /a/ }).copy
    const withOther = copySchemaNoting({ type: 'string', format: 'x', formatMaximum: /b/ }).copy
    expect(schemaCacheKey(withRegExp)).not.to.equal(schemaCacheKey(withOther))
    const fn = copySchemaNoting({ type: 'object', check: () => true }).copy
    expect(schemaCacheKey(fn)).not.to.equal(JSON.stringify(fn))
  })

  it('normalization copies own keys only, in their order, also with a polluted Object.prototype', () => {
    const proto = Object.prototype as Record<string, unknown>
    proto.polluted = { type: 'string' }
    try {
      const schema = { type: 'object', properties: { b: { type: 'string' }, 10: { type: 'integer' }, a: { type: 'number' } } }
      const { copy } = copySchemaNoting(schema)
      expect(copy).to.deep.equal(schema)
      expect(Object.keys(copy.properties)).to.deep.equal(['10', 'b', 'a'])
      expect(Object.prototype.hasOwnProperty.call(copy, 'polluted')).to.equal(false)
      expect(Object.prototype.hasOwnProperty.call(copy.properties, 'polluted')).to.equal(false)
    } finally {
      delete proto.polluted
    }
  })

  it('the keyword check and the schema walks read own keys only, in their order, with a polluted Object.prototype', () => {
    const proto = Object.prototype as Record<string, unknown>
    proto.polluted = { type: 'string', $ref: 'nowhere#', requird: true }
    try {
      const known: KnownKeywords = { has: (key) => ['type', 'properties', 'items', 'required', '$ref', 'maxLength'].includes(key), names: () => [] }
      const shared = { type: 'string', maxLength: 3 }
      const schema = { type: 'object', properties: { b: shared, 10: { type: 'array', items: shared }, a: { $ref: 'x#' } }, required: ['a'] }
      expect(() => checkKeywords(schema, known, new Set(), 'here')).not.to.throw()
      expect(collectRefs(schema)).to.deep.equal(['x#'])
      // Objects in schema positions, depth first, in Object.keys order; a shared subschema once.
      const visited: string[] = []
      visitSchemas(schema, (node, pointer) => { visited.push(pointer() || '/') })
      expect(visited).to.deep.equal(['/', '/properties/10', '/properties/10/items', '/properties/a'])
      expect(findAsync({ type: 'object', properties: { x: { $async: true } } })).to.equal('/properties/x')
    } finally {
      delete proto.polluted
    }
    // Unchanged without the pollution: a misspelt keyword under a name map is still found, with its pointer.
    const known: KnownKeywords = { has: (key) => ['type', 'properties'].includes(key), names: () => ['type', 'properties', 'required'] }
    expect(() => checkKeywords({ type: 'object', properties: { n: { type: 'string', requird: true } } }, known, new Set(), 'here'))
      .to.throw().with.property('code', 'ENC_ERR_SCH_UNKNOWN_KEYWORD')
  })

  it('normalization copies an array at its length, a hole as undefined (as push() did)', () => {
    // eslint-disable-next-line no-sparse-arrays
    const original = { type: 'string', enum: ['a', , 'c'], examples: [] as unknown[] }
    const { copy } = copySchemaNoting(original)
    expect(copy.enum).to.not.equal(original.enum)
    expect(copy.enum).to.have.lengthOf(3)
    expect(1 in copy.enum).to.equal(true)
    expect(copy.enum).to.deep.equal(['a', undefined, 'c'])
    expect(copy.examples).to.deep.equal([])
  })

  it('the body\'s finite guard reads the JSON text its cache key has just written, not a second serialization', () => {
    const body = copySchemaNoting({ type: 'object', properties: { n: { type: 'number' } } }).copy
    const other = copySchemaNoting({ type: 'object', properties: { s: { type: 'string' } } }).copy
    const key = schemaCacheKey(body)
    expect(schemaJsonText(body)).to.equal(key).and.to.equal(JSON.stringify(body))
    // Any other schema (or a copy keyed earlier) is serialized as before.
    expect(schemaJsonText(other)).to.equal(JSON.stringify(other))
    expect(schemaJsonText(null)).to.equal('null')
    schemaCacheKey(other)
    expect(schemaJsonText(body)).to.equal(JSON.stringify(body))
  })

  it('ajv keys its own cache with the route schema\'s cache key instead of serializing the schema again', () => {
    const seen: Array<{ schema: unknown; key: unknown }> = []
    const spy = (ajv: unknown): void => {
      const options = (ajv as { _opts: { serialize: (s: unknown) => unknown } })._opts
      const serialize = options.serialize
      options.serialize = (schema) => { const key = serialize(schema); seen.push({ schema, key }); return key }
    }
    const compilers = new SchemaCompilers({ validator: { plugins: [spy] } })
    const body = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
    const compiled = compile({ body }, { compilers })
    expect(messageOf(compiled.body, 'body', {})).to.equal("body should have required property 'n'")
    const forRoute = seen.filter((entry) => typeof entry.schema === 'object' && (entry.schema as { required?: unknown }).required !== undefined)
    expect(forRoute).to.have.length(1)
    // ajv compiles Enclave's copy (with the internal finite-number keyword); the key is the route schema's.
    expect(forRoute[0].key).to.equal(schemaCacheKey(body))
  })

  it('a serialize option of the user\'s is used as given', () => {
    const keys: unknown[] = []
    const serialize = (schema: unknown): string => { keys.push(schema); return JSON.stringify(schema) }
    const compilers = new SchemaCompilers({ validator: { customOptions: { serialize } } })
    const { root } = storeTree()
    compile({ body: { type: 'object', properties: { n: { type: 'integer' } } } }, { compilers, store: root })
    expect(keys.some((schema) => (schema as { properties?: unknown }).properties !== undefined)).to.equal(true)
  })

  it('the unknown-keyword check asks the validator once per known keyword name, and again for an unknown one (a plugin may add it later)', () => {
    const asked: string[] = []
    const keywords = new Set(['type', 'properties', 'maxLength'])
    const known: KnownKeywords = { has: (k) => { asked.push(k); return keywords.has(k) }, names: () => [...keywords] }
    const schema = { type: 'object', properties: { a: { type: 'string', maxLength: 3 }, b: { type: 'string', maxLength: 4 } } }
    checkKeywords(schema, known, new Set(), 'here')
    checkKeywords(schema, known, new Set(), 'here')
    expect(asked).to.deep.equal(['type', 'properties', 'maxLength'])
    expect(() => checkKeywords({ type: 'string', minLenght: 1 }, known, new Set(), 'here')).to.throw().with.property('code', 'ENC_ERR_SCH_UNKNOWN_KEYWORD')
    keywords.add('minLenght')
    expect(() => checkKeywords({ type: 'string', minLenght: 1 }, known, new Set(), 'here')).not.to.throw()
  })

  it('response serializers without a range or default key share one frozen by-hundred table; keys pick as before', () => {
    const a = (): string => 'a'
    const b = (): string => 'b'
    const plain = createResponseSerializers([['200', a]])
    expect(createResponseSerializers([['201', b]]).byHundred).to.equal(plain.byHundred)
    expect(Object.isFrozen(plain.byHundred)).to.equal(true)
    expect(pickSerializer(plain, 200)).to.equal(a)
    expect(pickSerializer(plain, 204)).to.equal(null)
    const ranged = createResponseSerializers([['2xx', a], ['default', b], ['404', a]])
    expect(ranged.byHundred).to.not.equal(plain.byHundred)
    expect([pickSerializer(ranged, 204), pickSerializer(ranged, 500), pickSerializer(ranged, 404), pickSerializer(ranged, 1000)]).to.deep.equal([a, b, a, b])
    // A key given twice keeps its first place and its last function, as a Map of the entries would.
    const twice = createResponseSerializers([['200', a], ['default', a], ['200', b]])
    expect(twice.keys).to.deep.equal(['200', 'default'])
    expect(pickSerializer(twice, 200)).to.equal(b)
  })
})
