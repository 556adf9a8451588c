import { expect } from 'chai'
import { normalizeRouteSchema } from '../../src/runtime/schemas'
import { thrown } from './helpers'

const route = { method: 'POST', url: '/users', scopePath: 'root > users' }

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
    Object.freeze(value)
  }
  return value
}

describe('route schema normalization (§2.1)', () => {
  it('gives every part null when the route has no schema', () => {
    const empty = { body: null, querystring: null, params: null, headers: null, response: null }
    expect(normalizeRouteSchema(undefined, route)).to.deep.equal(empty)
    expect(normalizeRouteSchema(null, route)).to.deep.equal(empty)
    expect(normalizeRouteSchema({}, route)).to.deep.equal(empty)
  })

  it('expands the shorthand (properties at the top level) of every request part', () => {
    const name = { type: 'string' }
    const normalized = normalizeRouteSchema({ body: { name }, querystring: { q: name }, params: { id: name }, headers: { 'x-a': name } }, route)
    expect(normalized.body).to.deep.equal({ type: 'object', properties: { name } })
    expect(normalized.querystring).to.deep.equal({ type: 'object', properties: { q: name } })
    expect(normalized.params).to.deep.equal({ type: 'object', properties: { id: name } })
    expect(normalized.headers).to.deep.equal({ type: 'object', properties: { 'x-a': name } })
  })

  it('expands the response shorthand per status', () => {
    const normalized = normalizeRouteSchema({ response: { 200: { id: { type: 'integer' } }, '4xx': { type: 'string' } } }, route)
    expect(normalized.response).to.deep.equal({
      200: { type: 'object', properties: { id: { type: 'integer' } } },
      '4xx': { type: 'string' },
    })
  })

  const complete: Record<string, unknown> = {
    'a type': { type: 'object', required: ['a'] },
    'a type array': { type: ['object', 'null'] },
    'properties': { properties: { a: { type: 'string' } } },
    'a $ref': { $ref: 'user#' },
    'oneOf': { oneOf: [{ type: 'object' }, { type: 'null' }] },
    'anyOf': { anyOf: [{ type: 'object' }] },
    'allOf': { allOf: [{ type: 'object' }] },
    'not': { not: { type: 'string' } },
    'if': { if: { type: 'object' }, then: { required: ['a'] } },
    '$merge': { $merge: { source: { type: 'object' }, with: { required: ['a'] } } },
    '$patch': { $patch: { source: { type: 'object' }, with: [] } },
  }
  for (const [what, schema] of Object.entries(complete)) {
    it(`keeps a complete schema with ${what} as it is`, () => {
      expect(normalizeRouteSchema({ body: schema }, route).body).to.deep.equal(schema)
    })
  }

  it('reads a property named "type" (an object, not a type name) as shorthand', () => {
    const normalized = normalizeRouteSchema({ querystring: { type: { type: 'string' }, page: { type: 'integer' } } }, route)
    expect(normalized.querystring).to.deep.equal({ type: 'object', properties: { type: { type: 'string' }, page: { type: 'integer' } } })
  })

  it('takes query as an alias of querystring', () => {
    const normalized = normalizeRouteSchema({ query: { type: 'object', properties: { q: { type: 'string' } } } }, route)
    expect(normalized.querystring).to.deep.equal({ type: 'object', properties: { q: { type: 'string' } } })
  })

  it('refuses querystring and query together', () => {
    const error = thrown(() => normalizeRouteSchema({ query: { a: {} }, querystring: { b: {} } }, route))
    expect(error.code).to.equal('ENC_ERR_SCH_QUERY_ALIAS_CONFLICT')
    expect(error.message).to.contain('POST /users in scope root > users')
  })

  it('lower-cases header names in properties and required', () => {
    const normalized = normalizeRouteSchema({
      headers: { type: 'object', properties: { 'X-Api-Key': { type: 'string' }, Accept: { type: 'string' } }, required: ['X-Api-Key'] },
    }, route)
    expect(normalized.headers).to.deep.equal({
      type: 'object', properties: { 'x-api-key': { type: 'string' }, accept: { type: 'string' } }, required: ['x-api-key'],
    })
  })

  it('lower-cases header names of a shorthand headers part too, but leaves a $ref alone', () => {
    expect(normalizeRouteSchema({ headers: { Authorization: { type: 'string' } } }, route).headers)
      .to.deep.equal({ type: 'object', properties: { authorization: { type: 'string' } } })
    expect(normalizeRouteSchema({ headers: { $ref: 'Headers#' } }, route).headers).to.deep.equal({ $ref: 'Headers#' })
  })

  it('never mutates the user\'s objects', () => {
    const schema = deepFreeze({
      body: { name: { type: 'string' } },
      headers: { type: 'object', properties: { 'X-A': { type: 'string' } }, required: ['X-A'] },
      response: { '2XX': { id: { type: 'integer' } } },
    })
    const before = JSON.stringify(schema)
    const normalized = normalizeRouteSchema(schema, route)
    expect(JSON.stringify(schema)).to.equal(before)
    expect(normalized.body!.properties).to.not.equal(schema.body)
    expect(normalized.response).to.have.all.keys('2xx')
  })
})

describe('route schema refusals', () => {
  for (const [part, value] of [['body', 'string'], ['params', 12], ['headers', [{}]], ['querystring', true]] as const) {
    it(`refuses a ${part} part that is not an object, naming the route and the part`, () => {
      const error = thrown(() => normalizeRouteSchema({ [part]: value }, route))
      expect(error.code).to.equal('ENC_ERR_SCH_NOT_OBJECT')
      expect(error.message).to.contain(`${part} schema`).and.contain('POST /users in scope root > users')
    })
  }

  it('refuses a schema option that is not an object', () => {
    expect(thrown(() => normalizeRouteSchema('body', route)).code).to.equal('ENC_ERR_SCH_NOT_OBJECT')
  })

  it('refuses a response that is not a map, and a response entry that is not a schema', () => {
    expect(thrown(() => normalizeRouteSchema({ response: [] }, route)).code).to.equal('ENC_ERR_SCH_NOT_OBJECT')
    const error = thrown(() => normalizeRouteSchema({ response: { 200: null } }, route))
    expect(error.code).to.equal('ENC_ERR_SCH_NOT_OBJECT')
    expect(error.message).to.contain('response 200')
  })

  it('§1.6 refuses $async in a request part or a response, with the preHandler fix', () => {
    const inBody = thrown(() => normalizeRouteSchema({ body: { type: 'object', properties: { a: { type: 'object', $async: true } } } }, route))
    expect(inBody.code).to.equal('ENC_ERR_SCH_ASYNC')
    expect(inBody.message).to.contain('body schema').and.contain('/properties/a').and.contain('preHandler')
    const inResponse = thrown(() => normalizeRouteSchema({ response: { 200: { $async: true, type: 'object' } } }, route))
    expect(inResponse.code).to.equal('ENC_ERR_SCH_ASYNC')
  })

  it('accepts status codes 100-599, range keys in either case and default', () => {
    const ok = { type: 'object' }
    const normalized = normalizeRouteSchema({ response: { 100: ok, 204: ok, 599: ok, '1xx': ok, '5XX': ok, default: ok } }, route)
    expect(Object.keys(normalized.response!).sort()).to.deep.equal(['100', '1xx', '204', '599', '5xx', 'default'])
  })

  for (const key of ['600', '099', '20', '2x', '6xx', 'ok', 'DEFAULT', ' 200']) {
    it(`refuses the response key '${key}'`, () => {
      const error = thrown(() => normalizeRouteSchema({ response: { [key]: { type: 'object' } } }, route))
      expect(error.code).to.equal('ENC_ERR_SCH_RESPONSE_KEY')
      expect(error.message).to.contain(`'${key}'`)
    })
  }

  it('refuses the same range key in both cases', () => {
    const error = thrown(() => normalizeRouteSchema({ response: { '2xx': { type: 'object' }, '2XX': { type: 'object' } } }, route))
    expect(error.code).to.equal('ENC_ERR_SCH_RESPONSE_KEY')
  })
  it('refuses a response schema keyed by content type (Fastify 4+) at boot, naming the one-schema-per-status fix', () => {
    const item = { type: 'object', properties: { id: { type: 'string' } } }
    const error = thrown(() => normalizeRouteSchema({ response: { 200: { content: { 'application/json': { schema: item } } } } }, route))
    expect(error.code).to.equal('ENC_ERR_SCH_RESPONSE_CONTENT_TYPES')
    expect(error.message).to.contain('POST /users').and.contain('response 200').and.contain("'application/json'")
      .and.contain('response: { 200: ')
  })

  it('still reads a shorthand response with a property named content as that property', () => {
    const normalized = normalizeRouteSchema({ response: { 200: { content: { type: 'string' } } } }, route)
    expect(normalized.response!['200']).to.deep.include({ type: 'object', properties: { content: { type: 'string' } } })
  })
})
