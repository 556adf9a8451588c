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
      expect(res.json<{ message: string }>().message).to.match(/^(querystring|params)\/(n|m|list) should be a finite number$/)
    })
  }

  it('finite numbers, large ones included, are coerced and pass', async () => {
    const res = await app().inject({ url: '/q?n=12&m=1e308&list=1&list=2.5' })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ n: 12, m: 1e308, list: [1, 2.5] })
  })
})
