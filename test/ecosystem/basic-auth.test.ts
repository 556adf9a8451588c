import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import auth from '@fastify/auth'
import basicAuth from '@fastify/basic-auth'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer, lift, type Reply, type Request, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { affected, modes, topology, unaffected } from './helpers'

type Verify = (request: Request, reply: Reply, done: (error?: Error) => void) => void
type BasicScope = Scope & { basicAuth: Verify; auth(strategies: Verify[]): Verify }

const options = {
  authenticate: { realm: 'enclave' },
  // async form: resolving passes, rejecting refuses (401 unless the error has its own status)
  validate: async (username: string, password: string) => {
    if (username === 'locked') throw Object.assign(new Error('account locked'), { statusCode: 403 })
    if (username !== 'ada' || password !== 's3cret:with:colons') throw new Error('Winter is coming')
  },
}
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

/** The README's two uses: fastify.basicAuth as a hook of the context, and inside fastify.auth([...]). */
function guardedRoutes(scope: Scope): void {
  const s = scope as BasicScope
  s.get('/via-auth', { onRequest: s.auth([s.basicAuth]) }, async () => ({ via: 'auth' }))
  s.register(async function guarded(child) {
    child.addHook('onRequest', s.basicAuth)
    child.get('/hooked', async (req) => ({ user: 'ada', method: req.method }))
  })
}

async function scopeApp(): Promise<Scope> {
  const app = track(createServer())
  await app.register(auth)
  await app.register(basicAuth, options)
  guardedRoutes(app)
  app.get('/open', async () => ({ open: true }))
  await app.ready()
  return app
}

async function moduleApp(): Promise<Scope> {
  @Route() class Open { @Get('/open') open() { return { open: true } } }
  @Module({ plugins: [auth, [basicAuth, options], lift(async (scope: Scope) => guardedRoutes(scope))], controllers: [Open] })
  class AppModule {}
  const app = track(await createApp(AppModule))
  await app.ready()
  return app
}

// @fastify/basic-auth README: `validate(username, password, req, reply)` decides; a refusal is a
// 401 with `WWW-Authenticate` (from `authenticate`), a malformed header the plugin's coded 401.
describe('@fastify/basic-auth in Enclave', () => {
  for (const [layer, build] of [['scope', scopeApp], ['module', moduleApp]] as const) {
    describe(`registered in a ${layer}`, () => {
      it('lets valid credentials through, as a context hook and inside fastify.auth', async () => {
        const app = await build()
        await request(app.server).get('/hooked').set('authorization', basic('ada', 's3cret:with:colons')).expect(200, { user: 'ada', method: 'GET' })
        await request(app.server).get('/via-auth').set('authorization', basic('ada', 's3cret:with:colons')).expect(200, { via: 'auth' })
        await request(app.server).get('/open').expect(200, { open: true })
      })

      it('answers 401 with WWW-Authenticate for wrong or malformed credentials, and the error\'s own status otherwise', async () => {
        const app = await build()
        for (const path of ['/hooked', '/via-auth']) {
          const wrong = await request(app.server).get(path).set('authorization', basic('ada', 'nope')).expect(401)
          expect(wrong.headers['www-authenticate']).to.equal('Basic realm="enclave", charset="UTF-8"')
          expect(wrong.body).to.deep.equal({ statusCode: 401, error: 'Unauthorized', message: 'Winter is coming' })
          const missing = await request(app.server).get(path).expect(401)
          expect(missing.body).to.include({ code: 'FST_BASIC_AUTH_MISSING_OR_BAD_AUTHORIZATION_HEADER', message: 'Missing or bad formatted authorization header' })
          await request(app.server).get(path).set('authorization', 'Basic !!!').expect(401)
          const locked = await request(app.server).get(path).set('authorization', basic('locked', 'x')).expect(403)
          expect(locked.headers['www-authenticate']).to.equal(undefined)
        }
      })
    })
  }

  for (const mode of modes) {
    it(`decorates fastify.basicAuth in the registering context and its descendants only (${mode})`, async () => {
      const app = await topology(mode, { plugin: basicAuth, options, probe: async (req) => ({ basicAuth: typeof (req.server as Partial<BasicScope>).basicAuth }) })
      for (const path of affected) await request(app.server).get(path).expect(200, { basicAuth: 'function' })
      for (const path of unaffected) await request(app.server).get(path).expect(200, { basicAuth: 'undefined' })
    })
  }

  it('refuses a missing validate option at boot with the plugin\'s error', async () => {
    const app = track(createServer())
    app.register(basicAuth, {} as never)
    let error: Error | undefined
    try { await app.ready() } catch (e) { error = e as Error }
    expect(error?.message).to.equal('Basic Auth: Missing validate function')
  })
})
