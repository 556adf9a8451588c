// With `allErrors: true` ajv reports every failing keyword of every item, and a 400 that repeats
// them all turns a small body into a huge answer and a larger log line: 60 KB of `[{},{},...]`
// against items with ten required properties is 200,000 errors, a 10 MB 400 and a 32 MB log line
// (Fastify 3: 10 MB and 63 MB, Fastify 5 the same). The message and the logged `err.validation`
// list the first 100 and count the rest (README "Where Enclave deliberately differs").
import { Writable } from 'node:stream'
import { expect } from 'chai'
import { expectErrorShape, server } from './helpers'
import { ajv8CompilersFactory } from '../../src'

const REQUIRED = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet']
const schema = { body: { type: 'array', items: { type: 'object', required: REQUIRED } } }
const allErrors = { validator: { customOptions: { allErrors: true } } }
const emptyItems = (count: number): string => JSON.stringify(Array.from({ length: count }, () => ({})))

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = []
  return { lines, stream: new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done() } }) }
}

describe('hardening: the number of validation errors a 400 repeats (allErrors: true)', function () {
  this.timeout(30_000)
  const post = (app: ReturnType<typeof server>, payload: string) =>
    app.inject({ method: 'POST', url: '/x', payload, headers: { 'content-type': 'application/json' } })

  it('200,000 errors from a 60 KB body: a 400 listing the first 100 and counting the rest, the answer stays small', async () => {
    const app = server(allErrors)
    app.post('/x', { schema }, async () => ({}))
    const res = await post(app, emptyItems(20_000))
    expect(res.statusCode).to.equal(400)
    expect(res.body.length).to.be.below(20_000)
    const { message } = expectErrorShape(res.body, 400) as { message: string }
    expect(message.startsWith("body/0 should have required property 'alpha', body/0 should have required property 'bravo'")).to.equal(true)
    expect(message.endsWith("body/9 should have required property 'juliet', and 199900 more errors")).to.equal(true)
    expect(message.split(' should ').length - 1).to.equal(100)
  })

  it('exactly 100 errors are listed whole; 110 count the ten left over, 101 the one', async () => {
    const app = server(allErrors)
    app.post('/x', { schema }, async () => ({}))
    app.post('/y', { schema: { body: { type: 'array', items: { type: 'object', required: [...REQUIRED, 'kilo'] } } } }, async () => ({}))
    const hundred = expectErrorShape((await post(app, emptyItems(10))).body, 400).message as string
    expect(hundred.endsWith("body/9 should have required property 'juliet'")).to.equal(true)
    expect(hundred).not.to.include('more error')
    const res = await app.inject({ method: 'POST', url: '/y', payload: emptyItems(10), headers: { 'content-type': 'application/json' } })
    const over = expectErrorShape(res.body, 400).message as string
    expect(over.split(' should ').length - 1).to.equal(100)
    expect(over.endsWith(', and 10 more errors')).to.equal(true)
    const one = await app.inject({ method: 'POST', url: '/y', payload: JSON.stringify([...Array.from({ length: 9 }, () => ({})), { charlie: 1, delta: 1, echo: 1, foxtrot: 1, golf: 1, hotel: 1, india: 1, juliet: 1, kilo: 1 }]), headers: { 'content-type': 'application/json' } })
    expect((expectErrorShape(one.body, 400).message as string).endsWith(', and 1 more error')).to.equal(true)
  })

  it('the error log line of that 400 stays small: 100 validation entries, the rest counted in validationOmitted', async () => {
    const { lines, stream } = capture()
    const app = server({ ...allErrors, logger: { level: 'info', stream } })
    app.post('/x', { schema }, async () => ({}))
    expect((await post(app, emptyItems(20_000))).statusCode).to.equal(400)
    const errorLine = lines.find((l) => l.includes('"err"')) as string
    // Generous: 100 entries of ~200 bytes each; the unbounded line was 32 MB.
    expect(errorLine.length).to.be.below(100_000)
    const line = JSON.parse(errorLine) as { err: { message: string; validation: unknown[]; validationOmitted: number } }
    expect(line.err.validation).to.have.length(100)
    expect(line.err.validationOmitted).to.equal(199_900)
    expect(line.err.message).to.include('and 199900 more errors')
  })

  it('error.validation still holds every error for an error handler, and a schemaErrorFormatter of the app is given them all', async () => {
    let seenByHandler = -1
    let seenByFormatter = -1
    const app = server({ ...allErrors, schemaErrorFormatter: (errors) => { seenByFormatter = errors.length; return new Error(`${errors.length} errors`) } })
    app.setErrorHandler((error, _request, reply) => {
      seenByHandler = (error as { validation?: unknown[] }).validation?.length ?? -1
      reply.code(400).send({ statusCode: 400, code: 'APP_INVALID', error: 'Bad Request', message: error.message })
    })
    app.post('/x', { schema }, async () => ({}))
    const res = await post(app, emptyItems(2_000))
    expect(expectErrorShape(res.body, 400).message).to.equal('20000 errors')
    expect(seenByFormatter).to.equal(20_000)
    expect(seenByHandler).to.equal(20_000)
  })

  it('with ajv 8 (ajv8CompilersFactory) the same: 2,000 errors, 100 listed ("must"), the rest counted', async () => {
    const app = server({ ...allErrors, schemaController: { compilersFactory: ajv8CompilersFactory() } })
    app.post('/x', { schema: { body: { type: 'array', items: { type: 'object', required: ['a', 'b'] } } } }, async () => ({}))
    const res = await post(app, emptyItems(1_000))
    expect(res.body.length).to.be.below(20_000)
    const message = expectErrorShape(res.body, 400).message as string
    expect(message.endsWith("body/49 must have required property 'b', and 1900 more errors")).to.equal(true)
  })

  it('without allErrors (the default) one error is reported, as before', async () => {
    const app = server()
    app.post('/x', { schema }, async () => ({}))
    const res = await post(app, emptyItems(20_000))
    expect(expectErrorShape(res.body, 400).message).to.equal("body/0 should have required property 'alpha'")
  })
})
