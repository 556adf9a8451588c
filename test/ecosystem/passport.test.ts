import 'reflect-metadata'
import { expect } from 'chai'
import fastifyCookie from '@fastify/cookie'
import fastifySession from '@fastify/session'
import fastifySecureSession from '@fastify/secure-session'
import { Authenticator } from '@fastify/passport'
import { Strategy as LocalStrategy } from 'passport-local'
import { Get, Module, Post, Req, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { lift, type Request, type Scope } from '../../src/runtime'
import { server, track } from '../support/servers'

// @fastify/passport 4 with passport-local (the plugin's README: a session plugin, then
// `passport.initialize()` and `passport.secureSession()`, strategies by name, `authenticate(name,
// options)` as the login route's preValidation, `request.isAuthenticated()` as the guard of the
// routes that require a login, `request.logOut()`), on @fastify/session + @fastify/cookie and on
// @fastify/secure-session (both session plugins the README names).
interface User { id: number; name: string; role: 'reader' | 'admin' }
const users: User[] = [{ id: 1, name: 'ada', role: 'reader' }, { id: 2, name: 'root', role: 'admin' }]
const passwords: Record<string, string> = { ada: 'lovelace', root: 'toor' }
/** The package exports the class as a property of its default instance (`export =`): its instances' type. */
type Passport = InstanceType<typeof Authenticator>
type PassportRequest = Request & { user: User | null; isAuthenticated(): boolean; logOut(): Promise<void>; session: { get(k: string): unknown } }

/** passport-local's verify callback over the in-memory users; `role` limits a strategy to some of them. */
function local(role?: User['role'], fields?: { usernameField: string }): LocalStrategy {
  return new LocalStrategy(fields ?? {}, (username, password, done) => {
    const user = users.find((u) => u.name === username && (role === undefined || u.role === role))
    if (user === undefined || passwords[username] !== password) return done(null, false, { message: 'bad credentials' })
    return done(null, user)
  })
}

function authenticator(): Passport {
  const passport = new Authenticator()
  passport.use('local', local())
  passport.use('admin', local('admin', { usernameField: 'email' }))
  passport.registerUserSerializer(async (user: User) => user.id)
  passport.registerUserDeserializer(async (id: number) => users.find((u) => u.id === id) ?? null)
  return passport
}

// `authenticate()` returns a hook typed for Fastify (`this: FastifyInstance`, `FastifyRequest`):
// a route's preValidation takes it as it is, with no cast (src/runtime/fastify-typed-hook.ts; the
// type app test/types/apps/fastify-typed-hooks.ts). At run time it is the plugin's function, unchanged.

const requireLogin = async (request: Request, reply: { code(n: number): { send(p: unknown): unknown } }) => {
  if (!(request as PassportRequest).isAuthenticated()) return reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'log in first' })
}

/** The routes of the README's example, declared on a scope where passport is initialized. */
function declareRoutes(scope: Scope, passport: Passport): void {
  scope.post('/login', { preValidation: passport.authenticate('local', { successRedirect: '/me', authInfo: false }) }, async () => 'unreached')
  // A second strategy on its own route, and both tried in order on a third.
  scope.post('/admin/login', { preValidation: passport.authenticate('admin', { authInfo: false }) }, async (request) => ({ admin: (request as PassportRequest).user!.name }))
  scope.post('/any/login', { preValidation: passport.authenticate(['admin', 'local'], { authInfo: false }) }, async (request) => ({ user: (request as PassportRequest).user!.name }))
  scope.post('/strict/login', { preValidation: passport.authenticate('local', { authInfo: false, failWithError: true }) }, async (request) => ({ user: (request as PassportRequest).user!.name }))
  scope.get('/me', { preValidation: requireLogin }, async (request) => {
    const r = request as PassportRequest
    return { user: r.user, authenticated: r.isAuthenticated() }
  })
  scope.post('/logout', async (request) => { await (request as PassportRequest).logOut(); return { out: true } })
}

const sessionCookie = (headers: Record<string, unknown>, name: string): string | undefined =>
  ([headers['set-cookie']].flat().filter((c) => typeof c === 'string') as string[]).find((c) => c.startsWith(`${name}=`))?.split(';')[0]

/** The login flow every setup must give: 401 before, a session after, 401 after logout. */
async function loginFlow(app: Scope, cookieName: string, base = ''): Promise<void> {
  expect((await app.inject({ method: 'GET', url: `${base}/me` })).statusCode).to.equal(401)
  const bad = await app.inject({ method: 'POST', url: `${base}/login`, payload: { username: 'ada', password: 'wrong' } })
  expect([bad.statusCode, bad.body]).to.deep.equal([401, 'Unauthorized'])
  const good = await app.inject({ method: 'POST', url: `${base}/login`, payload: { username: 'ada', password: 'lovelace' } })
  expect(good.statusCode).to.equal(302)
  expect(good.headers.location).to.equal('/me')
  const cookie = sessionCookie(good.headers, cookieName)!
  expect(cookie, JSON.stringify(good.headers)).to.be.a('string')
  const me = await app.inject({ method: 'GET', url: `${base}/me`, headers: { cookie } })
  expect(me.json()).to.deep.equal({ user: users[0], authenticated: true })
  const out = await app.inject({ method: 'POST', url: `${base}/logout`, headers: { cookie } })
  expect(out.json()).to.deep.equal({ out: true })
  const after = sessionCookie(out.headers, cookieName) ?? cookie
  expect((await app.inject({ method: 'GET', url: `${base}/me`, headers: { cookie: after } })).statusCode).to.equal(401)
}

describe('@fastify/passport + passport-local in Enclave', () => {
  it('logs in with the local strategy into @fastify/session, fills request.user from the session on later requests, and logs out', async () => {
    const passport = authenticator()
    const app = server()
    app.register(fastifyCookie as never)
    app.register(fastifySession, { secret: 'a-secret-with-at-least-32-characters!!', cookie: { secure: false } })
    app.register(passport.initialize())
    app.register(passport.secureSession())
    declareRoutes(app, passport)
    await app.ready()
    await loginFlow(app, 'sessionId')
  })

  it('logs in into @fastify/secure-session (the README\'s first example) the same way', async () => {
    const passport = authenticator()
    const app = server()
    app.register(fastifySecureSession, { key: Buffer.alloc(32, 7), cookie: { path: '/' } })
    app.register(passport.initialize())
    app.register(passport.secureSession())
    declareRoutes(app, passport)
    await app.ready()
    await loginFlow(app, 'session')
  })

  it('runs the strategy each route names: admin only on /admin/login, both in order on /any/login, 401 with failWithError through the error handler', async () => {
    const passport = authenticator()
    const app = server()
    app.register(fastifySecureSession, { key: Buffer.alloc(32, 9), cookie: { path: '/' } })
    app.register(passport.initialize())
    app.register(passport.secureSession())
    declareRoutes(app, passport)
    await app.ready()
    // The admin strategy reads `email`, and accepts admins only.
    expect((await app.inject({ method: 'POST', url: '/admin/login', payload: { email: 'root', password: 'toor' } })).json()).to.deep.equal({ admin: 'root' })
    expect((await app.inject({ method: 'POST', url: '/admin/login', payload: { email: 'ada', password: 'lovelace' } })).statusCode).to.equal(401)
    // No `email` field: passport-local fails with 400 'Missing credentials' (its own status).
    expect((await app.inject({ method: 'POST', url: '/admin/login', payload: { username: 'root', password: 'toor' } })).statusCode).to.equal(400)
    // ['admin', 'local']: the first that succeeds wins.
    expect((await app.inject({ method: 'POST', url: '/any/login', payload: { username: 'ada', password: 'lovelace' } })).json()).to.deep.equal({ user: 'ada' })
    expect((await app.inject({ method: 'POST', url: '/any/login', payload: { email: 'root', password: 'toor' } })).json()).to.deep.equal({ user: 'root' })
    // Both fail: the answer is the first failure's status (admin's 400 for the missing email), as the plugin does.
    expect((await app.inject({ method: 'POST', url: '/any/login', payload: { username: 'x', password: 'y' } })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'POST', url: '/any/login', payload: { email: 'x', username: 'x', password: 'y' } })).statusCode).to.equal(401)
    const strict = await app.inject({ method: 'POST', url: '/strict/login', payload: { username: 'ada', password: 'nope' } })
    expect(strict.statusCode).to.equal(401)
    expect(strict.json()).to.include({ statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' })
  })

  it('works from a module: passport registered by a lifted plugin entry, controller routes guarded with preValidation', async () => {
    const passport = authenticator()
    @Route('/account')
    class AccountController {
      @Post('/login', { preValidation: passport.authenticate('local', { authInfo: false }) })
      login(@Req() request: Request) { return { user: (request as PassportRequest).user!.name } }

      @Get('/me', { preValidation: requireLogin })
      me(@Req() request: Request) { return { user: (request as PassportRequest).user } }
    }
    const auth = lift(async (scope: Scope) => {
      await scope.register(fastifySecureSession, { key: Buffer.alloc(32, 3), cookie: { path: '/' } })
      await scope.register(passport.initialize())
      await scope.register(passport.secureSession())
    })
    @Module({ plugins: [auth], controllers: [AccountController] })
    class AppModule {}
    const app = track(await createApp(AppModule))
    expect((await app.inject({ method: 'GET', url: '/account/me' })).statusCode).to.equal(401)
    const login = await app.inject({ method: 'POST', url: '/account/login', payload: { username: 'root', password: 'toor' } })
    expect(login.json()).to.deep.equal({ user: 'root' })
    const cookie = sessionCookie(login.headers, 'session')!
    expect((await app.inject({ method: 'GET', url: '/account/me', headers: { cookie } })).json()).to.deep.equal({ user: users[1] })
  })
})
