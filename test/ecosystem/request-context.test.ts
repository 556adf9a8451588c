import { expect } from 'chai'
import request from 'supertest'
import { setTimeout as delay } from 'node:timers/promises'
import { fastifyRequestContext, requestContext } from '@fastify/request-context'
import { createServer, type Request, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { affected, modes, topology, unaffected } from './helpers'

type Store = Record<string, unknown>

// The store's values as the handler sees them after crossing timers and promises.
const probe = async (req: Request) => {
  const store = requestContext.getStore() as Store | undefined
  if (store === undefined) return { store: null }
  await delay(Number(req.headers['x-delay'] ?? 0))
  await Promise.resolve()
  return {
    user: requestContext.get('user' as never),
    fromRequest: (req as Request & { requestContext: typeof requestContext }).requestContext.get('user' as never),
    hook: requestContext.get('hook' as never) ?? null,
  }
}

const options = { defaultStoreValues: (req: Request) => ({ user: req.headers['x-user'] ?? 'anonymous' }) }

// @fastify/request-context README: a per-request store (AsyncLocalStorage) opened in an onRequest
// hook, read with requestContext.get / request.requestContext.get in later hooks and the handler,
// across async boundaries, one store per request even when requests interleave.
describe('@fastify/request-context in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('gives each request of the registering context and its descendants its own store, across async boundaries', async () => {
        const app = await topology(mode, { plugin: fastifyRequestContext, options, probe })
        for (const path of affected) {
          // Interleaved: the first request waits longest, so both are in flight together.
          const [slow, fast] = await Promise.all([
            request(app.server).get(path).set('x-user', 'ada').set('x-delay', '30'),
            request(app.server).get(path).set('x-user', 'grace').set('x-delay', '1'),
          ])
          expect(slow.body, path).to.deep.equal({ user: 'ada', fromRequest: 'ada', hook: null })
          expect(fast.body, path).to.deep.equal({ user: 'grace', fromRequest: 'grace', hook: null })
          await request(app.server).post(path).send({ with: 'a body' }).expect(200, { user: 'anonymous', fromRequest: 'anonymous', hook: null })
        }
        for (const path of unaffected) await request(app.server).get(path).expect(200, { store: null })
      })
    })
  }

  it('carries what a hook sets to later hooks and the handler, for a JSON body too (after the body is read)', async () => {
    const app = track(createServer())
    await app.register(fastifyRequestContext, options)
    app.addHook('onRequest', async () => { requestContext.set('hook' as never, 'onRequest' as never) })
    app.addHook('preValidation', (_req, _reply, done) => { setImmediate(() => { requestContext.set('validated' as never, true as never); done() }) })
    app.addHook('preHandler', async () => { await delay(1); requestContext.set('handled' as never, requestContext.get('hook' as never) as never) })
    app.post('/echo', async (req) => {
      await delay(1)
      return { store: requestContext.getStore(), body: req.body }
    })
    await app.ready()
    await request(app.server).post('/echo').set('x-user', 'ada').send({ a: 1 })
      .expect(200, { store: { user: 'ada', hook: 'onRequest', validated: true, handled: 'onRequest' }, body: { a: 1 } })
    const scope: Scope & { requestContext?: unknown } = app
    expect(scope.requestContext).to.equal(requestContext)
  })
})
