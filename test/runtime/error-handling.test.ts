import { expect } from 'chai'
import request from 'supertest'
import { FrameworkError, HttpError, isFrameworkError, type Scope } from '../../src/runtime'
import { build, recordingLogger } from './helpers'

/** A server whose GET /x throws (or rejects with) `thrown`. */
function throwing(thrown: () => unknown, declare: (root: Scope) => void = () => undefined) {
  return build((root) => {
    declare(root)
    root.get('/x', async () => { throw thrown() })
    root.get('/sync', () => { throw thrown() })
  })
}

const internal = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }

describe('runtime: errors', () => {
  describe('the default error payload { statusCode, code?, error, message }', () => {
    it('a plain Error is a generic 500: no message, no stack, nothing from the error', async () => {
      const app = await throwing(() => new Error('password=hunter2 at db.internal'))
      for (const path of ['/x', '/sync']) {
        const res = await request(app.server).get(path).expect(500)
        expect(res.text).to.equal(JSON.stringify(internal))
        expect(res.text).to.not.contain('hunter2').and.not.contain('at ')
      }
    })

    it('a 5xx FrameworkError hides its message and code too', async () => {
      const app = await throwing(() => new FrameworkError('ENC_ERR_SOMETHING', 'internal detail', { statusCode: 503 }))
      await request(app.server).get('/x').expect(503, { statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' })
    })

    it('a 5xx error keeps its message out of the response but in the log, with the request id', async () => {
      const logger = recordingLogger()
      const app = await build((root) => { root.get('/x', async () => { throw new Error('the real cause') }) }, { logger })
      await request(app.server).get('/x').expect(500)
      const logged = logger.entries.filter((e) => e.level === 'error')
      expect(logged).to.have.length(1)
      expect((logged[0].obj as { err: Error }).err.message).to.equal('the real cause')
      expect((logged[0].obj as { reqId: string }).reqId).to.be.a('string').with.length.greaterThan(0)
    })

    it('status comes from error.statusCode, with its reason phrase and message', async () => {
      const app = await throwing(() => Object.assign(new Error('no such user'), { statusCode: 404 }))
      const res = await request(app.server).get('/x').expect(404)
      expect(res.text).to.equal('{"statusCode":404,"error":"Not Found","message":"no such user"}')
    })

    it('status comes from error.status when statusCode is absent', async () => {
      const app = await throwing(() => Object.assign(new Error('slow down'), { status: 429 }))
      await request(app.server).get('/x').expect(429, { statusCode: 429, error: 'Too Many Requests', message: 'slow down' })
    })

    for (const declared of [200, 302, 399, 600, '600', '4o4', -1]) {
      it(`a statusCode of ${JSON.stringify(declared)} (not a 4xx/5xx number) gives 500`, async () => {
        const app = await throwing(() => Object.assign(new Error('odd'), { statusCode: declared }))
        await request(app.server).get('/x').expect(500, internal)
      })
    }

    it('a code string on a 4xx error is shown, in key order statusCode, code, error, message', async () => {
      const app = await throwing(() => new FrameworkError('ENC_ERR_THING_MISSING', 'the thing is missing', { statusCode: 404 }))
      const res = await request(app.server).get('/x').expect(404)
      expect(res.text).to.equal('{"statusCode":404,"code":"ENC_ERR_THING_MISSING","error":"Not Found","message":"the thing is missing"}')
    })

    it('an HttpError shows its message, also for a 5xx (it is meant for the client)', async () => {
      const app = await build((root) => {
        root.get('/4xx', async () => { throw new HttpError(409, 'version conflict', { code: 'APP_CONFLICT' }) })
        root.get('/5xx', async () => { throw new HttpError(503, 'down for maintenance') })
        root.get('/bare', async () => { throw new HttpError(404) })
      })
      await request(app.server).get('/4xx').expect(409, { statusCode: 409, code: 'APP_CONFLICT', error: 'Conflict', message: 'version conflict' })
      await request(app.server).get('/5xx').expect(503, { statusCode: 503, error: 'Service Unavailable', message: 'down for maintenance' })
      await request(app.server).get('/bare').expect(404, { statusCode: 404, error: 'Not Found', message: 'Not Found' })
    })

    it('a thrown string is the JSON shape, a generic 500', async () => {
      const app = await throwing(() => 'just a string')
      const res = await request(app.server).get('/x').expect(500)
      expect(res.text).to.equal(JSON.stringify(internal))
    })

    // README differences (differential seed 35 case 80): Fastify 3 sends the value itself there.
    it('a thrown string, number or boolean under a 4xx the handler set (reply.code) answers that status in the JSON error shape', async () => {
      for (const [thrown, shown] of [['just a string', 'just a string'], [7, '7'], [true, 'true']] as const) {
        const app = await build((root) => { root.get('/x', async (_request, reply) => { reply.code(418); throw thrown }) })
        const res = await request(app.server).get('/x').expect(418).expect('content-type', 'application/json; charset=utf-8')
        expect(res.body).to.deep.equal({ statusCode: 418, error: 'I\'m a Teapot', message: `Non-error value thrown: ${shown}` })
        await app.close()
      }
    })

    // README (differential seed 39 case 18): Fastify 3 sends `999` itself.
    it('an error whose status is not an error status (999) is read as one without a status: the reply\'s error status if set, else a generic 500', async () => {
      const statusOf = async (before: number | null): Promise<[number, unknown]> => {
        const app = await build((root) => { root.get('/x', async (_request, reply) => { if (before !== null) reply.code(before); throw Object.assign(new Error('odd status'), { statusCode: 999 }) }) })
        const res = await request(app.server).get('/x')
        await app.close()
        return [res.status, res.body]
      }
      expect(await statusOf(null)).to.deep.equal([500, internal])
      expect(await statusOf(400)).to.deep.equal([400, { statusCode: 400, error: 'Bad Request', message: 'odd status' }])
      expect(await statusOf(503)).to.deep.equal([503, { statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' }])
    })

    // Issue 12: a thrown plain object with a 4xx status is sent as it is, no `error` field added (Fastify 3).
    it('a thrown plain object keeps its statusCode and message', async () => {
      const app = await throwing(() => ({ statusCode: 400, message: 'bad input' }))
      await request(app.server).get('/x').expect(400, { statusCode: 400, message: 'bad input' })
    })

    it('a thrown plain object may give its status as `status`', async () => {
      const app = await throwing(() => ({ status: 404, message: 'nothing here', code: 'APP_NONE' }))
      await request(app.server).get('/x').expect(404, { status: 404, message: 'nothing here', code: 'APP_NONE' })
    })

    it('a thrown plain object without a status is a generic 500', async () => {
      const app = await throwing(() => ({ reason: 'secret' }))
      await request(app.server).get('/x').expect(500, internal)
    })

    // Issue 12 §2: Fastify 3's FST_ERR_SEND_UNDEFINED_ERR, with Enclave's code; the message is the framework's own.
    it("thrown null and undefined are the coded 500 'Undefined error has occurred'", async () => {
      const app = await build((root) => {
        root.get('/null', async () => { throw null })
        root.get('/undefined', () => Promise.reject(undefined))
      })
      const undefinedError = { statusCode: 500, code: 'ENC_ERR_REPLY_UNDEFINED_ERROR', error: 'Internal Server Error', message: 'Undefined error has occurred' }
      await request(app.server).get('/null').expect(500, undefinedError)
      await request(app.server).get('/undefined').expect(500, undefinedError)
    })

    it('reply.send(error) goes the same way as a throw', async () => {
      const app = await build((root) => {
        root.get('/x', (_req, reply) => { reply.send(Object.assign(new Error('teapot'), { statusCode: 418 })) })
      })
      await request(app.server).get('/x').expect(418, { statusCode: 418, error: "I'm a Teapot", message: 'teapot' })
    })

    it('error headers are applied to the reply', async () => {
      const app = await throwing(() => Object.assign(new Error('later'), { statusCode: 429, headers: { 'retry-after': '5' } }))
      const res = await request(app.server).get('/x').expect(429)
      expect(res.headers['retry-after']).to.equal('5')
    })
  })

  describe('setErrorHandler', () => {
    it('§4.2 handles errors of its scope; the handler answers with any status and payload', async () => {
      let received: unknown = null
      const error = new Error('to be handled')
      const app = await throwing(() => error, (root) => {
        root.setErrorHandler(async (e, _req, reply) => { received = e; reply.status(200).send({ recovered: true }) })
      })
      await request(app.server).get('/x').expect(200, { recovered: true })
      expect(received).to.equal(error)
    })

    it('a handler that sends without choosing a status answers with the error status (Fastify 3)', async () => {
      const app = await build((root) => {
        root.setErrorHandler(async (e, _req, reply) => { reply.send({ status: reply.statusCode, message: e.message }) })
        root.get('/conflict', async () => { throw new HttpError(409, 'taken') })
        root.get('/plain', async () => { throw new Error('bug') })
      })
      await request(app.server).get('/conflict').expect(409, { status: 409, message: 'taken' })
      await request(app.server).get('/plain').expect(500, { status: 500, message: 'bug' })
    })

    it('the handler may return the payload instead of sending it', async () => {
      const app = await throwing(() => new Error('x'), (root) => {
        root.setErrorHandler(async (_e, _req, reply) => { reply.code(503); return { returned: true } })
      })
      await request(app.server).get('/x').expect(503, { returned: true })
    })

    it('a synchronous handler that sends works too', async () => {
      const app = await throwing(() => new Error('x'), (root) => {
        root.setErrorHandler((_e, _req, reply) => { reply.code(502).send('sync') })
      })
      await request(app.server).get('/x').expect(502, 'sync')
    })

    it('the nearest scope handler wins; the parent handles other scopes', async () => {
      const app = await build((root) => {
        root.setErrorHandler(async (_e, _req, reply) => { reply.code(500).send({ by: 'root' }) })
        root.get('/root', async () => { throw new Error('r') })
        root.register(async (child) => {
          child.setErrorHandler(async (_e, _req, reply) => { reply.code(500).send({ by: 'child' }) })
          child.get('/child', async () => { throw new Error('c') })
          child.register(async (grandchild) => { grandchild.get('/grandchild', async () => { throw new Error('g') }) })
        })
      })
      await request(app.server).get('/root').expect(500, { by: 'root' })
      await request(app.server).get('/child').expect(500, { by: 'child' })
      await request(app.server).get('/grandchild').expect(500, { by: 'child' })
    })

    it("if the nearest handler throws, the parent's receives that new error", async () => {
      const seen: string[] = []
      const app = await build((root) => {
        root.setErrorHandler(async (e, _req, reply) => { seen.push(`root:${e.message}`); reply.code(400).send({ by: 'root', message: e.message }) })
        root.register(async (child) => {
          child.setErrorHandler(async (e) => { seen.push(`child:${e.message}`); throw new Error('child handler failed') })
          child.get('/x', async () => { throw new Error('original') })
        })
      })
      await request(app.server).get('/x').expect(400, { by: 'root', message: 'child handler failed' })
      expect(seen).to.deep.equal(['child:original', 'root:child handler failed'])
    })

    it('if every handler throws, the default payload answers (a generic 500)', async () => {
      const app = await throwing(() => new Error('original'), (root) => {
        root.setErrorHandler(() => { throw new Error('handler secret') })
      })
      const res = await request(app.server).get('/x').expect(500)
      expect(res.text).to.equal(JSON.stringify(internal))
    })

    it("a handler may rethrow a 4xx error to get the default payload for it", async () => {
      const app = await throwing(() => new Error('x'), (root) => {
        root.setErrorHandler((e) => { throw new HttpError(422, `wrapped: ${e.message}`) })
      })
      await request(app.server).get('/x').expect(422, { statusCode: 422, error: 'Unprocessable Entity', message: 'wrapped: x' })
    })

    it('an async handler that resolves without sending is answered, not left hanging', async () => {
      const app = await throwing(() => new Error('x'), (root) => { root.setErrorHandler(async () => undefined) })
      await request(app.server).get('/x').expect(500, internal)
    })

    it('a route-level errorHandler option runs before the scope handler', async () => {
      const app = await build((root) => {
        root.setErrorHandler(async (_e, _req, reply) => { reply.code(500).send({ by: 'scope' }) })
        root.get('/x', { errorHandler: async (_e, _req, reply) => { reply.code(500).send({ by: 'route' }) } }, async () => { throw new Error('x') })
      })
      await request(app.server).get('/x').expect(500, { by: 'route' })
    })

    it('headers set before the error are kept, content-type is reset for the error payload', async () => {
      const app = await build((root) => {
        root.get('/x', async (_req, reply) => { reply.header('x-trace', 't1').type('text/html'); throw new HttpError(400, 'bad') })
      })
      const res = await request(app.server).get('/x').expect(400)
      expect(res.headers['x-trace']).to.equal('t1')
      expect(res.headers['content-type']).to.equal('application/json; charset=utf-8')
    })

    it('the handler runs with `this` the scope that set it', async () => {
      let self: unknown = null
      let declaring: Scope | null = null
      const app = await build((root) => {
        root.register(async (s) => {
          declaring = s
          s.setErrorHandler(async function (this: Scope, _e, _req, reply) { self = this; reply.code(500).send('x') })
          s.get('/x', async () => { throw new Error('x') })
        })
      })
      await request(app.server).get('/x').expect(500)
      expect(self).to.equal(declaring)
    })
  })

  it('isFrameworkError tells framework errors apart', () => {
    expect(isFrameworkError(new FrameworkError('ENC_ERR_X', 'x'))).to.equal(true)
    expect(isFrameworkError(new HttpError(400))).to.equal(false)
    expect(isFrameworkError(new Error('x'))).to.equal(false)
  })
})
