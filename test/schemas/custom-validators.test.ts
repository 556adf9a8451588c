import { expect } from 'chai'
import Ajv from 'ajv'
import { partValidatorCompiler, pickSerializer } from '../../src/runtime/schemas'
import type { SerializerCompilerInput, ValidateFunction, ValidatorCompiler, ValidatorCompilerInput } from '../../src/runtime/schemas'
import { compile, messageOf, thrown } from './helpers'

/** A route whose body validator is `fn`, compiled through a custom validator compiler. */
function bodyValidatorReturning(fn: ValidateFunction) {
  return compile({ body: { type: 'object' } }, { validatorCompiler: () => fn }).body!
}

describe('§4.2 custom validator result shapes', () => {
  it('true and undefined mean valid: keep the data', () => {
    expect(bodyValidatorReturning(() => true)({})).to.equal(undefined)
    expect(bodyValidatorReturning(() => undefined)({})).to.equal(undefined)
  })

  it('false means invalid, with the errors read from fn.errors (ajv style)', () => {
    const errors = [{ dataPath: '/a', message: 'should be fine' }]
    const fn = Object.assign(() => false, { errors })
    expect(bodyValidatorReturning(fn)({})).to.deep.equal({ errors })
    expect(messageOf(bodyValidatorReturning(fn), 'body', {})).to.equal('body/a should be fine')
  })

  it('false without fn.errors still fails, with an empty error list', () => {
    expect(messageOf(bodyValidatorReturning(() => false), 'body', {})).to.equal('body failed validation')
  })

  it('{ value } replaces the part with the coerced value', () => {
    expect(bodyValidatorReturning((data) => ({ value: { parsed: data } }))(1)).to.deep.equal({ value: { parsed: 1 } })
    expect(bodyValidatorReturning(() => ({ value: 0, error: undefined }))({})).to.deep.equal({ value: 0 })
  })

  it('{ error: Error } and a bare Error are used as the validation error', () => {
    const joiError = new Error('"a" is required')
    expect(bodyValidatorReturning(() => ({ error: joiError, value: {} }))({})).to.deep.equal({ error: joiError })
    expect(bodyValidatorReturning(() => joiError)({})).to.deep.equal({ error: joiError })
  })

  it('{ error: <errors in the default structure> } goes to the formatter', () => {
    const errors = [{ dataPath: '', message: "should have required property 'a'" }]
    expect(messageOf(bodyValidatorReturning(() => ({ error: errors })), 'body', {})).to.equal("body should have required property 'a'")
    expect(bodyValidatorReturning(() => ({ error: 'just text' }))({})).to.deep.equal({ errors: ['just text'] })
  })

  it('a truthy non-result (an object without error or value, a number) counts as valid', () => {
    expect(bodyValidatorReturning(() => ({}))({})).to.equal(undefined)
    expect(bodyValidatorReturning(() => 1)({})).to.equal(undefined)
  })

  it('§1.6 a Promise (asynchronous validation) is refused with a coded error, never taken as valid', () => {
    const error = thrown(() => bodyValidatorReturning(() => Promise.resolve(true))({}))
    expect(error.code).to.equal('ENC_ERR_SCH_ASYNC_RESULT')
    expect(error.message).to.contain('body validator of route POST /test').and.contain('preHandler')
  })
})

describe('§4.2 compiler inputs', () => {
  it('calls the validator compiler with { schema, method, url, httpPart } for each part, in order params, body, querystring, headers', () => {
    const inputs: ValidatorCompilerInput[] = []
    compile({ headers: { 'X-A': { type: 'string' } }, query: { q: { type: 'string' } }, body: { type: 'object' }, params: { id: { type: 'string' } } },
      { method: 'PATCH', url: '/things/:id', validatorCompiler: (input) => { inputs.push(input); return () => true } })
    expect(inputs.map((input) => input.httpPart)).to.deep.equal(['params', 'body', 'querystring', 'headers'])
    expect(inputs.every((input) => input.method === 'PATCH' && input.url === '/things/:id')).to.equal(true)
    expect(inputs[3].schema).to.deep.equal({ type: 'object', properties: { 'x-a': { type: 'string' } } })
  })

  it('compiles the body schema whatever the method (the runtime applies it to POST, PUT, PATCH only)', () => {
    expect(compile({ body: { type: 'object' } }, { method: 'GET' }).body).to.be.a('function')
  })

  it('calls the serializer compiler with { schema, method, url, httpStatus } per response key', () => {
    const inputs: SerializerCompilerInput[] = []
    const compiled = compile({ response: { 200: { a: { type: 'string' } }, '4XX': { type: 'object' } } },
      { method: 'GET', url: '/x', serializerCompiler: (input) => { inputs.push(input); return () => input.httpStatus } })
    expect(inputs.map(({ method, url, httpStatus }) => [method, url, httpStatus])).to.deep.equal([['GET', '/x', '200'], ['GET', '/x', '4xx']])
    expect(pickSerializer(compiled.response!, 404)!({})).to.equal('4xx')
  })

  it('builds no default compiler for a route without schemas', () => {
    const compiled = compile(null, { validatorCompiler: () => { throw new Error('not called') } })
    expect(compiled).to.deep.equal({ params: null, body: null, jsonBody: null, querystring: null, headers: null, response: null })
  })
})

describe('§3.2 partValidatorCompiler: a validator per request part', () => {
  const noCoercion = new Ajv({ coerceTypes: false })
  const arrays = new Ajv({ coerceTypes: 'array' })

  it('picks the validator by httpPart: an ajv instance or a compiler function', () => {
    const seen: string[] = []
    const headersCompiler: ValidatorCompiler = ({ schema, httpPart }) => { seen.push(String(httpPart)); return new Ajv({ coerceTypes: true }).compile(schema) }
    const compiler = partValidatorCompiler({ body: noCoercion, querystring: arrays, headers: headersCompiler })
    const { body, querystring, headers } = compile({
      body: { n: { type: 'integer' } }, querystring: { ids: { type: 'array', items: { type: 'integer' } } }, headers: { n: { type: 'integer' } },
    }, { validatorCompiler: compiler })
    expect(messageOf(body, 'body', { n: '1' })).to.equal('body.n should be integer')
    const query = { ids: '5' }
    expect(messageOf(querystring, 'querystring', query)).to.equal(null)
    expect(query).to.deep.equal({ ids: [5] })
    expect(messageOf(headers, 'headers', { n: '3' })).to.equal(null)
    expect(seen).to.deep.equal(['headers'])
  })

  it('§7 raises a coded error when httpPart is missing', () => {
    const compiler = partValidatorCompiler({ body: noCoercion })
    const error = thrown(() => compiler({ schema: { type: 'object' }, method: 'POST', url: '/p' }))
    expect(error.code).to.equal('ENC_ERR_SCH_PART_VALIDATOR_MISSING')
    expect(error.message).to.contain('no httpPart').and.contain('POST /p').and.contain('validators for body')
  })

  it('§7 raises a coded error when no validator exists for the httpPart, also at route compile', () => {
    const compiler = partValidatorCompiler({ body: noCoercion, querystring: arrays })
    const unknown = thrown(() => compiler({ schema: { type: 'object' }, method: 'GET', url: '/p', httpPart: 'cookies' }))
    expect(unknown.code).to.equal('ENC_ERR_SCH_PART_VALIDATOR_MISSING')
    expect(unknown.message).to.contain("httpPart 'cookies'").and.contain('body, querystring')
    const atCompile = thrown(() => compile({ params: { id: { type: 'string' } } }, { method: 'GET', url: '/p/:id', validatorCompiler: compiler }))
    expect(atCompile.code).to.equal('ENC_ERR_SCH_PART_VALIDATOR_MISSING')
    expect(atCompile.message).to.contain("httpPart 'params'").and.contain('GET /p/:id')
  })

  it('does not take inherited object keys for parts', () => {
    const compiler = partValidatorCompiler({})
    expect(thrown(() => compiler({ schema: {}, method: 'GET', url: '/', httpPart: 'toString' })).code).to.equal('ENC_ERR_SCH_PART_VALIDATOR_MISSING')
  })
})
