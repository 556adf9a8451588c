import { expect } from 'chai'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { FrameworkError } from '../../src/runtime/errors/framework-error'
import { schemaErrorCodes } from '../../src/runtime/schemas'
import type { SerializerCompiler, ValidatorCompiler } from '../../src/runtime/schemas'
import { compile, storeTree, thrown } from './helpers'

const SOURCE_DIR = resolve(__dirname, '../../../src/runtime/schemas')

describe('route compile errors name the route, the part and the scope (DESIGN §3.2)', () => {
  function users(): ReturnType<typeof storeTree> {
    const tree = storeTree()
    tree.a.add({ $id: 'user', type: 'object', properties: { name: { type: 'string' } } })
    return tree
  }

  it('a schema whose array holds itself is refused with a coded build error for both compilers, not a stack overflow', () => {
    const anyOf: unknown[] = [{ type: 'string' }]
    anyOf.push(anyOf)
    const validator = thrown(() => compile({ body: { anyOf } }))
    expect(validator).to.be.instanceOf(FrameworkError)
    expect(validator.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    const serializer = thrown(() => compile({ response: { 200: { anyOf } } }))
    expect(serializer).to.be.instanceOf(FrameworkError)
    expect(serializer.code).to.equal('ENC_ERR_SCH_SERIALIZATION_BUILD')
  })

  it('a validator $ref to a schema declared in another scope names where it is and the fix', () => {
    const { b } = users()
    const error = thrown(() => compile({ body: { $ref: 'user#' } }, { store: b, method: 'PUT', url: '/users/:id' }))
    expect(error).to.be.instanceOf(FrameworkError)
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('PUT /users/:id').and.contain('scope root > b').and.contain('body')
      .and.contain("'user#'").and.contain('declared in root > a: move it to a common ancestor or lift() that plugin')
    expect(error.cause).to.be.instanceOf(Error)
  })

  it('a serializer $ref to a schema declared in a descendant scope is detected too', () => {
    const { root } = users()
    const error = thrown(() => compile({ response: { 201: { type: 'object', properties: { u: { $ref: 'user#/properties/name' } } } } }, { store: root, method: 'GET', url: '/' }))
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('GET /').and.contain('response 201').and.contain('serializer')
      .and.contain("'user#/properties/name'").and.contain('declared in root > a')
  })

  it('a $ref that no scope declares says to add it', () => {
    const { a1 } = users()
    const error = thrown(() => compile({ querystring: { type: 'object', properties: { q: { $ref: 'query-params#' } } } }, { store: a1 }))
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('querystring').and.contain('No scope declares it').and.contain('addSchema()')
  })

  it('names the $ref as written, even when the route schema has its own base $id', () => {
    const { b } = users()
    const error = thrown(() => compile({ body: { $id: 'http://example.com/route', type: 'object', properties: { u: { $ref: 'user#' } } } }, { store: b }))
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain("'user#'").and.contain('declared in root > a')
  })

  it('a pointer or anchor missing inside a visible shared schema is ENC_ERR_SCH_REF_INVALID, for both compilers', () => {
    const { a1 } = users()
    const validator = thrown(() => compile({ body: { $ref: 'user#/definitions/missing' } }, { store: a1 }))
    expect(validator.code).to.equal('ENC_ERR_SCH_REF_INVALID')
    expect(validator.message).to.contain("'user#/definitions/missing'").and.contain('declared in root > a')
    const serializer = thrown(() => compile({ response: { 200: { $ref: 'user#/definitions/missing' } } }, { store: a1 }))
    expect(serializer.code).to.equal('ENC_ERR_SCH_REF_INVALID')
  })

  it('a local pointer that does not exist is ENC_ERR_SCH_REF_INVALID', () => {
    const error = thrown(() => compile({ params: { type: 'object', properties: { id: { $ref: '#/definitions/id' } } } }))
    expect(error.code).to.equal('ENC_ERR_SCH_REF_INVALID')
    expect(error.message).to.contain('params').and.contain("'#/definitions/id'")
  })

  it('an invalid schema is ENC_ERR_SCH_VALIDATION_BUILD, keeping the original error as cause', () => {
    const error = thrown(() => compile({ headers: { type: 'object', properties: { a: { type: 'strnig' } } } }, { method: 'GET', url: '/h' }))
    expect(error.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    expect(error.message).to.contain('headers schema of route GET /h in scope root').and.contain('schema is invalid')
    expect((error.cause as Error).message).to.contain('schema is invalid')
  })

  it('a response schema the serializer cannot compile is ENC_ERR_SCH_SERIALIZATION_BUILD', () => {
    const error = thrown(() => compile({ response: { '2xx': { type: 'object', properties: { a: { type: 'strnig' } } } } }, { method: 'GET', url: '/s' }))
    expect(error.code).to.equal('ENC_ERR_SCH_SERIALIZATION_BUILD')
    expect(error.message).to.contain('response 2xx schema of route GET /s in scope root')
    expect(error.cause).to.be.instanceOf(Error)
  })

  it('a custom compiler that throws, or returns something other than a function, is a coded error', () => {
    const boom = new Error('cannot handle this schema')
    const throwing: ValidatorCompiler = () => { throw boom }
    const thrownError = thrown(() => compile({ body: { type: 'object' } }, { validatorCompiler: throwing }))
    expect(thrownError.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    expect(thrownError.cause).to.equal(boom)
    const notAFunction = (() => ({ validate: true })) as unknown as ValidatorCompiler
    expect(thrown(() => compile({ body: { type: 'object' } }, { validatorCompiler: notAFunction })).code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    const badSerializer = (() => null) as unknown as SerializerCompiler
    const error = thrown(() => compile({ response: { 200: { type: 'object' } } }, { serializerCompiler: badSerializer }))
    expect(error.code).to.equal('ENC_ERR_SCH_SERIALIZATION_BUILD')
    expect(error.message).to.contain('returned null').and.contain('response 200')
  })

  it('normalization errors surface from compileRouteSchemas unchanged', () => {
    expect(thrown(() => compile({ body: { $async: true, type: 'object' } })).code).to.equal('ENC_ERR_SCH_ASYNC')
    expect(thrown(() => compile({ response: { 700: {} } })).code).to.equal('ENC_ERR_SCH_RESPONSE_KEY')
  })

  it('a nested $async is named by its JSON pointer, escaped, and a property named $async is not the keyword', () => {
    const error = thrown(() => compile({ body: { type: 'object', properties: { 'a/b': { type: 'array', items: [{ type: 'string' }, { $async: true }] } } } }))
    expect(error.code).to.equal('ENC_ERR_SCH_ASYNC')
    expect(error.message).to.contain('uses $async at /properties/a~1b/items/1.')
    expect(() => compile({ body: { type: 'object', properties: { $async: { type: 'string' } }, default: { $async: true } } })).not.to.throw()
  })
})

describe('schema error codes table', () => {
  const sources = readdirSync(SOURCE_DIR).filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(join(SOURCE_DIR, file), 'utf8'))

  it('lists every code the schema subsystem raises, and each code in it is raised somewhere', () => {
    const codesFile = readFileSync(join(SOURCE_DIR, 'schema-codes.ts'), 'utf8')
    const raised = new Set<string>()
    for (const source of sources) {
      if (source === codesFile) continue
      for (const match of source.matchAll(/'(ENC_ERR_[A-Z_]+)'/g)) raised.add(match[1])
    }
    expect([...raised].sort()).to.deep.equal(Object.keys(schemaErrorCodes).sort())
  })

  it('gives each code a status (null for boot errors) and a summary', () => {
    for (const [code, entry] of Object.entries(schemaErrorCodes)) {
      expect(code).to.match(/^ENC_ERR_SCH_[A-Z_]+$/)
      expect(entry.status === null || (entry.status >= 400 && entry.status < 600), code).to.equal(true)
      expect(entry.summary, code).to.be.a('string').with.length.above(10)
    }
  })

  it('keeps the import direction: no reflect-metadata, tsyringe, decorators or modules (DESIGN §1)', () => {
    for (const source of sources) {
      for (const match of source.matchAll(/from '([^']+)'/g)) {
        expect(match[1]).to.not.match(/reflect-metadata|tsyringe|decorators|modules/)
        // Issue 11: the error tables' factory (errors/define-errors) sits next to FrameworkError;
        // errors/client-text (no imports) bounds client text in 400 messages and their log lines alike.
        if (match[1].startsWith('..')) expect(match[1]).to.be.oneOf(['../errors/framework-error', '../errors/define-errors', '../errors/client-text'])
      }
    }
  })
})
