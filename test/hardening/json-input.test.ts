// Hostile JSON bodies: media-type confusion, prototype poisoning in every spelling, and depth.
// The rule under test: no body, however shaped, reaches a 5xx or a crash with the defaults.
import { expect } from 'chai'
import { expectErrorShape, recordingLogger, server, GENERIC_500 } from './helpers'
import type { Scope } from '../../src/runtime'

const nest = (levels: number, inner: string): string => '{"c":'.repeat(levels) + inner + '}'.repeat(levels)
const nestArrays = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels)

/** A recursive schema: the validator and the serializer both walk as deep as the data goes. */
const tree = { $id: 'tree', type: 'object', properties: { c: { $ref: 'tree#' }, v: { type: 'integer' } } }

function echoServer(options: Parameters<typeof server>[0] = {}): Scope {
  const app = server(options)
  app.addSchema(tree)
  app.post('/echo', async (request) => ({ body: request.body, type: typeof request.body }))
  app.post('/tree', { schema: { body: { $ref: 'tree#' }, response: { 200: { $ref: 'tree#' } } } }, async (request) => request.body)
  return app
}

async function post(app: Scope, url: string, type: string, payload: string): Promise<{ statusCode: number; body: string }> {
  return app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload })
}

describe('hardening: JSON input', () => {
  describe('media types: exact type/subtype before ";", case-insensitive', () => {
    for (const type of ['Application/JSON; Charset=UTF-8', 'APPLICATION/JSON', 'application/json ; charset=utf-8', 'application/vnd.api+json']) {
      it(`'${type}' is JSON: parsed and validated`, async () => {
        const app = echoServer()
        const res = await post(app, '/echo', type, '{"a":1}')
        expect(res.statusCode).to.equal(200)
        expect(JSON.parse(res.body)).to.deep.equal({ body: { a: 1 }, type: 'object' })
      })
    }
    for (const type of ['text/plain; application/json', 'application/jsonx', 'application/json\tx', 'application/json x',
      'application/json/x', 'xapplication/json', 'application/', '/json', 'application/json,text/plain']) {
      it(`'${type.replace('\t', '\\t')}' is not JSON: never reaches the JSON parser or a body schema`, async () => {
        const app = echoServer()
        // A JSON-looking body with a poisoned key: the JSON parser would refuse it with 400, so a
        // 400 here would mean that the type was taken for JSON.
        const res = await post(app, '/tree', type, '{"__proto__":{"x":1},"c":1}')
        if (type.startsWith('text/plain')) {
          // text/plain has its own parser: the body is a string, and the body schema still applies
          // to it (issue 12 §1: every parsed body is validated), so a string is no object.
          expect(res.statusCode).to.equal(400)
          expect(expectErrorShape(res.body, 400).message).to.equal('body should be object')
          return
        }
        expect(res.statusCode).to.equal(415)
        expect(expectErrorShape(res.body, 415).code).to.equal('ENC_ERR_CTP_INVALID_MEDIA_TYPE')
      })
    }
  })

  describe('prototype poisoning is refused in every spelling', () => {
    const poisoned: ReadonlyArray<readonly [string, string]> = [
      ['plain __proto__', '{"__proto__":{"admin":true}}'],
      ['escaped \\u005f_proto__', '{"\\u005f_proto__":{"admin":true}}'],
      ['fully escaped', '{"\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f":{"admin":true}}'],
      ['nested in an object', '{"a":{"b":{"__proto__":{"admin":true}}}}'],
      ['nested in an array', '{"a":[1,{"__proto__":{"admin":true}}]}'],
      ['constructor.prototype', '{"constructor":{"prototype":{"admin":true}}}'],
      ['escaped constructor.prototype', '{"\\u0063onstructor":{"prototyp\\u0065":{"admin":true}}}'],
    ]
    for (const [label, body] of poisoned) {
      it(`${label}: 400 ENC_ERR_CTP_FORBIDDEN_PROTO, the handler never runs`, async () => {
        const app = echoServer()
        const res = await post(app, '/echo', 'application/json', body)
        expect(res.statusCode).to.equal(400)
        expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_CTP_FORBIDDEN_PROTO')
        expect(({} as Record<string, unknown>).admin).to.equal(undefined)
      })
    }

    it('100,000 levels deep: refused (by the depth limit first) without a stack overflow', async () => {
      const app = echoServer({ bodyLimit: 10_000_000 })
      const res = await post(app, '/echo', 'application/json', nest(100_000, '{"\\u005f_proto__":{"admin":true}}'))
      expect(res.statusCode).to.equal(400)
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_CTP_JSON_TOO_DEEP')
    })

    it('100,000 levels deep with the depth limit raised past it: still refused as poisoning, still a 400', async () => {
      const app = echoServer({ bodyLimit: 10_000_000, maxJsonDepth: 200_000 })
      const res = await post(app, '/echo', 'application/json', nest(100_000, '{"\\u005f_proto__":{"admin":true}}'))
      expect(res.statusCode).to.equal(400)
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_CTP_FORBIDDEN_PROTO')
    })

    it('a key named constructor without a prototype inside is data, not poisoning', async () => {
      const app = echoServer()
      const res = await post(app, '/echo', 'application/json', '{"constructor":"x","proto":1}')
      expect(res.statusCode).to.equal(200)
    })
  })

  describe('numbers a double cannot hold', () => {
    const user = { type: 'object', properties: { id: { type: 'integer' }, score: { type: 'number' } } }
    function userServer(): Scope {
      const app = server()
      app.put('/u', { schema: { body: user, response: { 200: user } } }, async (request) => request.body)
      return app
    }

    // JSON.parse makes these ±Infinity, which passes `integer` in ajv 6 and then fails the
    // response serializer: a 500 any client could cause, or a silent null.
    for (const literal of ['1e309', '-1e999', '1E+400', '9'.repeat(400)]) {
      it(`${literal.length > 20 ? `${literal.length} digits` : literal} in a JSON body is 400 ENC_ERR_CTP_INVALID_JSON, not a 500`, async () => {
        const res = await userServer().inject({ method: 'PUT', url: '/u', headers: { 'content-type': 'application/json' }, payload: `{"id":${literal},"score":1}` })
        expect(res.statusCode).to.equal(400)
        expect(expectErrorShape(res.body, 400)).to.include({ code: 'ENC_ERR_CTP_INVALID_JSON' })
      })
    }

    it('the largest doubles, tiny exponents and strings that look like exponents are accepted', async () => {
      const app = userServer()
      for (const body of ['{"id":1,"score":1e308}', '{"id":1,"score":1e-400}', '{"id":1,"score":1.7976931348623157e308}', '{"id":1,"name":"e123 1e999 ' + '9'.repeat(400) + '"}']) {
        const res = await app.inject({ method: 'PUT', url: '/u', headers: { 'content-type': 'application/json' }, payload: body })
        expect(res.statusCode, body.slice(0, 60)).to.equal(200)
      }
    })

    // ajv 6's coerceTypes turns the strings "Infinity" and "1e309" from params and query strings
    // into Infinity, which passes `integer`; echoed into an integer response field it would be a
    // serializer 500 (schemas/finite-guard.ts refuses it).
    for (const url of ['/q/1?n=1e309', '/q/1?n=-Infinity', '/q/1e309', '/q/Infinity']) {
      it(`a params/query string coerced to Infinity is a 400, not a 500: ${url}`, async () => {
        const app = server()
        const n = { type: 'object', properties: { n: { type: 'integer' } } }
        app.get('/q/:p', { schema: { params: { p: { type: 'number' } }, querystring: n, response: { 200: { type: 'object', properties: { p: { type: 'integer' }, n: { type: 'integer' } } } } } },
          async (request) => ({ p: request.params.p, n: request.query.n }))
        const res = await app.inject({ url })
        expect(res.statusCode).to.equal(400)
        expectErrorShape(res.body, 400)
      })
    }
  })

  describe('nesting depth: maxJsonDepth (default 1000) -> 400, so no depth reaches a 5xx', () => {
    it('the default allows 1000 levels and refuses 1001, objects and arrays alike', async () => {
      const app = echoServer()
      expect((await post(app, '/echo', 'application/json', nestArrays(1000))).statusCode).to.equal(200)
      for (const body of [nestArrays(1001), nest(1001, '{}')]) {
        const res = await post(app, '/echo', 'application/json', body)
        expect(res.statusCode).to.equal(400)
        expect(expectErrorShape(res.body, 400)).to.deep.equal({ statusCode: 400, code: 'ENC_ERR_CTP_JSON_TOO_DEEP', error: 'Bad Request', message: 'Body nests deeper than 1000 levels' })
      }
    })

    it('brackets inside strings (escaped quotes too) do not count as depth', async () => {
      const app = echoServer({ maxJsonDepth: 3 })
      const res = await post(app, '/echo', 'application/json', JSON.stringify({ s: '[[[[{{{{\\"[[[[' }))
      expect(res.statusCode).to.equal(200)
    })

    it('+json types get the same limit', async () => {
      const app = echoServer()
      const res = await post(app, '/echo', 'application/problem+json', nestArrays(5000))
      expect(res.statusCode).to.equal(400)
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_CTP_JSON_TOO_DEEP')
    })

    it('at the deepest allowed level a recursive schema validates and serializes: 200, not a stack overflow', async () => {
      const app = echoServer()
      const res = await post(app, '/tree', 'application/json', nest(999, '{"v":1}'))
      expect(res.statusCode).to.equal(200)
      expect(res.body).to.equal(nest(999, '{"v":1}'))
    })

    it('one level more is the 400, before the validator ever runs', async () => {
      const app = echoServer()
      const res = await post(app, '/tree', 'application/json', nest(1000, '{"v":1}'))
      expect(res.statusCode).to.equal(400)
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_CTP_JSON_TOO_DEEP')
    })

    it('with the limit raised far past the stack, a recursive validator overflows into a logged 500, not a crash', async () => {
      const logger = recordingLogger()
      const app = echoServer({ bodyLimit: 10_000_000, maxJsonDepth: 200_000, logger })
      const res = await post(app, '/tree', 'application/json', nest(100_000, '{}'))
      expect(res.statusCode).to.equal(500)
      expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
      expect(logger.entries.some((e) => e.level === 'error' && /call stack/.test(String((e.obj.err as Error | undefined)?.message)))).to.equal(true)
      // And the server still answers.
      expect((await post(app, '/tree', 'application/json', '{"v":1}')).statusCode).to.equal(200)
    })

    for (const [label, schema] of [['JSON.stringify', undefined], ['a recursive response schema', { 200: { $ref: 'tree#' } }]] as const) {
      it(`a handler returning 100,000 levels through ${label}: a logged 500 with the generic body`, async () => {
        const logger = recordingLogger()
        const app = server({ logger })
        app.addSchema(tree)
        app.get('/deep', { schema: schema === undefined ? {} : { response: schema } }, async () => {
          let value: Record<string, unknown> = {}
          for (let i = 0; i < 100_000; i++) value = { c: value }
          return value
        })
        const res = await app.inject({ url: '/deep' })
        expect(res.statusCode).to.equal(500)
        expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
        const logged = logger.entries.find((e) => e.level === 'error')
        expect((logged?.obj.err as { code?: string }).code).to.equal('ENC_ERR_REPLY_SERIALIZATION')
        expect(logged?.obj.reqId).to.be.a('string')
      })
    }
  })
})
