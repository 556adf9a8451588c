// A thrown value whose properties throw when read (a getter, a Proxy trap): the error path reads
// statusCode, message and the rest, and before this a second throw there, inside a promise
// callback, was an unhandled rejection (the end of a Node process) and a request never answered.
import { expect } from 'chai'
import { expectErrorShape, GENERIC_500, recordingLogger, server } from './helpers'

const getterThrows = (): unknown => ({ get statusCode(): number { throw new Error('getter') } })
const trapThrows = (): unknown => new Proxy({}, { get() { throw new Error('trap') } })
const errorWithGetter = (): unknown => Object.defineProperty(new Error('e'), 'code', { get() { throw new Error('code getter') }, enumerable: true })
// The error's headers go on the reply before any error handler runs: they are read too.
const headersUnlistable = (): unknown => Object.assign(new Error('e'), { statusCode: 400, headers: new Proxy({}, { ownKeys() { throw new Error('trap') } }) })
const headerGetterThrows = (): unknown => Object.assign(new Error('e'), { statusCode: 400, headers: { get 'x-a'(): string { throw new Error('getter') } } })
const headerTextThrows = (): unknown => Object.assign(new Error('e'), { statusCode: 400, headers: { 'x-a': [{ toString(): string { throw new Error('toString') } }] } })
const revokedProxy = (): unknown => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy }

describe('hardening: a thrown value whose properties throw when read', () => {
  const values: ReadonlyArray<readonly [string, () => unknown]> = [
    ['an object whose statusCode getter throws', getterThrows],
    ['a Proxy whose get trap throws', trapThrows],
    ['an Error with an enumerable getter that throws', errorWithGetter],
    ['a revoked Proxy', revokedProxy],
    ['an Error whose headers object cannot be listed (a Proxy ownKeys trap)', headersUnlistable],
    ['an Error with a header whose getter throws', headerGetterThrows],
    ['an Error with a header value whose toString() throws', headerTextThrows],
  ]
  for (const [label, make] of values) {
    for (const where of ['handler', 'onRequest hook', 'error handler'] as const) {
      it(`${label}, from a ${where}: the generic 500 at once, logged as ENC_ERR_REPLY_UNREADABLE_THROWN`, async () => {
        const logger = recordingLogger()
        const app = server({ logger })
        if (where === 'handler') app.get('/x', async () => { throw make() })
        else if (where === 'onRequest hook') app.get('/x', { onRequest: async () => { throw make() } }, async () => 'never')
        else app.get('/x', { errorHandler: async () => { throw make() } }, async () => { throw new Error('first') })
        const res = await app.inject({ url: '/x' })
        expect(res.statusCode).to.equal(500)
        expectErrorShape(res.body, 500)
        expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
        const err = logger.entries.find((e) => e.level === 'error')?.obj.err as Error & { code?: string }
        expect(err.code).to.equal('ENC_ERR_REPLY_UNREADABLE_THROWN')
      })
    }
  }

  it('the error handlers get the replacement error, whose message says which property threw', async () => {
    let seen: (Error & { code?: string }) | undefined
    const app = server()
    app.get('/x', { errorHandler: (error, _request, reply) => { seen = error; reply.code(500).send({ handled: true }) } }, async () => { throw getterThrows() })
    const res = await app.inject({ url: '/x' })
    expect(JSON.parse(res.body)).to.deep.equal({ handled: true })
    expect(seen?.code).to.equal('ENC_ERR_REPLY_UNREADABLE_THROWN')
    expect(seen?.message).to.contain("'statusCode'")
  })

  it('from an onResponse hook (after the answer): logged as the same code, the 200 unaffected', async () => {
    const logger = recordingLogger()
    const app = server({ logger })
    app.get('/x', { onResponse: async () => { throw trapThrows() } }, async () => ({ ok: true }))
    const res = await app.inject({ url: '/x' })
    expect(res.statusCode).to.equal(200)
    await new Promise((resolve) => setImmediate(resolve))
    const err = logger.entries.find((e) => e.level === 'error')?.obj.err as Error & { code?: string }
    expect(err.code).to.equal('ENC_ERR_REPLY_UNREADABLE_THROWN')
  })

  it('a readable thrown value is passed on untouched (the same object reaches the error handler)', async () => {
    const thrown = { statusCode: 409, message: 'taken', detail: 'x' }
    let seen: unknown
    const app = server()
    app.get('/x', { errorHandler: (error, _request, reply) => { seen = error; reply.code(409).send({}) } }, async () => { throw thrown })
    await app.inject({ url: '/x' })
    expect(seen).to.equal(thrown)
  })
})
