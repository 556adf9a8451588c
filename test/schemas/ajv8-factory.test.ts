import { expect } from 'chai'
import { SchemaCompilers, ajv8CompilersFactory, pickSerializer } from '../../src/runtime/schemas'
import type { ValidatorPlugin } from '../../src/runtime/schemas'
import addFormats from 'ajv-formats'
import { compile, messageOf, storeTree, thrown } from './helpers'

function ajv8(options: Parameters<typeof ajv8CompilersFactory>[0] = {}, customOptions: Record<string, unknown> = {}): SchemaCompilers {
  return new SchemaCompilers({ validator: { customOptions }, schemaController: { compilersFactory: ajv8CompilersFactory(options) } })
}

describe('§9 ajv 8 through schemaController.compilersFactory', () => {
  const body = {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, age: { type: 'integer', nullable: true }, role: { type: 'string', default: 'user' } },
  }

  it('validates, with the same message shape but ajv 8 wording ("must")', () => {
    const compiled = compile({ body, querystring: { ids: { type: 'array' } } }, { compilers: ajv8() })
    expect(messageOf(compiled.body, 'body', {})).to.equal("body must have required property 'name'")
    expect(messageOf(compiled.body, 'body', { name: 'a', age: 'old' })).to.equal('body/age must be integer')
    expect(messageOf(compiled.querystring, 'querystring', { ids: 'x' })).to.equal('querystring/ids must be array')
  })

  it('coerces, fills defaults, removes additional properties and supports nullable', () => {
    const { body: validate } = compile({ body: { ...body, additionalProperties: false } }, { compilers: ajv8() })
    const data = { name: 'Ada', age: '36', extra: true }
    expect(messageOf(validate, 'body', data)).to.equal(null)
    expect(data).to.deep.equal({ name: 'Ada', age: 36, role: 'user' })
    expect(messageOf(validate, 'body', { name: 'Ada', age: null })).to.equal(null)
  })

  it('accepts keywords ajv 8 does not know (strict: false)', () => {
    const { body: validate } = compile({ body: { type: 'object', example: { a: 1 }, properties: { a: { type: 'integer', 'x-doc': 'id' } } } }, { compilers: ajv8() })
    expect(messageOf(validate, 'body', { a: 'z' })).to.equal('body/a must be integer')
  })

  it('applies the server customOptions (dropping ajv 6-only keys) and its own, own ones last', () => {
    const twoErrors = { type: 'object', required: ['a', 'b'] }
    const allErrors = compile({ body: twoErrors }, { compilers: ajv8({}, { allErrors: true, jsonPointers: true }) })
    expect(messageOf(allErrors.body, 'body', {})).to.equal("body must have required property 'a', body must have required property 'b'")
    const overridden = compile({ body: twoErrors }, { compilers: ajv8({ customOptions: { allErrors: false } }, { allErrors: true }) })
    expect(messageOf(overridden.body, 'body', {})).to.equal("body must have required property 'a'")
    const arrays = compile({ querystring: { ids: { type: 'array', items: { type: 'integer' } } } }, { compilers: ajv8({ customOptions: { coerceTypes: 'array' } }) })
    const query = { ids: '3' }
    expect(messageOf(arrays.querystring, 'querystring', query)).to.equal(null)
    expect(query).to.deep.equal({ ids: [3] })
  })

  it('applies its own plugins, not the server\'s ajv 6 plugins', () => {
    const applied: string[] = []
    const ajv8Plugin: ValidatorPlugin = [(instance: { addKeyword(def: object): void }, opts: { tag: string }) => {
      applied.push(opts.tag)
      instance.addKeyword({ keyword: 'odd', type: 'number', validate: (_schema: unknown, data: number) => data % 2 === 1 })
    }, { tag: 'ajv8' }]
    const ajv6Plugin: ValidatorPlugin = () => { applied.push('ajv6') }
    const compilers = new SchemaCompilers({
      validator: { plugins: [ajv6Plugin] },
      schemaController: { compilersFactory: ajv8CompilersFactory({ plugins: [ajv8Plugin] }) },
    })
    const { body: validate } = compile({ body: { n: { type: 'integer', odd: true } } }, { compilers })
    expect(messageOf(validate, 'body', { n: 3 })).to.equal(null)
    expect(messageOf(validate, 'body', { n: 2 })).to.equal('body/n must pass "odd" keyword validation')
    expect(applied).to.deep.equal(['ajv8'])
  })

  it('resolves shared schemas visible from the scope, and reports those it cannot see', () => {
    const { root, a, b } = storeTree()
    root.add({ $id: 'shared', type: 'object', definitions: { id: { type: 'integer' } }, properties: { n: { $id: '#n', type: 'integer' } } })
    a.add({ $id: 'user', type: 'object', required: ['id'], properties: { id: { $ref: 'shared#/definitions/id' } } })
    const compilers = ajv8()
    const { body: validate } = compile({ body: { type: 'object', properties: { u: { $ref: 'user#' }, n: { $ref: 'shared#n' } } } }, { store: a, compilers })
    expect(messageOf(validate, 'body', { u: { id: 'x' } })).to.equal('body/u/id must be integer')
    expect(messageOf(validate, 'body', { n: 'x' })).to.equal('body/n must be integer')
    const error = thrown(() => compile({ body: { $ref: 'user#' } }, { store: b, compilers }))
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('declared in root > a')
  })

  describe('formats: an unknown one is refused at compile, as the default validator refuses it', () => {
    const email = { body: { type: 'object', properties: { to: { type: 'string', format: 'email' } } } }

    it('refuses format "email" without ajv-formats, naming the format, its path and the ways out', () => {
      const error = thrown(() => compile(email, { compilers: ajv8() }))
      expect(error.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
      expect(error.message).to.contain('unknown format "email" is used in schema at path "#/properties/to"')
      expect(error.message).to.contain('ajv8CompilersFactory({ plugins: [ajvFormats] })')
      expect(error.message).to.contain('formats: { name: true }')
    })

    it('refuses it again on a second compile of the same schema (ajv\'s own cache does not let it through)', () => {
      const compilers = ajv8()
      expect(thrown(() => compile(email, { compilers })).code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
      expect(thrown(() => compile(email, { compilers })).code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    })

    it('validates the format once ajv-formats is given', () => {
      const { body: validate } = compile(email, { compilers: ajv8({ plugins: [addFormats as unknown as ValidatorPlugin] }) })
      expect(messageOf(validate, 'body', { to: 'ada@example.com' })).to.equal(null)
      expect(messageOf(validate, 'body', { to: 'nope' })).to.equal('body/to must match format "email"')
    })

    it('skips a format declared as skipped (formats: { name: true }) without a console line', () => {
      const warned: unknown[] = []
      const original = console.warn
      console.warn = (...args: unknown[]) => { warned.push(args) }
      try {
        const { body: validate } = compile(email, { compilers: ajv8({ customOptions: { formats: { email: true } } }) })
        expect(messageOf(validate, 'body', { to: 'nope' })).to.equal(null)
      } finally {
        console.warn = original
      }
      expect(warned).to.deep.equal([])
    })

    it('still sends ajv\'s other messages to the user\'s logger', () => {
      const warned: string[] = []
      const logger = { log: () => undefined, warn: (message: string) => { warned.push(message) }, error: () => undefined }
      const compilers = ajv8({ customOptions: { logger, strictTypes: 'log' } })
      compile({ body: { properties: { a: { type: 'string' } } } }, { compilers })
      expect(warned.join('\n')).to.match(/strict mode/)
    })
  })

  it('keeps the default serializer (fast-json-stringify)', () => {
    const { response } = compile({ response: { 200: { a: { type: 'integer' } } } }, { compilers: ajv8() })
    expect(pickSerializer(response!, 200)!({ a: '4', b: 1 })).to.equal('{"a":4}')
  })
})
