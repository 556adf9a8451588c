import { expect } from 'chai'
import { createServer } from '../../src/runtime'

const numberSchema = { type: 'object', properties: { n: { type: 'integer' }, m: { type: 'number' }, list: { type: 'array', items: { type: 'number' } } } }

function app() {
  const server = createServer()
  server.get('/q', { schema: { querystring: numberSchema, response: { 200: numberSchema } } }, async (request) => request.query)
  server.get('/p/:n', { schema: { params: { n: { type: 'integer' } } } }, async (request) => request.params)
  return server
}

describe('numbers coerced from strings stay finite (ajv 6 coerces "Infinity" and "1e309" to Infinity)', () => {
  for (const url of ['/q?n=1e309', '/q?n=Infinity', '/q?m=-Infinity', '/q?list=1&list=1e999', '/p/1e309']) {
    it(`${url} is a 400 naming the part and the field, not a 500 from the serializer`, async () => {
      const res = await app().inject({ url })
      expect(res.statusCode).to.equal(400)
      expect(res.json<{ message: string }>().message).to.match(/^(querystring|params)\/(n|m|list\/1) should be (integer|number)$/)
    })
  }

  it('finite numbers, large ones included, are coerced and pass', async () => {
    const res = await app().inject({ url: '/q?n=12&m=1e308&list=1&list=2.5' })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ n: 12, m: 1e308, list: [1, 2.5] })
  })

  // The guard checks only the keys `properties` names as numeric when the schema says which
  // they are; these schemas put numbers elsewhere, and every key must be checked.
  const openSchemas: Array<[string, Record<string, unknown>]> = [
    ['patternProperties', { type: 'object', patternProperties: { '^n': { type: 'number' } } }],
    ['additionalProperties with a schema', { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: { type: 'number' } }],
    ['allOf', { type: 'object', allOf: [{ properties: { n1: { type: 'integer' } } }] }],
    ['a $ref to a shared schema', { $ref: 'numbers#' }],
  ]
  for (const [what, querystring] of openSchemas) {
    it(`a querystring schema with ${what} is guarded on every key`, async () => {
      const server = createServer()
      server.addSchema({ $id: 'numbers', type: 'object', properties: { n1: { type: 'number' } } })
      server.get('/open', { schema: { querystring } }, async (request) => request.query)
      const bad = await server.inject({ url: '/open?n1=1e309' })
      expect(bad.statusCode).to.equal(400)
      expect(bad.json<{ message: string }>().message).to.match(/^querystring\/n1 should be (integer|number)$/)
      const good = await server.inject({ url: '/open?n1=3' })
      expect(good.statusCode).to.equal(200)
    })
  }

  it('a property with a $ref inside properties is guarded', async () => {
    const server = createServer()
    server.addSchema({ $id: 'count', type: 'integer' })
    server.get('/ref', { schema: { querystring: { type: 'object', properties: { c: { $ref: 'count#' }, s: { type: 'string' } } } } }, async (request) => request.query)
    const res = await server.inject({ url: '/ref?s=x&c=Infinity' })
    expect(res.statusCode).to.equal(400)
    expect(res.json<{ message: string }>().message).to.equal('querystring/c should be integer')
  })
})
