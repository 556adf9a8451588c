// One rule for what an error reply shows (docs/errors.md, "Errors"): a 4xx shows its message; a 5xx shows
// only the reason phrase unless the error says its message is for the client: an HttpError, or
// an error with expose === true (http-errors' convention, which @fastify/sensible follows: its
// 5xx errors have expose false). The rule holds wherever the error comes from.
import { expect } from 'chai'
import sensible from '@fastify/sensible'
import { HttpError, type Reply, type Scope } from '../../src/runtime'
import { build, recordingLogger, thrown } from './helpers'

type Source = 'thrown by a handler' | 'thrown by an onRequest hook' | 'sent with reply.send(error)' | 'thrown by an error handler'
const sources: readonly Source[] = ['thrown by a handler', 'thrown by an onRequest hook', 'sent with reply.send(error)', 'thrown by an error handler']

/** GET /x fails with `make()` from `source`. */
function failing(root: Scope, source: Source, make: () => unknown): void {
  if (source === 'thrown by a handler') root.get('/x', async () => { throw make() })
  else if (source === 'thrown by an onRequest hook') root.get('/x', { onRequest: async () => { throw make() } }, async () => 'never')
  else if (source === 'sent with reply.send(error)') root.get('/x', (_req, reply) => { reply.send(make() as Error) })
  else {
    root.setErrorHandler((error) => { throw error })
    root.register(async (child) => {
      child.setErrorHandler(() => { throw make() })
      child.get('/x', async () => { throw new Error('first failure') })
    })
  }
}

async function answer(source: Source, make: () => unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const app = await build((root) => failing(root, source, make))
  const res = await app.inject({ url: '/x' })
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> }
}

const secret = 'maintenance until 10:00'

describe('runtime: the 5xx message rule', () => {
  for (const source of sources) {
    describe(`an error ${source}`, () => {
      it('a 5xx error shows only the reason phrase, not its message or code', async () => {
        const res = await answer(source, () => Object.assign(new Error(secret), { statusCode: 503, code: 'APP_DOWN' }))
        expect(res).to.deep.equal({ status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' } })
      })

      it('an HttpError 5xx shows its message and code (it is meant for the client)', async () => {
        const res = await answer(source, () => new HttpError(503, secret, { code: 'APP_DOWN' }))
        expect(res).to.deep.equal({ status: 503, body: { statusCode: 503, code: 'APP_DOWN', error: 'Service Unavailable', message: secret } })
      })

      it('a 5xx error with expose: true shows its message', async () => {
        const res = await answer(source, () => Object.assign(new Error(secret), { statusCode: 503, expose: true }))
        expect(res).to.deep.equal({ status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: secret } })
      })

      it('a 4xx error shows its message without expose', async () => {
        const res = await answer(source, () => Object.assign(new Error('no such book'), { statusCode: 404 }))
        expect(res).to.deep.equal({ status: 404, body: { statusCode: 404, error: 'Not Found', message: 'no such book' } })
      })

      it('an error with expose: true but a status that is not an error status answers a generic 500', async () => {
        for (const statusCode of [600, 302, 2.5, '600']) {
          const res = await answer(source, () => Object.assign(new Error('secret detail'), { statusCode, expose: true }))
          expect(res, String(statusCode)).to.deep.equal({ status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' } })
        }
      })
    })
  }

  describe('new HttpError() with a status that is not an error status', () => {
    for (const status of [600, 99, 2.5, 302, 200, NaN, -1]) {
      it(`new HttpError(${status}) is refused with ENC_ERR_REPLY_INVALID_HTTP_ERROR`, () => {
        const error = thrown(() => new HttpError(status, 'secret detail'))
        expect(error.code).to.equal('ENC_ERR_REPLY_INVALID_HTTP_ERROR')
        expect(error.message).to.equal(`new HttpError(${status}): an HttpError's status must be an integer from 400 to 599. For another status, use reply.code() and send a payload.`)
      })
    }

    it('a handler that throws new HttpError(600, message) answers the generic 500; the message is not sent, the coded error is logged', async () => {
      const logger = recordingLogger()
      const app = await build((root) => { root.get('/odd', async () => { throw new HttpError(600 as number, 'secret detail') }) }, { logger })
      const res = await app.inject({ url: '/odd' })
      expect(res.statusCode).to.equal(500)
      expect(JSON.parse(res.body)).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
      expect(res.body).to.not.contain('secret')
      const logged = logger.entries.find((e) => e.level === 'error')?.obj.err as Error & { code?: string }
      expect(logged.code).to.equal('ENC_ERR_REPLY_INVALID_HTTP_ERROR')
    })
  })

  describe('@fastify/sensible (http-errors: expose is false for a 5xx)', () => {
    type SensibleReply = Reply & { serviceUnavailable(message?: string): Reply }
    type SensibleScope = Scope & { httpErrors: { createError(status: number, message: string, props: { expose: boolean }): Error } }

    it('reply.serviceUnavailable(message) answers 503 with the reason phrase only', async () => {
      const app = await build(async (root) => {
        await root.register(sensible)
        root.get('/x', async (_req, reply) => (reply as SensibleReply).serviceUnavailable(secret))
      })
      const res = await app.inject({ url: '/x' })
      expect(res.statusCode).to.equal(503)
      expect(JSON.parse(res.body)).to.deep.equal({ statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' })
    })

    it('a sensible 503 created with expose: true shows its message', async () => {
      const app = await build(async (root) => {
        await root.register(sensible)
        root.get('/x', async () => { throw (root as SensibleScope).httpErrors.createError(503, secret, { expose: true }) })
      })
      const res = await app.inject({ url: '/x' })
      expect(res.statusCode).to.equal(503)
      expect(JSON.parse(res.body)).to.deep.equal({ statusCode: 503, error: 'Service Unavailable', message: secret })
    })
  })
})
