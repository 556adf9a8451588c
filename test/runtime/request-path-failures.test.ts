import { expect } from 'chai'
import request from 'supertest'
import { build, recordingLogger } from './helpers'

const internal = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }

/**
 * Whatever user code throws on the request path becomes an error reply: never an uncaught
 * exception (a crashed process) and never a request left hanging.
 */
describe('runtime: failures of user code on the request path', () => {
  it('a validator function that throws is a 500', async () => {
    const app = await build((root) => {
      root.post('/x', {
        schema: { body: { type: 'object' } },
        validatorCompiler: () => () => { throw new Error('validator bug') },
      }, async () => 'never')
    })
    await request(app.server).post('/x').send({ a: 1 }).expect(500, internal)
  })

  it('a validator that throws after a preValidation hook (async continuation) is a 500', async () => {
    const app = await build((root) => {
      root.post('/x', {
        preValidation: async () => { await Promise.resolve() },
        schema: { querystring: { type: 'object' } },
        validatorCompiler: () => () => { throw new Error('validator bug') },
      }, async () => 'never')
    })
    await request(app.server).post('/x').expect(500, internal)
  })

  it('a request decorator factory that throws is a 500, logged', async () => {
    const logger = recordingLogger()
    const app = await build((root) => {
      root.decorateRequest('broken' as string, { factory: () => { throw new Error('factory bug') } })
      root.get('/x', async () => 'never')
    }, { logger })
    await request(app.server).get('/x').expect(500, internal)
    expect(logger.entries.some((e) => e.level === 'error' && (e.obj as { err?: Error }).err?.message === 'factory bug')).to.equal(true)
  })

  it('a reply decorator factory that throws is a 500', async () => {
    const app = await build((root) => {
      root.decorateReply('broken' as string, { factory: () => { throw new Error('factory bug') } })
      root.get('/x', async () => 'never')
    })
    await request(app.server).get('/x').expect(500, internal)
  })

  it('a genReqId that throws is a 500', async () => {
    const app = await build((root) => { root.get('/x', async () => 'never') }, { genReqId: () => { throw new Error('id bug') } })
    await request(app.server).get('/x').expect(500, internal)
  })

  it('an invalid header value set by a handler is a 500 without that header', async () => {
    const app = await build((root) => {
      root.get('/sync', (_req, reply) => { reply.header('x-bad', 'a\nb'); return 'never' })
      root.get('/async', async (_req, reply) => { reply.header('x-bad', 'a\nb'); return { never: true } })
    })
    for (const path of ['/sync', '/async']) {
      const res = await request(app.server).get(path).expect(500, internal)
      expect(res.headers['x-bad'], path).to.equal(undefined)
    }
  })

  it('an invalid header value set by an error handler still gets the client an answer', async () => {
    const app = await build((root) => {
      root.setErrorHandler(async (_e, _req, reply) => { reply.header('x-bad', 'a\r\nb').code(400).send({ handled: true }) })
      root.get('/x', async () => { throw new Error('first') })
    })
    await request(app.server).get('/x').expect(500, internal)
  })

  it('the server keeps serving after each of these', async () => {
    const app = await build((root) => {
      root.get('/bad', (_req, reply) => { reply.header('x-bad', 'a\nb'); return 'never' })
      root.get('/good', async () => 'good')
    })
    await request(app.server).get('/bad').expect(500)
    await request(app.server).get('/good').expect(200, 'good')
  })
})
