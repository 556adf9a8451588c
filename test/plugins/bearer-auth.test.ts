import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { bearerAuth, bearerAuthHook } from '../../src/plugins'
import { createServer, type Scope } from '../../src/runtime'
import { isLifted } from '../../src/runtime/internal'

const ok = async () => ({ ok: true })

/** root: /open; protected (bearer): /guarded and child /guarded/child; sibling: /sibling. */
async function runtimeApp(keys: string[]): Promise<Scope> {
  const app = createServer()
  app.get('/open', ok)
  app.register(async (scope) => {
    scope.register(bearerAuth({ keys }))
    scope.get('/guarded', ok)
    scope.register(async (child) => { child.get('/guarded/child', ok) })
  })
  app.register(async (scope) => { scope.get('/sibling', ok) })
  await app.ready()
  return app
}

describe('bearerAuth (§5)', () => {
  let app: Scope
  before(async () => { app = await runtimeApp(['key-one', 'key-two']) })
  after(() => app.close())

  it('accepts every configured key', async () => {
    await request(app.server).get('/guarded').set('authorization', 'Bearer key-one').expect(200, { ok: true })
    await request(app.server).get('/guarded').set('authorization', 'Bearer key-two').expect(200, { ok: true })
  })

  it('treats the scheme name case-insensitively', async () => {
    await request(app.server).get('/guarded').set('authorization', 'bearer key-one').expect(200)
  })

  it('answers 401 with WWW-Authenticate: Bearer when the token is missing', async () => {
    const res = await request(app.server).get('/guarded').expect(401)
    expect(res.headers['www-authenticate']).to.equal('Bearer')
    expect(res.body).to.deep.equal({ statusCode: 401, code: 'ENC_ERR_AUTH_UNAUTHORIZED', error: 'Unauthorized', message: 'Missing bearer token: send the header "authorization: Bearer <token>".' })
  })

  it('gives a wrong token the coded 401 payload: ENC_ERR_AUTH_UNAUTHORIZED (issue 11)', async () => {
    const res = await request(app.server).get('/guarded').set('authorization', 'Bearer key-three').expect(401)
    expect(res.body).to.deep.equal({ statusCode: 401, code: 'ENC_ERR_AUTH_UNAUTHORIZED', error: 'Unauthorized', message: 'Invalid bearer token.' })
  })

  it('answers 401 for a wrong token, an empty one, or one with extra words', async () => {
    for (const header of ['Bearer key-three', 'Bearer ', 'Bearer key-one extra', 'Bearerkey-one', 'Token key-one']) {
      const res = await request(app.server).get('/guarded').set('authorization', header).expect(401)
      expect(res.headers['www-authenticate'], header).to.equal('Bearer')
      expect(res.body).to.include({ statusCode: 401, error: 'Unauthorized' })
    }
  })

  it('does not run the handler for a refused request', async () => {
    let ran = false
    const guarded = createServer()
    guarded.register(bearerAuth({ keys: ['k'] }))
    guarded.get('/x', async () => { ran = true; return {} })
    await guarded.ready()
    await request(guarded.server).get('/x').expect(401)
    expect(ran).to.equal(false)
    await guarded.close()
  })

  it('§3.3.7 protects the registering scope and its descendants only', async () => {
    await request(app.server).get('/guarded/child').expect(401)
    await request(app.server).get('/guarded/child').set('authorization', 'Bearer key-two').expect(200)
    await request(app.server).get('/sibling').expect(200)
    await request(app.server).get('/open').expect(200)
  })

  it('is returned lifted, so registering it adds no scope of its own', () => {
    expect(isLifted(bearerAuth({ keys: ['k'] }))).to.equal(true)
  })

  it('works as an entry of @Module({ plugins }), guarding that module only', async () => {
    @Route() class Secret { @Get('/secret') get() { return { secret: true } } }
    @Route() class Public { @Get('/public') get() { return { public: true } } }
    @Module({ plugins: [bearerAuth({ keys: ['m'] })], controllers: [Secret] }) class Guarded {}
    @Module({ plugins: [Guarded], controllers: [Public] }) class Root {}
    const moduleApp = await createApp(Root)
    await request(moduleApp.server).get('/secret').expect(401)
    await request(moduleApp.server).get('/secret').set('authorization', 'Bearer m').expect(200, { secret: true })
    await request(moduleApp.server).get('/public').expect(200, { public: true })
    await moduleApp.close()
  })

  it('refuses bad keys when called, before anything is registered', () => {
    for (const options of [{}, { keys: [] }, { keys: [''] }, { keys: 'abc' }, { keys: ['a', 2] }, { keys: ['a'], realm: 'x' }, null]) {
      let error: (Error & { code?: string }) | undefined
      try { bearerAuth(options as never) } catch (e) { error = e as Error }
      expect(error?.code, JSON.stringify(options)).to.equal('ENC_ERR_AUTH_INVALID_OPTIONS')
    }
  })

  it('names the function called in its refusal: bearerAuthHook() says bearerAuthHook(), bearerAuth() says bearerAuth() (newcomer finding 13)', () => {
    const hookError = (() => { try { bearerAuthHook({ keys: undefined } as never) } catch (e) { return e as Error } return null })()
    expect(hookError?.message).to.match(/^bearerAuthHook\(\) takes \{ keys \}/)
    const pluginError = (() => { try { bearerAuth({ keys: undefined } as never) } catch (e) { return e as Error } return null })()
    expect(pluginError?.message).to.match(/^bearerAuth\(\) takes \{ keys \}/)
  })
})
