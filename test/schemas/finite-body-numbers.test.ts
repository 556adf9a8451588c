import { expect } from 'chai'
import Ajv from 'ajv'
import { createServer } from '../../src/runtime'
import type { Scope, ServerOptions } from '../../src/runtime'

const integer = { type: 'integer' }
const bodySchema = {
  type: 'object',
  properties: {
    i: integer,
    n: { type: 'number', minimum: 0 },
    o: { type: 'object', properties: { i: integer } },
    list: { type: 'array', items: { type: 'number' } },
    maybe: { type: ['number', 'null'] },
  },
}

function app(options: ServerOptions = {}): Scope {
  const server = createServer(options)
  server.post('/b', { schema: { body: bodySchema, response: { 200: bodySchema } } }, async (request) => request.body)
  server.post('/root', { schema: { body: { type: 'number' } } }, async (request) => ({ got: String(request.body) }))
  return server
}

function post(server: Scope, url: string, payload: string) {
  return server.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } })
}

const cases: Array<[string, string]> = [
  ['{"i":"Infinity"}', 'body/i should be integer'],
  ['{"n":"Infinity"}', 'body/n should be number'],
  ['{"o":{"i":"1e999"}}', 'body/o/i should be integer'],
  ['{"list":[1,"1e999"]}', 'body/list/1 should be number'],
  ['{"i":"-Infinity"}', 'body/i should be integer'],
  ['{"maybe":"Infinity"}', 'body/maybe should be number,null'],
  ['{"i":"0x' + 'f'.repeat(300) + '"}', 'body/i should be integer'],
]

describe('a JSON body string coerced to Infinity fails a number/integer schema with a 400 (body, nested, array item, -Infinity, 1e999)', () => {
  for (const [payload, message] of cases) {
    it(`${payload.slice(0, 40)} is a 400: ${message}`, async () => {
      const res = await post(app(), '/b', payload)
      expect(res.statusCode).to.equal(400)
      expect(res.json()).to.deep.equal({ statusCode: 400, error: 'Bad Request', message })
    })
  }

  it('a body that is itself a number schema: "Infinity" is a 400 naming the body', async () => {
    const res = await post(app(), '/root', '"Infinity"')
    expect(res.statusCode).to.equal(400)
    expect(res.json<{ message: string }>().message).to.equal('body should be number')
  })

  it('-Infinity under a minimum is not coerced: it fails the type, not the minimum (still a 400)', async () => {
    const res = await post(app(), '/b', '{"n":"-Infinity"}')
    expect(res.statusCode).to.equal(400)
    expect(res.json<{ message: string }>().message).to.equal('body/n should be number')
  })

  it('a finite numeric string still coerces, large ones included', async () => {
    const res = await post(app(), '/b', '{"i":"12","n":"1e308","o":{"i":"3"},"list":["1","2.5"],"maybe":null}')
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ i: 12, n: 1e308, o: { i: 3 }, list: [1, 2.5], maybe: null })
  })

  // No branch coerces "Infinity": a branch that accepts strings keeps the string the client sent.
  const combined: Array<[string, Record<string, unknown>]> = [
    ['anyOf with an untyped branch', { anyOf: [{ type: 'number', maximum: 5 }, { minimum: 0 }] }],
    ['not', { not: { type: 'number' } }],
    ['not around anyOf', { not: { anyOf: [{ type: 'number', maximum: 5 }] } }],
    ['if/then', { if: { type: 'number' }, then: { minimum: 0 } }],
  ]
  for (const [what, schema] of combined) {
    it(`under ${what}, "Infinity" never reaches the handler as a number: it stays the string sent`, async () => {
      const server = createServer()
      let seen: unknown = null
      server.post('/x', { schema: { body: { type: 'object', properties: { i: schema } } } }, async (request) => {
        seen = (request.body as { i: unknown }).i
        return { ok: true }
      })
      const res = await post(server, '/x', '{"i":"Infinity"}')
      expect(res.statusCode).to.equal(200)
      expect(seen).to.equal('Infinity')
    })
  }

  it("is the same under schemaCompilation: 'lazy'", async () => {
    const res = await post(app({ schemaCompilation: 'lazy' }), '/b', '{"o":{"i":"Infinity"}}')
    expect(res.statusCode).to.equal(400)
    expect(res.json<{ message: string }>().message).to.equal('body/o/i should be integer')
  })

  it('reaches the handler as request.validationError under attachValidation', async () => {
    const server = createServer()
    server.post('/a', { schema: { body: bodySchema }, attachValidation: true }, async (request) => {
      const error = request.validationError as { message: string; validation: Array<Record<string, unknown>>; validationContext: string }
      return { message: error.message, context: error.validationContext, keyword: error.validation[0].keyword, dataPath: error.validation[0].dataPath }
    })
    const res = await post(server, '/a', '{"list":["Infinity"]}')
    expect(res.json()).to.deep.equal({ message: 'body/list/0 should be number', context: 'body', keyword: 'type', dataPath: '/list/0' })
  })

  it('a custom schemaErrorFormatter gets a type error with a JSON-pointer dataPath', async () => {
    let seen: unknown[] = []
    const server = app({ schemaErrorFormatter: (errors, dataVar) => { seen = errors; return new Error(`${dataVar} refused`) } })
    const res = await post(server, '/b', '{"i":"Infinity"}')
    expect(res.statusCode).to.equal(400)
    expect(res.json<{ message: string }>().message).to.equal('body refused')
    expect(seen).to.deep.equal([{ keyword: 'type', dataPath: '/i', schemaPath: '#/properties/i/type', params: { type: 'integer' }, message: 'should be integer' }])
  })

  it('a number inside a shared schema reached by $ref is checked too', async () => {
    const server = createServer()
    server.addSchema({ $id: 'money', type: 'object', properties: { amount: { type: 'number' } }, definitions: { count: { type: 'integer' } } })
    server.post('/ref', { schema: { body: { type: 'object', properties: { m: { $ref: 'money#' }, c: { $ref: 'money#/definitions/count' } } } } }, async (request) => request.body)
    expect((await post(server, '/ref', '{"m":{"amount":"1e999"}}')).json<{ message: string }>().message).to.equal('body/m/amount should be number')
    expect((await post(server, '/ref', '{"c":"Infinity"}')).json<{ message: string }>().message).to.equal('body/c should be integer')
    expect((await post(server, '/ref', '{"m":{"amount":"2"},"c":"3"}')).json()).to.deep.equal({ m: { amount: 2 }, c: 3 })
  })

  it("ajv-errors' errorMessage for `type` also words this error", async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ajvErrors = require('ajv-errors')
    const server = createServer({ validator: { customOptions: { allErrors: true }, plugins: [ajvErrors] } })
    const schema = { type: 'object', properties: { i: { type: 'integer', errorMessage: { type: 'i must be a whole number' } } } }
    server.post('/e', { schema: { body: schema } }, async (request) => request.body)
    const res = await post(server, '/e', '{"i":"Infinity"}')
    expect(res.statusCode).to.equal(400)
    expect(res.json<{ message: string }>().message).to.equal('body/i i must be a whole number')
  })

  it("a custom validator compiler's body (its own ajv 6) is checked after it passes", async () => {
    const ajv = new Ajv({ coerceTypes: true, jsonPointers: true })
    const server = createServer()
    server.setValidatorCompiler(({ schema }) => ajv.compile(schema))
    server.post('/c', { schema: { body: bodySchema } }, async (request) => request.body)
    const bad = await post(server, '/c', '{"o":{"i":"Infinity"}}')
    expect(bad.statusCode).to.equal(400)
    expect(bad.json<{ message: string }>().message).to.equal('body/o/i should be a finite number')
    expect((await post(server, '/c', '{"o":{"i":"4"}}')).json()).to.deep.equal({ o: { i: 4 } })
  })

  it("composes with the user's own ajv processCode option: both apply", async () => {
    let calls = 0
    const server = createServer({ validator: { customOptions: { processCode: (code: string) => { calls++; return code } } } })
    server.post('/p', { schema: { body: bodySchema } }, async (request) => request.body)
    const res = await post(server, '/p', '{"i":"Infinity"}')
    expect(res.statusCode).to.equal(400)
    expect(calls).to.be.greaterThan(0)
  })

  it('leaves the route schema as given: no internal keyword in it, in openapi() or accepted in a schema', async () => {
    const schema = JSON.parse(JSON.stringify(bodySchema)) as Record<string, unknown>
    const server = createServer()
    server.post('/s', { schema: { body: schema } }, async () => ({}))
    await server.ready()
    expect(schema).to.deep.equal(bodySchema)
    expect(JSON.stringify(server.openapi())).to.not.contain('enclaveFinite')
    const other = createServer()
    other.post('/k', { schema: { body: { type: 'number', __enclaveFinite: true } } }, async () => ({}))
    let code: unknown = null
    await other.ready().catch((error: { code?: unknown }) => { code = error.code })
    expect(code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
  })
})
