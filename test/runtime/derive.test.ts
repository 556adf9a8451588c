// derive(): Elysia's `.derive()` / `.resolve()` as a typed lifted plugin whose request decorations
// are typed by what its functions return (test/types/fixtures/derive.ts has the types). These are
// the values, the stages and the declaration errors that make those types true.
import { expect } from 'chai'
import { HttpError } from '../../src'
import { derive, lift, type, type Scope } from '../../src/runtime'
import { bootError, server, thrown } from './helpers'

interface User { id: string; admin: boolean }

describe('derive(): request decorations computed per request, typed by what the functions return', () => {
  it('sets each named value before the handler, awaiting an async one, on the scope register() returns', async () => {
    const bearer = derive({
      bearer: (request) => request.headers.authorization?.replace(/^Bearer /, '') ?? null,
      upper: async (request) => String(request.headers['x-name'] ?? '').toUpperCase(),
    })
    const app = server()
    app.register(bearer).get('/me', (request) => ({ bearer: request.bearer, upper: request.upper }))
    const answer = await app.inject({ url: '/me', headers: { authorization: 'Bearer t0k', 'x-name': 'ada' } })
    expect(answer.json()).to.deep.equal({ bearer: 't0k', upper: 'ADA' })
    expect((await app.inject('/me')).json()).to.deep.equal({ bearer: null, upper: '' })
  })

  it('runs the functions in the order given, each seeing the values before it, across sync and async ones; a rejected one answers as a failing hook', async () => {
    const steps = derive({
      a: () => 1,
      b: async (request) => (request as unknown as { a: number }).a + 1,
      c: (request) => (request as unknown as { b: number }).b + 1,
      d: async (request) => {
        if (request.headers['x-fail'] !== undefined) throw new HttpError(403, 'refused late')
        return (request as unknown as { c: number }).c + 1
      },
    })
    const app = server()
    app.register(steps).get('/abcd', (request) => ({ a: request.a, b: request.b, c: request.c, d: request.d }))
    expect((await app.inject('/abcd')).json()).to.deep.equal({ a: 1, b: 2, c: 3, d: 4 })
    const refused = await app.inject({ url: '/abcd', headers: { 'x-fail': '1' } })
    expect(refused.statusCode).to.equal(403)
    expect(refused.json()).to.include({ message: 'refused late' })
  })

  it('is lifted: its hook runs for the registering scope and its children, not a sibling scope', async () => {
    const app = server()
    app.register(async (child: Scope) => {
      const typed = child.register(derive({ seen: () => true }))
      typed.get('/in', (request) => ({ seen: request.seen }))
      typed.register(async (grandchild) => { grandchild.get('/deeper', (request) => ({ seen: request.seen })) })
    })
    app.register(async (sibling: Scope) => {
      sibling.get('/out', (request) => ({ seen: (request as unknown as { seen?: unknown }).seen ?? 'absent' }))
    })
    expect((await app.inject('/in')).json()).to.deep.equal({ seen: true })
    expect((await app.inject('/deeper')).json()).to.deep.equal({ seen: true })
    expect((await app.inject('/out')).json()).to.deep.equal({ seen: 'absent' })
  })

  it('runs in preValidation by default (the body is parsed, not yet validated), in the stage given otherwise', async () => {
    const app = server()
    const body = { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } as const
    app.register(derive({ sawBody: (request) => request.body != null }))
      .register(derive({ early: (request) => request.body == null }, { stage: 'onRequest', name: 'early' }))
      .post('/n', { schema: { body } }, (request) => ({ sawBody: request.sawBody, early: request.early }))
    expect((await app.inject({ method: 'POST', url: '/n', payload: { n: 1 } })).json()).to.deep.equal({ sawBody: true, early: true })
  })

  it('a deriver that throws answers as a hook that throws: an HttpError keeps its status, the handler does not run', async () => {
    let ran = false
    const auth = derive({ user: (request): User => {
      if (request.headers.authorization === undefined) throw new HttpError(401, 'no token')
      return { id: request.headers.authorization, admin: false }
    } }, { stage: 'onRequest' })
    const app = server()
    app.register(auth).get('/private', (request) => { ran = true; return { id: request.user.id } })
    const refused = await app.inject('/private')
    expect(refused.statusCode).to.equal(401)
    expect(refused.json()).to.include({ statusCode: 401, message: 'no token' })
    expect(ran).to.equal(false)
    expect((await app.inject({ url: '/private', headers: { authorization: 'u1' } })).json()).to.deep.equal({ id: 'u1' })
  })

  it('reads a typed dependency\'s decorations, and is refused at boot when that dependency is not registered before it (ENC_ERR_PLUGIN_DEPENDENCY)', async () => {
    const account = lift(async (scope) => {
      scope.decorateRequest('account', null)
      scope.addHook('onRequest', async (request) => { request.account = { id: 'a', admin: true } })
    }, { name: 'account', provides: { request: { account: type<User>() } } })
    const role = derive({ role: (request) => (request.account.admin ? 'admin' : 'member') }, { dependencies: [account], stage: 'preHandler', name: 'role' })
    const app = server()
    app.register(account).register(role).get('/role', (request) => ({ role: request.role }))
    expect((await app.inject('/role')).json()).to.deep.equal({ role: 'admin' })
    expect(app.hasPlugin('role')).to.equal(true)

    const missing = server()
    missing.register(role as never)
    const error = await bootError(missing)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_DEPENDENCY')
    expect(error.message).to.include("plugin 'role' registered in root depends on 'account'")
  })

  it('is named derive(<names>) by default (hasPlugin), and a second registration in one scope is refused as any typed plugin\'s', async () => {
    const bearer = derive({ bearer: () => 'x', tenant: () => 'acme' })
    const app = server()
    app.register(bearer)
    await app.ready()
    expect(app.hasPlugin('derive(bearer, tenant)')).to.equal(true)
    const twice = server()
    twice.register(bearer).register(bearer)
    expect((await bootError(twice)).code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
  })

  it('refuses a built-in request member as a name at boot, as decorateRequest does', async () => {
    const app = server()
    app.register(derive({ url: () => '/elsewhere' }))
    const error = await bootError(app)
    expect(error.message).to.include("'url'")
  })

  it('refuses a bad declaration where it is written (ENC_ERR_PLUGIN_DERIVE): not an object, no name, a non-function, an unknown option or stage', () => {
    const cases: [() => unknown, string][] = [
      [() => derive(null as never), 'the first argument must be an object of functions by decoration name, got null'],
      [() => derive({}), 'names no decoration'],
      [() => derive({ bearer: 'x' } as never), "'bearer' must be a function (request, reply) => value, got 'x'"],
      [() => derive({ bearer: () => 1 }, { stag: 'onRequest' } as never), "'stag' is not an option (did you mean 'stage'?)"],
      [() => derive({ bearer: () => 1 }, { stage: 'preValidaton' as never }), "stage must be one of 'onRequest', 'preParsing', 'preValidation', 'preHandler', got 'preValidaton' (did you mean 'preValidation'?)"],
    ]
    for (const [call, text] of cases) {
      const error = thrown(call)
      expect(error.code).to.equal('ENC_ERR_PLUGIN_DERIVE')
      expect(error.message).to.include(text)
    }
  })
})
