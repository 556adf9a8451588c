import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import auth from '@fastify/auth'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer, lift, type Reply, type Request, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { affected, modes, topology, unaffected } from './helpers'

type Strategy = (request: Request, reply: Reply, done: (error?: Error) => void) => unknown
type AuthScope = Scope & { auth(strategies: Array<Strategy | Strategy[]>, options?: { relation?: 'and' | 'or', run?: 'all' }): Strategy }

// Two strategies in the two forms the plugin accepts: async (throws to refuse) and callback.
const headerA: Strategy = async (request) => { if (request.headers['x-a'] !== 'yes') throw new Error('a refused') }
const headerB: Strategy = (request, _reply, done) => { done(request.headers['x-b'] === 'yes' ? undefined : new Error('b refused')) }

/** The plugin's README in a scope: fastify.auth([...]) as a route's preHandler or onRequest. */
function declareRoutes(scope: AuthScope): void {
  scope.get('/or', { preHandler: scope.auth([headerA, headerB]) }, async () => ({ ok: true }))
  scope.get('/and', { preHandler: scope.auth([headerA, headerB], { relation: 'and' }) }, async () => ({ ok: true }))
  scope.get('/on-request', { onRequest: scope.auth([headerA]) }, async () => ({ ok: true }))
  // [A, [B, A]] with 'or': either A alone, or B and A together.
  scope.get('/nested', { preHandler: scope.auth([headerA, [headerB, headerA]]) }, async () => ({ ok: true }))
}

async function scopeApp(): Promise<Scope> {
  const app = track(createServer())
  await app.register(auth)
  declareRoutes(app as AuthScope)
  await app.ready()
  return app
}

async function moduleApp(): Promise<Scope> {
  @Route() class Open { @Get('/open') open() { return { open: true } } }
  // A module's routes come from controllers; the guarded routes need the plugin's decorator,
  // so a lifted plugin of the module declares them once @fastify/auth has loaded.
  @Module({ plugins: [auth, lift(async (scope: Scope) => declareRoutes(scope as AuthScope))], controllers: [Open] })
  class AppModule {}
  const app = track(await createApp(AppModule))
  await app.ready()
  return app
}

// @fastify/auth README: fastify.auth([strategies]) combines strategies into one hook, 'or' by
// default, 'and' on request; a refusal is a 401 carrying the last strategy's error message.
describe('@fastify/auth in Enclave', () => {
  for (const [layer, build] of [['scope', scopeApp], ['module', moduleApp]] as const) {
    describe(`registered in a ${layer}`, () => {
      it("'or' passes when one strategy passes and answers 401 when none does", async () => {
        const app = await build()
        await request(app.server).get('/or').set('x-a', 'yes').expect(200, { ok: true })
        await request(app.server).get('/or').set('x-b', 'yes').expect(200, { ok: true })
        const refused = await request(app.server).get('/or').expect(401)
        expect(refused.body).to.deep.equal({ statusCode: 401, error: 'Unauthorized', message: 'b refused' })
      })

      it("'and' needs every strategy: the first refusal answers 401", async () => {
        const app = await build()
        await request(app.server).get('/and').set('x-a', 'yes').set('x-b', 'yes').expect(200, { ok: true })
        const onlyA = await request(app.server).get('/and').set('x-a', 'yes').expect(401)
        expect(onlyA.body.message).to.equal('b refused')
        const none = await request(app.server).get('/and').expect(401)
        expect(none.body.message).to.equal('a refused')
      })

      it('runs as an onRequest hook and combines nested arrays (an inner array is the other relation)', async () => {
        const app = await build()
        await request(app.server).get('/on-request').set('x-a', 'yes').expect(200, { ok: true })
        await request(app.server).get('/on-request').expect(401)
        await request(app.server).get('/nested').set('x-a', 'yes').expect(200, { ok: true })
        await request(app.server).get('/nested').set('x-b', 'yes').expect(401)
      })
    })
  }

  for (const mode of modes) {
    it(`decorates fastify.auth in the registering context and its descendants only (${mode})`, async () => {
      const app = await topology(mode, { plugin: auth, probe: async (req) => ({ auth: typeof (req.server as Partial<AuthScope>).auth }) })
      for (const path of affected) await request(app.server).get(path).expect(200, { auth: 'function' })
      for (const path of unaffected) await request(app.server).get(path).expect(200, { auth: 'undefined' })
    })
  }

  it("refuses an unknown defaultRelation at boot with the plugin's own error", async () => {
    const app = track(createServer())
    app.register(auth, { defaultRelation: 'xor' } as never)
    let error: Error | undefined
    try { await app.ready() } catch (e) { error = e as Error }
    expect(error?.message).to.equal("The value of default relation should be one of ['or', 'and']")
  })
})
