// Money through the serializer, as a shop sends it: decimal strings keep their digits, numbers are
// written as JavaScript's shortest round-trip form (19.99 stays 19.99, never 19.990000000000002),
// minor units are integers, and a BigInt is written with every digit where a schema says integer. Where nothing says how to write a BigInt (no response schema, or zod's serializer, which
// is JSON.stringify) the answer is a 500 with the generic body and the coded cause in the log, never
// a crash. docs/recipes-ecommerce.md "Money".
import { expect } from 'chai'
import { z } from 'zod'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { createServer } from '../../src'

const line = {
  type: 'object', additionalProperties: false,
  properties: { unit: { type: 'number' }, price: { type: 'string' }, minor: { type: 'integer' }, total: { type: 'string' }, big: { type: 'integer' }, bigText: { type: 'string' } },
} as const

function logged(lines: Array<{ err?: { code?: string; message?: string } }>) {
  return { level: 'error', stream: { write: (text: string) => { lines.push(JSON.parse(text)) } } }
}

describe('e-commerce money: decimal strings, minor units and BigInts through the response serializer', () => {
  it('writes 19.99 as 19.99, decimal strings with their trailing zeros, and sums done in minor units exactly; a BigInt past 2^53 keeps every digit under integer, its toString() under string', async () => {
    const app = createServer()
    const minor = [1999, 1999, 1999].reduce((sum, cents) => sum + cents, 0)   // 0.1 + 0.2 problems stay out of money: add integers
    app.get('/line', { schema: { response: { 200: line } } }, async () => ({
      unit: 19.99, price: '19.90', minor, total: `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`,
      big: 12345678901234567891n, bigText: 12345678901234567891n.toString(),   // the types take a BigInt under integer only
    }))
    const res = await app.inject('/line')
    expect(res.body).to.equal('{"unit":19.99,"price":"19.90","minor":5997,"total":"59.97","big":12345678901234567891,"bigText":"12345678901234567891"}')
    await app.close()
  })

  it('a BigInt with no schema to say how to write it is a 500 with the generic body, logged as ENC_ERR_REPLY_SERIALIZATION; the server goes on serving', async () => {
    const lines: Array<{ err?: { code?: string; message?: string } }> = []
    const app = createServer({ logger: logged(lines) })
    app.get('/raw', async () => ({ minor: 1999n }))
    app.get('/ok', async () => ({ minor: 1999 }))
    const res = await app.inject('/raw')
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    expect(lines.map((entry) => entry.err?.code)).to.deep.equal(['ENC_ERR_REPLY_SERIALIZATION'])
    expect(lines[0]!.err!.message).to.contain('BigInt')
    expect((await app.inject('/ok')).body).to.equal('{"minor":1999}')
    await app.close()
  })

  it('under zod\'s serializer a z.bigint() answer is the same logged 500 (zod writes with JSON.stringify); z.string() money keeps its digits', async () => {
    const lines: Array<{ err?: { code?: string; message?: string } }> = []
    const app = createServer({ logger: logged(lines) })
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
    app.get('/zod-big', { schema: { response: { 200: z.object({ minor: z.bigint() }) } } }, async () => ({ minor: 1999n }))
    app.get('/zod-text', { schema: { response: { 200: z.object({ price: z.string(), unit: z.number() }) } } }, async () => ({ price: '19.90', unit: 19.99 }))
    const big = await app.inject('/zod-big')
    expect(big.statusCode).to.equal(500)
    expect(big.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    expect(lines.map((entry) => entry.err?.code)).to.deep.equal(['ENC_ERR_REPLY_SERIALIZATION'])
    expect((await app.inject('/zod-text')).body).to.equal('{"price":"19.90","unit":19.99}')
    await app.close()
  })
})
