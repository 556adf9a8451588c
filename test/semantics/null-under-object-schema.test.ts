// null sent (or returned) under a response schema whose root is an object or an array: Fastify
// 3.27.4's serializer throws there and answers 500; Enclave answers the same 500 with a logged,
// coded error naming the route, where fast-json-stringify 7 (Fastify 5) would write `{}` or `[]`:
// an empty record the client cannot tell from a real one (lead's decision, session 18).
import { expect } from 'chai'
import type { JsonSchema, Reply, Request } from '../../src'
import { build, recordingLogger } from '../runtime/helpers'

const GENERIC_500 = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }
const ITEM = { type: 'object', properties: { a: { type: 'number' } } }

/** The answer to GET /send (reply.send(null)) and GET /return (an async handler returning null) under `schema` for `status`. */
async function nullUnder(schema: JsonSchema, status = 200) {
  const logger = recordingLogger()
  const app = await build((root) => {
    root.addSchema({ $id: 'Item', ...ITEM })
    root.get('/send', { schema: { response: { [status]: schema } } }, (_req: Request, reply: Reply) => { reply.code(status).send(null) })
    root.get('/return', { schema: { response: { [status]: schema } } }, async (_req: Request, reply: Reply) => { reply.code(status); return null })
  }, { logger })
  const sent = await app.inject('/send')
  const returned = await app.inject('/return')
  await app.close()
  return { sent, returned, logger }
}

describe('semantics: null under an object or array response schema (Fastify 3.27.4 answers 500)', () => {
  it('reply.send(null) and a handler returning null under an object schema: a 500, logged with ENC_ERR_REPLY_SERIALIZATION naming the route', async () => {
    const { sent, returned, logger } = await nullUnder(ITEM)
    for (const res of [sent, returned]) {
      expect(res.statusCode).to.equal(500)
      expect(res.json()).to.deep.equal(GENERIC_500)
    }
    const errors = logger.entries.map((e) => e.obj.err as (Error & { code?: string }) | undefined).filter((e) => e?.code === 'ENC_ERR_REPLY_SERIALIZATION')
    expect(errors.map((e) => e?.message.split(':')[0])).to.deep.equal(['GET /send', 'GET /return'])
    expect(errors[0]?.message).to.contain('null is not an object').and.to.contain('nullable: true')
  })

  it('the same for required names, additionalProperties, patternProperties, a $ref to an object, a 201 and any array schema', async () => {
    const schemas: JsonSchema[] = [
      { type: 'object', required: ['a'] },
      { type: 'object', additionalProperties: true },
      { type: 'object', patternProperties: { '^x': { type: 'string' } } },
      { properties: { a: { type: 'number' } } },
      { $ref: 'Item#' },
      // Fastify 3 reads the target of a $ref, not a nullable beside it.
      { $ref: 'Item#', nullable: true } as JsonSchema,
      { type: 'array', items: { type: 'number' } },
      { type: 'array' },
    ]
    for (const schema of schemas) {
      const { sent, returned } = await nullUnder(schema)
      expect([sent.statusCode, returned.statusCode], JSON.stringify(schema)).to.deep.equal([500, 500])
    }
    const { sent } = await nullUnder(ITEM, 201)
    expect(sent.statusCode).to.equal(500)
  })

  it('a nullable object or array, or a type list with null, still writes null', async () => {
    const schemas: JsonSchema[] = [
      { ...ITEM, nullable: true } as JsonSchema,
      { type: ['object', 'null'], properties: { a: { type: 'number' } } } as JsonSchema,
      { type: 'array', nullable: true, items: { type: 'number' } } as JsonSchema,
      { type: 'null' },
    ]
    for (const schema of schemas) {
      const { sent, returned } = await nullUnder(schema)
      expect([sent.statusCode, sent.body, returned.statusCode, returned.body], JSON.stringify(schema)).to.deep.equal([200, 'null', 200, 'null'])
    }
  })

  it('an object schema with nothing to write ({ type: "object" }, empty properties, additionalProperties false) writes {}, as Fastify 3 does', async () => {
    for (const schema of [{ type: 'object' }, { type: 'object', properties: {} }, { type: 'object', additionalProperties: false }] as JsonSchema[]) {
      const { sent, returned } = await nullUnder(schema)
      expect([sent.statusCode, sent.body, returned.statusCode, returned.body], JSON.stringify(schema)).to.deep.equal([200, '{}', 200, '{}'])
    }
  })

  it('strings, numbers, integers and booleans write null as Fastify 3 does: "", 0, 0, false', async () => {
    const expected: Array<[JsonSchema, string]> = [[{ type: 'string' }, '""'], [{ type: 'number' }, '0'], [{ type: 'integer' }, '0'], [{ type: 'boolean' }, 'false']]
    for (const [schema, body] of expected) {
      const { sent, returned } = await nullUnder(schema)
      expect([sent.statusCode, sent.body, returned.statusCode, returned.body], JSON.stringify(schema)).to.deep.equal([200, body, 200, body])
    }
  })

  it('a route without a response schema sends null as the JSON null', async () => {
    const app = await build((root) => { root.get('/', (_req: Request, reply: Reply) => { reply.send(null) }) })
    const res = await app.inject('/')
    expect([res.statusCode, res.body]).to.deep.equal([200, 'null'])
    await app.close()
  })
})
