import { expect } from 'chai'
import request from 'supertest'
import auth from '@fastify/auth'
import bearerAuth from '@fastify/bearer-auth'
import { createServer, type Reply, type Request, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { affected, modes, topology, unaffected } from './helpers'

type Verify = (request: Request, reply: Reply, done: (error?: Error) => void) => void
type BearerScope = Scope & { verifyBearerAuth: Verify; auth(strategies: Verify[]): Verify }

// @fastify/bearer-auth README: an onRequest hook (or preParsing with `addHook: 'preParsing'`)
// that answers 401 `{ error }` unless `Authorization: Bearer <one of keys>`; `auth(key, request)`
// decides instead of `keys`; `addHook: false` decorates `verifyBearerAuth` for @fastify/auth.
describe('@fastify/bearer-auth in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('guards the registering context and its descendants, not its parent or siblings', async () => {
        const app = await topology(mode, { plugin: bearerAuth, options: { keys: ['k1', 'k2'] } })
        for (const path of affected) {
          await request(app.server).get(path).set('authorization', 'Bearer k2').expect(200, { ok: true })
          await request(app.server).get(path).expect(401, { error: 'missing authorization header' })
          await request(app.server).get(path).set('authorization', 'Bearer nope').expect(401, { error: 'invalid authorization header' })
          await request(app.server).get(path).set('authorization', 'Basic k1').expect(401, { error: 'invalid authorization header' })
        }
        for (const path of unaffected) await request(app.server).get(path).expect(200, { ok: true })
      })

      it('checks the key with an async auth function, and answers 500 when it throws', async () => {
        const options = {
          keys: [],
          auth: async (key: string) => {
            if (key === 'boom') throw new Error('store down')
            return key === 'from-store'
          },
        }
        const app = await topology(mode, { plugin: bearerAuth, options })
        await request(app.server).post('/inside/probe').set('authorization', 'Bearer from-store').expect(200, { ok: true })
        await request(app.server).post('/inside/probe').set('authorization', 'Bearer other').expect(401, { error: 'invalid authorization header' })
        await request(app.server).post('/inside/probe').set('authorization', 'Bearer boom').expect(500, { error: 'store down' })
      })

      it("refuses before the body is read with addHook: 'preParsing', with a custom errorResponse", async () => {
        const options = { keys: ['k1'], addHook: 'preParsing', errorResponse: (error: Error) => ({ refused: error.message }) }
        const app = await topology(mode, { plugin: bearerAuth, options })
        await request(app.server).post('/inside/child/probe').send({ a: 1 }).expect(401, { refused: 'missing authorization header' })
        await request(app.server).post('/inside/child/probe').set('authorization', 'Bearer k1').send({ a: 1 }).expect(200, { ok: true })
      })
    })
  }

  it("with addHook: false decorates verifyBearerAuth, usable in @fastify/auth's fastify.auth([...])", async () => {
    const app = track(createServer())
    await app.register(auth)
    await app.register(bearerAuth, { keys: ['k1'], addHook: false })
    const scope = app as BearerScope
    app.get('/guarded', { onRequest: scope.auth([scope.verifyBearerAuth]) }, async () => ({ ok: true }))
    app.get('/open', async () => ({ ok: true }))
    await app.ready()
    await request(app.server).get('/guarded').set('authorization', 'Bearer k1').expect(200, { ok: true })
    const refused = await request(app.server).get('/guarded').expect(401)
    expect(refused.body).to.include({ statusCode: 401, message: 'missing authorization header', code: 'FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER' })
    await request(app.server).get('/open').expect(200)
  })

  it('refuses a bad keys option at boot with the plugin\'s coded error', async () => {
    const app = track(createServer())
    app.register(bearerAuth, { keys: 'k1' } as never)
    let error: (Error & { code?: string }) | undefined
    try { await app.ready() } catch (e) { error = e as Error }
    expect(error?.code).to.equal('FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE')
  })
})
