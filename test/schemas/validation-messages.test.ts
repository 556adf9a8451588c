import { expect } from 'chai'
import { FrameworkError } from '../../src/runtime/errors/framework-error'
import { HttpError } from '../../src/runtime/errors/http-error'
import { defaultSchemaErrorFormatter, toValidationError } from '../../src/runtime/schemas'
import type { PartFailure, SchemaErrorFormatter } from '../../src/runtime/schemas'
import { compile, messageOf, thrown } from './helpers'

const userBody = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } },
  },
}

describe('validation error messages (§2.4, §7)', () => {
  it("§2.4 a missing required property reads body should have required property 'name'", () => {
    const { body } = compile({ body: userBody })
    expect(messageOf(body, 'body', {})).to.equal("body should have required property 'name'")
  })

  it('§2.4 a single value for an array query parameter reads querystring/hello should be array', () => {
    const { querystring } = compile({ querystring: { hello: { type: 'array', items: { type: 'string' } } } })
    expect(messageOf(querystring, 'querystring', { hello: 'world' })).to.equal('querystring/hello should be array')
  })

  it('names nested paths as JSON pointers: body/items/1/id should be integer', () => {
    const { body } = compile({ body: userBody })
    expect(messageOf(body, 'body', { name: 'a', items: [{ id: 1 }, { id: 'one' }] })).to.equal('body/items/1/id should be integer')
  })

  it('uses the part name for params and headers', () => {
    const { params, headers } = compile({ params: { id: { type: 'integer' } }, headers: { type: 'object', required: ['x-token'] } })
    expect(messageOf(params, 'params', { id: 'abc' })).to.equal('params/id should be integer')
    expect(messageOf(headers, 'headers', {})).to.equal("headers should have required property 'x-token'")
  })

  it('joins several errors with ", " when allErrors is on', () => {
    const { body } = compile({ body: userBody }, { compilersOptions: { validator: { customOptions: { allErrors: true } } } })
    expect(messageOf(body, 'body', { items: [{ id: 'x' }] }))
      .to.equal("body should have required property 'name', body/items/0/id should be integer")
  })

  it('reads ajv 8 instancePath as well as ajv 6 dataPath', () => {
    const errors = [{ instancePath: '/a', message: 'must be integer' }, { dataPath: '/b', message: 'should be string' }]
    expect(defaultSchemaErrorFormatter(errors, 'body').message).to.equal('body/a must be integer, body/b should be string')
  })

  it('gives a readable message for an empty error list and for plain string errors', () => {
    expect(defaultSchemaErrorFormatter([], 'params').message).to.equal('params failed validation')
    expect(defaultSchemaErrorFormatter(['is not a valid id'], 'params').message).to.equal('params is not a valid id')
  })
})

describe('validation error properties (§2.5)', () => {
  const failure: PartFailure = { errors: [{ dataPath: '/a', message: 'should be integer' }] }

  it('carries validation (the raw errors), validationContext and statusCode 400, and no code', () => {
    const error = toValidationError(failure, 'body', defaultSchemaErrorFormatter, null)
    expect(error).to.be.instanceOf(Error)
    expect(error.statusCode).to.equal(400)
    expect(error.validation).to.equal((failure as { errors: unknown[] }).errors)
    expect(error.validationContext).to.equal('body')
    expect(error).to.not.have.property('code')
  })

  it('§2.5 reports the querystring part as validationContext "query"', () => {
    expect(toValidationError(failure, 'querystring', defaultSchemaErrorFormatter, null).validationContext).to.equal('query')
    expect(toValidationError(failure, 'params', defaultSchemaErrorFormatter, null).validationContext).to.equal('params')
    expect(toValidationError(failure, 'headers', defaultSchemaErrorFormatter, null).validationContext).to.equal('headers')
  })

  it('§4.2 calls the formatter with this = the given scope, the errors and the dataVar', () => {
    const scope = { name: 'root' }
    const calls: unknown[] = []
    const formatter: SchemaErrorFormatter = function (this: unknown, errors, dataVar) {
      calls.push([this, errors, dataVar])
      return new Error(`custom: ${dataVar}`)
    }
    const error = toValidationError(failure, 'querystring', formatter, scope)
    expect(error.message).to.equal('custom: querystring')
    expect(calls).to.deep.equal([[scope, (failure as { errors: unknown[] }).errors, 'querystring']])
  })

  it('§7 honours a status of 400 or more that the formatter\'s Error carries, and replaces a lower one', () => {
    const teapot = toValidationError(failure, 'body', () => new HttpError(422, 'nope'), null)
    expect(teapot.statusCode).to.equal(422)
    expect(teapot.message).to.equal('nope')
    const low = toValidationError(failure, 'body', () => Object.assign(new Error('x'), { statusCode: 200 }), null)
    expect(low.statusCode).to.equal(400)
  })

  it('refuses a formatter result that is not an Error with a coded error', () => {
    const formatter = (() => ({ message: 'not an error' })) as unknown as SchemaErrorFormatter
    const error = thrown(() => toValidationError(failure, 'body', formatter, null))
    expect(error).to.be.instanceOf(FrameworkError)
    expect(error.code).to.equal('ENC_ERR_SCH_FORMATTER_RESULT')
    expect((error as FrameworkError).statusCode).to.equal(500)
  })

  it('lets an error thrown by the formatter propagate', () => {
    const boom = new Error('formatter broke')
    expect(thrown(() => toValidationError(failure, 'body', () => { throw boom }, null))).to.equal(boom)
  })

  it('uses an { error } from another library as is: statusCode 400, validation from validation, details or message', () => {
    const joi = Object.assign(new Error('"name" is required'), { details: [{ path: ['name'] }] })
    const fromJoi = toValidationError({ error: joi }, 'body', defaultSchemaErrorFormatter, null)
    expect(fromJoi).to.equal(joi)
    expect(fromJoi.statusCode).to.equal(400)
    expect(fromJoi.validation).to.deep.equal([{ path: ['name'] }])
    expect(fromJoi.validationContext).to.equal('body')

    const withValidation = Object.assign(new Error('bad'), { validation: ['raw'], details: ['ignored'] })
    expect(toValidationError({ error: withValidation }, 'params', defaultSchemaErrorFormatter, null).validation).to.deep.equal(['raw'])
    expect(toValidationError({ error: new Error('plain') }, 'params', defaultSchemaErrorFormatter, null).validation).to.equal('plain')
  })

  it('never calls the formatter for an { error } failure', () => {
    let called = false
    toValidationError({ error: new Error('x') }, 'body', () => { called = true; return new Error('y') }, null)
    expect(called).to.equal(false)
  })
})
