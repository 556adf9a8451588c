import { expect } from 'chai'
import { SchemaCompilers, baselineValidatorOptions } from '../../src/runtime/schemas'
import type { ValidatorPlugin } from '../../src/runtime/schemas'
import { compile, messageOf, thrown } from './helpers'

// The three plugins have no type declarations; they are plain ajv 6 plugins / error translators.
const ajvErrors: ValidatorPlugin = require('ajv-errors')
const ajvMergePatch: ValidatorPlugin = require('ajv-merge-patch')
const localize: Record<string, (errors: unknown) => void> = require('ajv-i18n')

describe('validator baseline options (§2.7)', () => {
  it('states the baseline: removeAdditional, useDefaults, coerceTypes, nullable, jsonPointers, no allErrors', () => {
    expect(baselineValidatorOptions).to.deep.equal({
      removeAdditional: true, useDefaults: true, coerceTypes: true, nullable: true, jsonPointers: true, allErrors: false,
      addUsedSchema: false,
    })
  })

  it('removes properties that are not in the schema (removeAdditional)', () => {
    const { body } = compile({ body: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } } })
    const data = { a: 'x', extra: 1 }
    expect(body!(data)).to.equal(undefined)
    expect(data).to.deep.equal({ a: 'x' })
  })

  it('fills missing properties and items from default (useDefaults)', () => {
    const { body } = compile({ body: { type: 'object', properties: { page: { type: 'integer', default: 1 }, tags: { type: 'array', default: [] } } } })
    const data = {}
    expect(body!(data)).to.equal(undefined)
    expect(data).to.deep.equal({ page: 1, tags: [] })
  })

  it('coerces values to the schema types in place, so the handler gets typed data (coerceTypes, §3.2)', () => {
    const { querystring, params } = compile({
      querystring: { n: { type: 'integer' }, flag: { type: 'boolean' } },
      params: { id: { type: 'number' } },
    })
    const query = { n: '42', flag: 'true' }
    const routeParams = { id: '3.5' }
    expect(querystring!(query)).to.equal(undefined)
    expect(params!(routeParams)).to.equal(undefined)
    expect(query).to.deep.equal({ n: 42, flag: true })
    expect(routeParams).to.deep.equal({ id: 3.5 })
  })

  it('supports the nullable keyword (nullable)', () => {
    const { body } = compile({ body: { type: 'object', properties: { a: { type: 'string', nullable: true } } } })
    expect(body!({ a: null })).to.equal(undefined)
    expect(messageOf(body, 'body', { a: {} })).to.equal('body/a should be string,null')
  })

  it('§7 fails a single value for an array-typed query parameter by default', () => {
    const { querystring } = compile({ querystring: { ids: { type: 'array', items: { type: 'integer' } } } })
    expect(messageOf(querystring, 'querystring', { ids: '7' })).to.equal('querystring/ids should be array')
  })

  it('§2.7 makes a single value a one-element array with coerceTypes "array"', () => {
    const { querystring } = compile({ querystring: { ids: { type: 'array', items: { type: 'integer' } } } },
      { compilersOptions: { validator: { customOptions: { coerceTypes: 'array' } } } })
    const query = { ids: '7' }
    expect(querystring!(query)).to.equal(undefined)
    expect(query).to.deep.equal({ ids: [7] })
  })

  // docs/schemas-and-types.md: the default formats check a date's shape only (ajv 6 "fast", as
  // Fastify 3.27.4), so an impossible date reaches the handler; format "full" checks the calendar.
  const dates = { querystring: { d: { type: 'string', format: 'date' }, t: { type: 'string', format: 'date-time' } } }
  const impossible = [{ d: '2026-02-30' }, { d: '2026-13-01' }, { d: '2026-02-29' }, { t: '2026-05-01T25:00:00Z' }, { t: '2026-04-31T08:00:00Z' }]

  it('the default date and date-time formats check the shape only: 2026-02-30, month 13 and 25:00 pass; a missing zone does not', () => {
    const { querystring } = compile(dates)
    for (const query of impossible) expect(querystring!({ ...query }), JSON.stringify(query)).to.equal(undefined)
    expect(messageOf(querystring, 'querystring', { d: '01/04/2026' })).to.equal('querystring/d should match format "date"')
    expect(messageOf(querystring, 'querystring', { t: '2026-05-01T08:00:00' })).to.equal('querystring/t should match format "date-time"')
  })

  it('format "full" checks the calendar and the clock: the same dates fail, 2028-02-29 (a leap day) passes', () => {
    const { querystring } = compile(dates, { compilersOptions: { validator: { customOptions: { format: 'full' } } } })
    for (const query of impossible) {
      const part = 'd' in query ? 'querystring/d should match format "date"' : 'querystring/t should match format "date-time"'
      expect(messageOf(querystring, 'querystring', { ...query }), JSON.stringify(query)).to.equal(part)
    }
    expect(querystring!({ d: '2028-02-29', t: '2026-05-01T08:00:00+02:00' })).to.equal(undefined)
  })

  it('reports only the first error unless allErrors is set', () => {
    const schema = { body: { type: 'object', required: ['a', 'b'] } }
    expect(messageOf(compile(schema).body, 'body', {})).to.equal("body should have required property 'a'")
    const all = compile(schema, { compilersOptions: { validator: { customOptions: { allErrors: true } } } })
    expect(messageOf(all.body, 'body', {})).to.equal("body should have required property 'a', body should have required property 'b'")
  })

  it('uses dotted paths when customOptions turn jsonPointers off', () => {
    const { body } = compile({ body: { a: { type: 'integer' } } }, { compilersOptions: { validator: { customOptions: { jsonPointers: false } } } })
    expect(messageOf(body, 'body', { a: 'x' })).to.equal('body.a should be integer')
  })
})

describe('validator plugins (§2.7, §7)', () => {
  const withErrors = { validator: { customOptions: { allErrors: true, jsonPointers: true }, plugins: [ajvErrors] } }

  it('ajv-errors 1.0.1: a message per property and per missing required property', () => {
    const { body } = compile({
      body: {
        type: 'object',
        required: ['name', 'age'],
        properties: { name: { type: 'string' }, age: { type: 'integer' } },
        errorMessage: { required: { name: 'name is missing', age: 'age is missing' }, properties: { age: 'age must be an integer' } },
      },
    }, { compilersOptions: withErrors })
    expect(messageOf(body, 'body', {})).to.equal('body name is missing, body age is missing')
    expect(messageOf(body, 'body', { name: 'n', age: 'old' })).to.equal('body/age age must be an integer')
  })

  it('ajv-errors 1.0.1: a message per constraint', () => {
    const { body } = compile({
      body: { type: 'object', properties: { age: { type: 'integer', minimum: 18, errorMessage: { type: 'age must be a number', minimum: 'too young' } } } },
    }, { compilersOptions: withErrors })
    expect(messageOf(body, 'body', { age: 'x' })).to.equal('body/age age must be a number')
    expect(messageOf(body, 'body', { age: 3 })).to.equal('body/age too young')
  })

  it('ajv-errors without allErrors is a coded boot error', () => {
    const error = thrown(() => compile({ body: { a: { type: 'string' } } }, { compilersOptions: { validator: { plugins: [ajvErrors] } } }))
    expect(error.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    expect(error.message).to.contain('allErrors').and.contain('scope root')
  })

  it('ajv-merge-patch 4: $merge and $patch, registered as a plugin', () => {
    const options = { validator: { plugins: [ajvMergePatch] } }
    const source = { type: 'object', properties: { a: { type: 'string' } } }
    const merged = compile({ body: { $merge: { source, with: { required: ['a'], properties: { b: { type: 'integer' } } } } } }, { compilersOptions: options })
    expect(messageOf(merged.body, 'body', { a: 'x', b: 2 })).to.equal(null)
    expect(messageOf(merged.body, 'body', {})).to.match(/^body should have required property 'a'/)
    expect(messageOf(merged.body, 'body', { a: 'x', b: 'two' })).to.match(/^body\/b should be integer/)
    const patched = compile({ body: { $patch: { source, with: [{ op: 'add', path: '/required', value: ['a'] }] } } }, { compilersOptions: options })
    expect(messageOf(patched.body, 'body', { a: 'x' })).to.equal(null)
    expect(messageOf(patched.body, 'body', {})).to.match(/^body should have required property 'a'/)
  })

  it('accepts a [plugin, options] entry and applies it to every validator instance', () => {
    const seen: unknown[] = []
    const plugin: ValidatorPlugin = [(ajv: { addKeyword(name: string, def: object): void }, opts: unknown) => {
      seen.push(opts)
      ajv.addKeyword('even', { type: 'number', validate: (_schema: unknown, data: number) => data % 2 === 0 })
    }, { flag: 1 }]
    const compilers = new SchemaCompilers({ validator: { plugins: [plugin] } })
    const { body } = compile({ body: { n: { type: 'integer', even: true } } }, { compilers })
    expect(messageOf(body, 'body', { n: 3 })).to.equal('body/n should pass "even" keyword validation')
    expect(messageOf(body, 'body', { n: 4 })).to.equal(null)
    expect(seen).to.deep.equal([{ flag: 1 }])
  })

  it("an ajv 8 plugin (@fastify/multipart's ajvFilePlugin: addKeyword({ keyword })) is a coded boot error naming it and ajv8CompilersFactory", () => {
    const { ajvFilePlugin } = require('@fastify/multipart') as { ajvFilePlugin: ValidatorPlugin }
    const error = thrown(() => compile({ body: { type: 'object', properties: { f: { isFile: true } } } }, { compilersOptions: { validator: { customOptions: { allErrors: true }, plugins: [ajvErrors, ajvFilePlugin] } } }))
    expect(error.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    expect(error.message).to.contain('validator.plugins[1] calls ajv.addKeyword({ keyword: "isFile", ... }), ajv 8\'s form')
      .and.contain('ajv8CompilersFactory({ plugins: [...] })')
  })

  it('ajv 6 plugins pass through that check: addKeyword(name, definition) adds the keyword, with another plugin after it', () => {
    const plugin: ValidatorPlugin = (ajv: { addKeyword(name: string, def: object): void }) => {
      ajv.addKeyword('even', { type: 'number', validate: (_schema: unknown, data: number) => data % 2 === 0 })
    }
    const compilers = new SchemaCompilers({ validator: { customOptions: { allErrors: true }, plugins: [plugin, ajvErrors] } })
    const { body } = compile({ body: { n: { type: 'integer', even: true } } }, { compilers })
    expect(messageOf(body, 'body', { n: 3 })).to.equal('body/n should pass "even" keyword validation')
  })

  it('§7 ajv-i18n 3 localizes the raw errors in error.validation', () => {
    const { body } = compile({ body: { type: 'object', required: ['name'], properties: { age: { type: 'integer', maximum: 5 } } } },
      { compilersOptions: { validator: { customOptions: { allErrors: true } } } })
    const failure = body!({ age: 9 }) as { errors: Array<{ message: string }> }
    localize.de(failure.errors)
    expect(failure.errors.map((error) => error.message)).to.deep.equal(['muss das erforderliche Attribut name enthalten', 'muss <= 5 sein'])
  })

  for (const bad of [['not a function'], [[42, {}]], 'ajv-errors']) {
    it(`refuses the plugins value ${JSON.stringify(bad)} with a coded error`, () => {
      const error = thrown(() => new SchemaCompilers({ validator: { plugins: bad as unknown as ValidatorPlugin[] } }))
      expect(error.code).to.equal('ENC_ERR_SCH_PLUGIN_INVALID')
    })
  }
})
