import { expect } from 'chai'
import { SchemaCompilers } from '../../src/runtime/schemas'
import { copySchemaNoting, findAsync, schemaCacheKey } from '../../src/runtime/schemas/schema-walk'
import { normalizeRouteSchema } from '../../src/runtime/schemas/route-schema'
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
})
