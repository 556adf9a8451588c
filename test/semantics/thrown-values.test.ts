// Issue 12 §2 "Errors": what a stage throws reaches the error handlers as thrown; undefined and
// null become Fastify 3's coded 500 (FST_ERR_SEND_UNDEFINED_ERR there, ENC_ERR_REPLY_UNDEFINED_ERROR
// here); reply.send() inside onError throws; a failed onResponse hook is logged as Fastify logs it.
import { expect } from 'chai'
import type { Reply, Request } from '../../src'
import { build, deferred, recordingLogger } from '../runtime/helpers'

const undefinedErrorReply = { statusCode: 500, code: 'ENC_ERR_REPLY_UNDEFINED_ERROR', error: 'Internal Server Error', message: 'Undefined error has occurred' }

describe('semantics: thrown values and onError (issue 12 §2)', () => {
  for (const [label, value] of [['undefined', undefined], ['null', null]] as const) {
    it(`a hook that rejects with ${label} answers the coded 500 'Undefined error has occurred'`, async () => {
      const app = await build((root) => {
        root.addHook('preValidation', async () => { throw value })
        root.get('/', async () => 'not reached')
      })
      const res = await app.inject('/')
      expect(res.statusCode).to.equal(500)
      expect(res.json()).to.deep.equal(undefinedErrorReply)
    })
  }

  it('a handler or a sync hook that throws null gives the error handler an Error with the undefined-error code', async () => {
    const seen: unknown[] = []
    const app = await build((root) => {
      root.setErrorHandler((error, _request, reply) => { seen.push(error); reply.send(error) })
      root.get('/handler', () => { throw null })
      root.get('/hook', { onRequest: ((_req: Request, _reply: Reply, done: () => void) => { void done; throw undefined }) as never }, () => 'not reached')
    })
    for (const url of ['/handler', '/hook']) {
      const res = await app.inject(url)
      expect(res.json(), url).to.deep.equal(undefinedErrorReply)
    }
    expect(seen).to.have.length(2)
    for (const error of seen) {
      expect(error).to.be.instanceOf(Error)
      expect((error as { code?: string }).code).to.equal('ENC_ERR_REPLY_UNDEFINED_ERROR')
    }
  })

  it('a thrown string or plain object reaches the error handler as it was thrown', async () => {
    const thrownObject = { myError: 'kaboom' }
    const seen: unknown[] = []
    const app = await build((root) => {
      root.setErrorHandler(async (error, _request, reply) => { seen.push(error); reply.code(500).send({ handled: true }) })
      root.get('/string', { preHandler: async () => { throw 'this is an error' } }, async () => 'not reached')
      root.get('/object', { preHandler: async () => { throw thrownObject } }, async () => 'not reached')
    })
    expect((await app.inject('/string')).json()).to.deep.equal({ handled: true })
    expect((await app.inject('/object')).json()).to.deep.equal({ handled: true })
    expect(seen[0]).to.equal('this is an error')
    expect(seen[1]).to.equal(thrownObject)
  })

  it('without an error handler, a thrown string or plain object without a 4xx status answers the generic 500 (README differences)', async () => {
    const app = await build((root) => {
      root.get('/string', { preValidation: async () => { throw 'secret string' } }, async () => 'not reached')
      root.get('/object', { onRequest: async () => { throw { myError: 'kaboom', message: 'i am an error' } } }, async () => 'not reached')
    })
    for (const url of ['/string', '/object']) {
      const res = await app.inject(url)
      expect(res.statusCode).to.equal(500)
      expect(res.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    }
  })

  it('reply.send() inside an onError hook throws ENC_ERR_REPLY_SEND_INSIDE_ON_ERROR, and the error reply goes on', async () => {
    const caught: unknown[] = []
    const app = await build((root) => {
      root.addHook('onError', ((_request: Request, reply: Reply, _error: unknown, done: () => void) => {
        try { reply.send({ hijacked: true }) } catch (error) { caught.push(error) }
        done()
      }) as never)
      root.get('/', () => { throw new Error('kaboom') })
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    expect(caught).to.have.length(1)
    expect((caught[0] as { code?: string }).code).to.equal('ENC_ERR_REPLY_SEND_INSIDE_ON_ERROR')
  })

  it('a value the handler returns while async onError hooks run is logged and dropped, never an uncaught throw', async () => {
    const logger = recordingLogger()
    const release = deferred()
    const app = await build((root) => {
      root.addHook('onError', async () => { await release.promise })
      root.get('/', (_request: Request, reply: Reply) => {
        reply.send(new Error('kaboom'))
        setImmediate(() => release.resolve())
        return 'late value'
      })
    }, { logger })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(500)
    const entry = logger.entries.find((e) => e.msg === 'a payload arrived while onError hooks ran; ignored')
    expect((entry?.obj.err as { code?: string }).code).to.equal('ENC_ERR_REPLY_SEND_INSIDE_ON_ERROR')
  })

  it("a failing onResponse hook is logged at error level as 'request errored' (Fastify 3's message)", async () => {
    const logger = recordingLogger()
    const app = await build((root) => {
      root.addHook('onResponse', ((_request: Request, _reply: Reply, done: (e?: Error) => void) => { done(new Error('kaboom')) }) as never)
      root.get('/', async () => 'ok')
    }, { logger })
    expect((await app.inject('/')).statusCode).to.equal(200)
    await new Promise((resolve) => setImmediate(resolve))
    const entry = logger.entries.find((e) => e.msg === 'request errored')
    expect(entry?.level).to.equal('error')
    expect((entry?.obj.err as Error).message).to.equal('kaboom')
  })
})
