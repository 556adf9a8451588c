// Values at the edges of JSON and of query strings, each compared by hand with Fastify 3.27.4 and 5
// (session 20, hostile20): where the three agree Enclave is pinned to agree; where Enclave refuses
// what they pass on (an out-of-range number in a nested query, README "Infinity") it is a clean 400.
// Out-of-range literals in JSON bodies (1e309, 400 digits) are pinned in json-input.test.ts.
import { expect } from 'chai'
import qs from 'qs'
import { expectErrorShape, server } from './helpers'
import type { Scope } from '../../src/runtime'

const user = { type: 'object', properties: { id: { type: 'integer' }, score: { type: 'number' } } }

function userServer(): Scope {
  const app = server()
  app.put('/u', { schema: { body: user, response: { 200: user } } }, async (request) => request.body)
  app.put('/raw', async (request) => {
    const body = request.body as Record<string, unknown>
    return { body, negativeZero: Object.is(body.score, -0), keys: Object.keys(body) }
  })
  return app
}

const put = (app: Scope, url: string, payload: string) => app.inject({ method: 'PUT', url, headers: { 'content-type': 'application/json' }, payload })

describe('hardening: edge values in JSON bodies and query strings', () => {
  it('-0 against integer and number schemas is accepted and written 0; untyped, the handler sees -0 (as Fastify 3 and 5)', async () => {
    const app = userServer()
    const typed = await put(app, '/u', '{"id":-0,"score":-0}')
    expect([typed.statusCode, typed.body]).to.deep.equal([200, '{"id":0,"score":0}'])
    const raw = await put(app, '/raw', '{"score":-0}')
    expect(raw.json()).to.deep.equal({ body: { score: 0 }, negativeZero: true, keys: ['score'] })
  })

  it('integers past 2^53 and decimals a double rounds to an integer are accepted as the nearest double (as Fastify 3 and 5)', async () => {
    const app = userServer()
    expect((await put(app, '/u', '{"id":9007199254740993}')).body).to.equal('{"id":9007199254740992}')
    expect((await put(app, '/u', '{"id":1.0000000000000001}')).body).to.equal('{"id":1}')
    expect((await put(app, '/u', '{"id":1.5}')).statusCode).to.equal(400)
  })

  it('1e400 under a number schema is 400 ENC_ERR_CTP_INVALID_JSON (Fastify 5: 400; Fastify 3: 200 writing `Infinity`, invalid JSON)', async () => {
    const res = await put(userServer(), '/u', '{"score":1e400}')
    expect(res.statusCode).to.equal(400)
    expect(expectErrorShape(res.body, 400)).to.include({ code: 'ENC_ERR_CTP_INVALID_JSON' })
  })

  it('duplicate JSON keys: the last one wins, and it is the one validated, so an earlier value cannot slip past the schema (as Fastify 3 and 5)', async () => {
    const app = userServer()
    expect((await put(app, '/raw', '{"score":1,"score":2,"a":1,"a":{"b":1}}')).json()).to.deep.equal({ body: { score: 2, a: { b: 1 } }, negativeZero: false, keys: ['score', 'a'] })
    const smuggled = await put(app, '/u', '{"id":3,"id":"x"}')
    expect(smuggled.statusCode).to.equal(400)
    expectErrorShape(smuggled.body, 400)
    expect((await put(app, '/u', '{"id":"x","id":3}')).body).to.equal('{"id":3}')
  })

  it('__proto__, constructor and toString in query strings stay data with the default parser, and never reach Object.prototype', async () => {
    const app = server()
    app.get('/q', async (request) => ({ q: request.query, plain: Object.getPrototypeOf(request.query) === Object.prototype }))
    const res = await app.inject({ url: '/q?__proto__[polluted]=1&__proto__=x&constructor[prototype][polluted]=2&toString=3' })
    // Compared as text: an object literal's `__proto__: 'x'` would set a prototype, not a key. `plain`
    // false: the query object has a null prototype (as Fastify's querystring module gives).
    expect(res.body).to.equal('{"q":{"__proto__[polluted]":"1","__proto__":"x","constructor[prototype][polluted]":"2","toString":"3"},"plain":false}')
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined)
  })

  it('with qs as querystringParser (nested keys): prototype keys are dropped by qs, Object.prototype untouched; a nested 1e400 under an integer schema is a 400 (Fastify 3 and 5: 200 with null)', async () => {
    const app = server({ querystringParser: (text) => qs.parse(text) as Record<string, unknown> })
    app.get('/q', async (request) => ({ q: request.query }))
    app.get('/s', { schema: { querystring: { type: 'object', properties: { a: { type: 'object', properties: { n: { type: 'integer' } } } } } } }, async (request) => ({ q: request.query }))
    const polluting = await app.inject({ url: '/q?__proto__[polluted]=1&constructor[prototype][polluted]=2&a[__proto__][b]=1&a[constructor][prototype][x]=1' })
    expect(polluting.json()).to.deep.equal({ q: {} })
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined)
    expect(({} as Record<string, unknown>).x).to.equal(undefined)
    expect((await app.inject({ url: '/s?a[n]=5&a[__proto__][n]=x' })).json()).to.deep.equal({ q: { a: { n: 5 } } })
    const infinite = await app.inject({ url: '/s?a[n]=1e400' })
    expect(infinite.statusCode).to.equal(400)
    expectErrorShape(infinite.body, 400)
  })
})
