import 'reflect-metadata'
import { expect } from 'chai'
import { Get, Module, OnRequest, PreHandler, PreValidation, Post, Req, Route, routeMetadata } from '../../src/decorators'
import { getClassRouteHooks, getMethodRouteHooks } from '../../src/decorators/internal'
import { createApp } from '../../src/modules'
import { authOf, bearerAuth, bearerAuthHook, bearerAuthSecurity, type BearerAuthHook } from '../../src/plugins'
import { HttpError, describeSecurity } from '../../src/runtime'
import { injectable } from 'tsyringe'
import type { DoneFn, Reply, Request, RequestHook } from '../../src/runtime'
import { declarationError } from '../decorators/helpers'
import { bootError } from '../modules/helpers'

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

describe('route hooks from the decorator layer: @OnRequest/@PreValidation/@PreHandler (dx §1)', () => {
  it('@OnRequest on one method guards that route only: a controller mixes open reads and guarded writes', async () => {
    const guard = bearerAuthHook({ keys: ['k1'] })
    @Route('/books')
    class BooksController {
      @Get('/') list() { return [] }
      @OnRequest(guard) @Post('/') create() { return { created: true } }
    }
    @Module({ controllers: [BooksController] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/books' })).statusCode).to.equal(200)
      const refused = await app.inject({ method: 'POST', url: '/books' })
      expect(refused.statusCode).to.equal(401)
      expect((refused.json() as { code: string }).code).to.equal('ENC_ERR_AUTH_UNAUTHORIZED')
      expect((await app.inject({ method: 'POST', url: '/books', headers: bearer('k1') })).json()).to.deep.equal({ created: true })
    } finally { await app.close() }
  })

  it('on the controller class, guards every route of that controller and no other', async () => {
    @OnRequest(bearerAuthHook({ keys: ['k1'] }))
    @Route('/admin') class AdminController { @Get('/') a() { return { admin: true } } @Get('/b') b() { return { b: true } } }
    @Route('/open') class OpenController { @Get('/') o() { return { open: true } } }
    @Module({ controllers: [AdminController, OpenController] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/admin' })).statusCode).to.equal(401)
      expect((await app.inject({ url: '/admin/b' })).statusCode).to.equal(401)
      expect((await app.inject({ url: '/admin/b', headers: bearer('k1') })).statusCode).to.equal(200)
      expect((await app.inject({ url: '/open' })).statusCode).to.equal(200)
    } finally { await app.close() }
  })

  it('run in order: class hooks, then method hooks (stacked in source order), then the route options\' own', async () => {
    const mark = (label: string) => async (request: Request) => { (request.raw as unknown as { seen: string[] }).seen.push(label) }
    const seenHook = async (request: Request) => { (request.raw as unknown as { seen: string[] }).seen = [] }
    @OnRequest(seenHook, mark('class-1'))
    @Route('/') class Ordered {
      @OnRequest(mark('method-1')) @OnRequest(mark('method-2'))
      @PreValidation(mark('pre-validation'))
      @PreHandler(mark('pre-handler'))
      @Get('/', { onRequest: mark('option'), preHandler: mark('option-pre-handler') })
      get(@Req() request: Request) { return (request.raw as unknown as { seen: string[] }).seen }
    }
    @Module({ controllers: [Ordered] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/' })).json()).to.deep.equal(['class-1', 'method-1', 'method-2', 'option', 'pre-validation', 'pre-handler', 'option-pre-handler'])
    } finally { await app.close() }
  })

  it('records hooks at declaration, in source order, whichever side of the route decorator they sit', () => {
    const a = () => undefined; const b = () => undefined; const c = () => undefined
    @OnRequest(a) @OnRequest(b) class C { @Get('/') @PreHandler(c) m() {} }
    expect(getClassRouteHooks(C).map((h) => h.hooks[0])).to.deep.equal([a, b])
    expect(getMethodRouteHooks(C).get('m')).to.deep.equal([{ name: 'preHandler', hooks: [c] }])
  })

  it('authOf(request) says who passed a guard with named keys; the array form records nothing (its cost is unchanged)', async () => {
    @Route('/') class WhoController {
      @OnRequest(bearerAuthHook({ keys: { ci: 'key-ci', alice: 'key-alice' } })) @Get('/named') named(@Req() r: Request) { return authOf(r) }
      @OnRequest(bearerAuthHook({ keys: ['x', 'y'] })) @Get('/indexed') indexed(@Req() r: Request) { return { auth: authOf(r) ?? null } }
      @Get('/open') open(@Req() r: Request) { return { auth: authOf(r) ?? null } }
    }
    @Module({ controllers: [WhoController] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/named', headers: bearer('key-alice') })).json()).to.deep.equal({ scheme: 'bearer', subject: 'alice' })
      const indexed = await app.inject({ url: '/indexed', headers: bearer('y') })
      expect(indexed.statusCode).to.equal(200)
      expect(indexed.json()).to.deep.equal({ auth: null })
      expect((await app.inject({ url: '/open' })).json()).to.deep.equal({ auth: null })
    } finally { await app.close() }
  })

  it('the module-level bearerAuth() plugin sets authOf(request) too', async () => {
    @Route('/') class C { @Get('/') get(@Req() r: Request) { return authOf(r) } }
    @Module({ plugins: [bearerAuth({ keys: { ops: 'k' } })], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/', headers: bearer('k') })).json()).to.deep.equal({ scheme: 'bearer', subject: 'ops' })
    } finally { await app.close() }
  })

  it('openapi() marks bearer security (and its 401) on exactly the routes a route-level guard covers', async () => {
    const guard = bearerAuthHook({ keys: ['k1'] })
    @Route('/books') class BooksController {
      @Get('/') list() { return [] }
      @OnRequest(guard) @Post('/') create() { return {} }
    }
    @OnRequest(guard) @Route('/admin') class AdminController { @Get('/') a() { return {} } }
    @Module({ controllers: [BooksController, AdminController] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const doc = app.openapi({ title: 't', version: '1' }) as unknown as { paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>; components: { securitySchemes?: unknown } }
      expect(doc.paths['/books'].get.security).to.equal(undefined)
      expect(doc.paths['/books'].get.responses).to.not.have.property('401')
      expect(doc.paths['/books'].post.security).to.deep.equal([{ bearerAuth: [] }])
      expect(doc.paths['/books'].post.responses).to.have.property('401')
      expect(doc.paths['/admin'].get.security).to.deep.equal([{ bearerAuth: [] }])
      expect(doc.components.securitySchemes).to.deep.equal({ bearerAuth: { type: 'http', scheme: 'bearer' } })
    } finally { await app.close() }
  })

  it('refuses a decorator without a hook function, and one on a property', () => {
    const none = declarationError(() => { @OnRequest() class C {} return C })
    expect(none.code).to.equal('ENC_ERR_DECL_TARGET')
    expect(none.message).to.contain('@OnRequest() on C').and.contain('no hook')
    const notFn = declarationError(() => { class C { @PreHandler('auth' as never) @Get('/') m() {} } return C })
    expect(notFn.message).to.contain("got 'auth'")
    expect(declarationError(() => { class C { @OnRequest(() => undefined) static m() {} } return C }).code).to.equal('ENC_ERR_DECL_STATIC_MEMBER')
  })

  it('an undefined hook argument (a guard class from a circular import) gets the circular-import hint', () => {
    const Guard = undefined as unknown as RequestHook   // what `import { RootGuard } from './root'` gives inside a cycle
    const error = declarationError(() => { class X { @OnRequest(Guard) @Get('/') g() {} } return X })
    expect(error.code).to.equal('ENC_ERR_DECL_TARGET')
    expect(error.message).to.contain('@OnRequest() on X.g').and.contain('got undefined').and.contain('circular import').and.contain('type-only import')
  })

  it('refuses at boot a route hook on a module class with no controller route in it or below, pointing at @Hook(\'onRequest\')', async () => {
    @OnRequest(() => undefined) @Module() class Guarded {}
    const error = await bootError(Guarded)
    expect(error.code).to.equal('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED')
    expect(error.message).to.contain('Module Guarded').and.contain('no route').and.contain("@Hook('onRequest')")
  })

  it('refuses at boot a route hook on a module method: a module method is not a route', async () => {
    @Route('/') class C { @Get('/') ok() { return {} } }
    @Module({ controllers: [C] }) class AppModule { @OnRequest(() => undefined) helper() {} }
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED')
    expect(error.message).to.contain('Module AppModule').and.contain('on a method').and.contain('on the module class')
  })

  it('refuses at boot a route hook on a controller method that declares no route', async () => {
    @Route('/') class C { @Get('/') ok() { return {} } @OnRequest((_r: Request, _p: Reply) => undefined) helper() {} }
    @Module({ controllers: [C] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED')
    expect(error.message).to.contain('C.helper').and.contain('declares no route')
  })

  describe('a guard class: a provider whose handle() is the hook, with injected services', () => {
    @injectable() class Roles { admins = new Set(['ann']) }
    @injectable()
    class AdminOnly {
      constructor(private readonly roles: Roles) {}
      handle(request: Request, reply: Reply) {
        if (!this.roles.admins.has(String(request.headers['x-user']))) reply.code(403).send({ statusCode: 403, error: 'Forbidden', message: 'admins only' })
      }
    }
    describeSecurity(AdminOnly, { name: 'userHeader', scheme: { type: 'apiKey', in: 'header', name: 'x-user' }, status: 403 })

    it('guards the route with the module\'s provider instance, and openapi() marks the route with the class\'s security', async () => {
      @Route('/') class C { @OnRequest(AdminOnly) @Get('/admin') admin() { return { ok: true } } @Get('/open') open() { return { ok: true } } }
      @Module({ providers: [Roles, AdminOnly], controllers: [C] }) class AppModule {}
      const app = await createApp(AppModule)
      try {
        expect((await app.inject({ url: '/admin', headers: { 'x-user': 'bob' } })).statusCode).to.equal(403)
        expect((await app.inject({ url: '/admin', headers: { 'x-user': 'ann' } })).json()).to.deep.equal({ ok: true })
        expect((await app.inject({ url: '/open' })).statusCode).to.equal(200)
        const doc = app.openapi({ title: 't', version: '1' }) as unknown as { paths: Record<string, Record<string, { security?: unknown }>> }
        expect(doc.paths['/admin'].get.security).to.deep.equal([{ userHeader: [] }])
        expect(doc.paths['/open'].get.security).to.equal(undefined)
      } finally { await app.close() }
    })

    it('a bearer guard class built from an injected Config calls bearerAuthHook(request, reply) itself, and describeSecurity(Guard, bearerAuthSecurity) keeps the OpenAPI marking (issue: dx2 item 2)', async () => {
      class Config { apiKeys: readonly string[] = ['from-config'] }
      @injectable()
      class ApiKeyGuard {
        readonly #check: BearerAuthHook
        constructor(config: Config) { this.#check = bearerAuthHook({ keys: config.apiKeys }) }
        handle(request: Request, reply: Reply) { this.#check(request, reply) }
      }
      describeSecurity(ApiKeyGuard, bearerAuthSecurity)
      @Route('/') class C { @OnRequest(ApiKeyGuard) @Post('/orders') create() { return { ok: true } } @Get('/orders') list() { return [] } }
      @Module({ providers: [{ provide: Config, useFactory: () => new Config() }, ApiKeyGuard], controllers: [C] }) class AppModule {}
      const app = await createApp(AppModule)
      try {
        const refused = await app.inject({ method: 'POST', url: '/orders', headers: bearer('k1') })
        expect(refused.statusCode).to.equal(401)
        expect(refused.headers['www-authenticate']).to.equal('Bearer')
        expect((await app.inject({ method: 'POST', url: '/orders', headers: bearer('from-config') })).json()).to.deep.equal({ ok: true })
        const doc = app.openapi({ title: 't', version: '1' }) as unknown as { paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>> }
        expect(doc.paths['/orders'].post.security).to.deep.equal([{ bearerAuth: [] }])
        expect(doc.paths['/orders'].post.responses).to.have.property('401')
        expect(doc.paths['/orders'].post.responses, 'its describeSecurity() says what it answers').to.not.have.property('403')
        expect(doc.paths['/orders'].get.security).to.equal(undefined)
      } finally { await app.close() }
    })

    it('a bearer guard marked with describeSecurity() beside an unmarked roles guard (NestJS AuthGuard + RolesGuard) documents both statuses: 401 from the mark, 403 from the roles guard (newcomer13)', async () => {
      const Roles = routeMetadata<readonly string[]>('roles')
      @injectable()
      class JwtGuard {
        handle(request: Request) { if (request.headers.authorization === undefined) throw new HttpError(401, 'a bearer token is required') }
      }
      describeSecurity(JwtGuard, bearerAuthSecurity)
      @injectable()
      class RolesGuard {
        handle(request: Request): boolean { const roles = Roles.of(request); return roles === undefined || roles.includes(String(request.headers['x-role'])) }
      }
      @OnRequest(JwtGuard, RolesGuard)
      @Route('/') class C { @Roles(['admin']) @Post('/orders/cancel') cancel() { return { ok: true } } }
      @Module({ providers: [JwtGuard, RolesGuard], controllers: [C] }) class AppModule {}
      const app = await createApp(AppModule)
      try {
        expect((await app.inject({ method: 'POST', url: '/orders/cancel' })).statusCode).to.equal(401)
        expect((await app.inject({ method: 'POST', url: '/orders/cancel', headers: bearer('t') })).statusCode).to.equal(403)
        expect((await app.inject({ method: 'POST', url: '/orders/cancel', headers: { ...bearer('t'), 'x-role': 'admin' } })).statusCode).to.equal(200)
        const doc = app.openapi({ title: 't', version: '1' }) as unknown as { paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>> }
        const cancel = doc.paths['/orders/cancel'].post
        expect(cancel.security).to.deep.equal([{ bearerAuth: [] }])
        expect(cancel.responses).to.include.keys('401', '403')
      } finally { await app.close() }
    })

    it('refuses at boot a guard class the module does not provide, like any dependency, naming it as a guard of the controller (not as a factory\'s inject[0])', async () => {
      @Route('/') class C { @OnRequest(AdminOnly) @Get('/') g() { return {} } }
      @Module({ providers: [Roles], controllers: [C] }) class AppModule {}
      const error = await bootError(AppModule)
      expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
      expect(error.message).to.contain('controller C in AppModule needs AdminOnly (a guard class in its route hooks)')
      // A guards module that is a sibling, not lifted: the hint says to lift it.
      @Module({ providers: [Roles, AdminOnly] }) class GuardsModule {}
      @Route('/') class F { @OnRequest(AdminOnly) @Get('/') g() { return {} } }
      @Module({ controllers: [F] }) class Feature {}
      @Module({ plugins: [GuardsModule, Feature] }) class Root {}
      const sibling = await bootError(Root)
      expect(sibling.message).to.contain('controller F in Root > Feature needs AdminOnly (a guard class in its route hooks)')
        .and.contain('lift() GuardsModule').and.not.contain('inject[')
    })

    it('refuses at boot a guard class without handle()', async () => {
      @injectable() class NoHandle { check() {} }
      @Route('/') class C { @OnRequest(NoHandle as never) @Get('/') g() { return {} } }
      @Module({ providers: [NoHandle], controllers: [C] }) class AppModule {}
      const error = await bootError(AppModule)
      expect(error.code).to.equal('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED')
      expect(error.message).to.contain('NoHandle (on C)').and.contain('handle(request, reply)')
    })

    it('refuses at boot a NestJS guard (canActivate(context), no handle()) with a message that names the rename to handle(request, reply)', async () => {
      @injectable() class NestGuard { canActivate(): boolean { return true } }
      @Route('/') class C { @OnRequest(NestGuard as never) @Get('/') g() { return {} } }
      @Module({ providers: [NestGuard], controllers: [C] }) class AppModule {}
      const error = await bootError(AppModule)
      expect(error.code).to.equal('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED')
      expect(error.message).to.contain('NestGuard (on C)').and.contain('canActivate()').and.contain('rename it handle(request, reply)')
        .and.contain('not an ExecutionContext')
    })

    it('a guard class whose handle() returns false, or resolves to false, denies with 403 ENC_ERR_GUARD_DENIED and the handler never runs', async () => {
      let ran = 0
      @injectable() class SyncAdmin { handle(request: Request): boolean { return request.headers['x-admin'] === '1' } }
      @injectable() class AsyncAdmin { async handle(request: Request): Promise<boolean> { return request.headers['x-admin'] === '1' } }
      @Route('/n') class N {
        @OnRequest(SyncAdmin) @Get('/sync') s() { ran++; return { secret: 'sync' } }
        @PreHandler(AsyncAdmin) @Get('/async') a() { ran++; return { secret: 'async' } }
      }
      @Module({ providers: [SyncAdmin, AsyncAdmin], controllers: [N] }) class AppModule {}
      const app = await createApp(AppModule)
      try {
        for (const url of ['/n/sync', '/n/async']) {
          const denied = await app.inject({ url })
          expect(denied.statusCode, url).to.equal(403)
          expect(denied.json()).to.deep.equal({ statusCode: 403, code: 'ENC_ERR_GUARD_DENIED', error: 'Forbidden', message: 'Forbidden resource' })
        }
        expect(ran).to.equal(0)
        expect((await app.inject({ url: '/n/sync', headers: { 'x-admin': '1' } })).json()).to.deep.equal({ secret: 'sync' })
        expect((await app.inject({ url: '/n/async', headers: { 'x-admin': '1' } })).json()).to.deep.equal({ secret: 'async' })
      } finally { await app.close() }
    })

    it('openapi() documents the 403 ENC_ERR_GUARD_DENIED (the framework\'s error body) on exactly the routes a guard class runs on', async () => {
      @injectable() class Admin { handle(request: Request): boolean { return request.headers['x-admin'] === '1' } }
      @injectable() class Staff { async handle(request: Request): Promise<boolean> { return request.headers['x-staff'] === '1' } }
      @Route('/p') class P {
        @OnRequest(Admin) @Post('/guarded') g() { return { ok: true } }
        @OnRequest(Admin) @PreHandler(Staff) @Get('/twice') t() { return { ok: true } }
        @Get('/open') o() { return { ok: true } }
      }
      @Module({ providers: [Admin, Staff], controllers: [P] }) class AppModule {}
      const app = await createApp(AppModule)
      try {
        type Doc = { paths: Record<string, Record<string, { security?: unknown; responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }> }>> }
        const doc = app.openapi({ title: 't', version: '1' }) as unknown as Doc
        const forbidden = doc.paths['/p/guarded'].post.responses['403']
        expect(forbidden.description).to.equal('Forbidden: refused by Admin.handle (ENC_ERR_GUARD_DENIED).')
        expect(forbidden.content?.['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/EnclaveError' })
        expect(doc.paths['/p/twice'].get.responses['403'].description).to.equal('Forbidden: refused by Admin.handle (ENC_ERR_GUARD_DENIED), Staff.handle (ENC_ERR_GUARD_DENIED).')
        expect(doc.paths['/p/open'].get.responses).to.not.have.property('403')
        expect(doc.paths['/p/guarded'].post.security, 'no security scheme is invented').to.equal(undefined)
        expect(app.inspect().routes.find((r) => r.url === '/p/guarded')?.refusals.map((r) => [r.status, r.code, r.fn]))
          .to.deep.equal([[403, 'ENC_ERR_GUARD_DENIED', 'Admin.handle']])
      } finally { await app.close() }
    })

    it('a guard class whose handle() returns true or nothing proceeds; one that sent its own answer and returns false keeps that answer', async () => {
      @injectable() class Yes { handle(): boolean { return true } }
      @injectable() class Quiet { async handle(): Promise<void> {} }
      @injectable() class OwnAnswer { handle(_request: Request, reply: Reply): boolean { reply.code(418).send({ teapot: true }); return false } }
      @Route('/') class C {
        @OnRequest(Yes, Quiet) @Get('/open') open() { return { ok: true } }
        @OnRequest(OwnAnswer) @Get('/own') own() { return { ok: true } }
      }
      @Module({ providers: [Yes, Quiet, OwnAnswer], controllers: [C] }) class AppModule {}
      const app = await createApp(AppModule)
      try {
        expect((await app.inject({ url: '/open' })).json()).to.deep.equal({ ok: true })
        const own = await app.inject({ url: '/own' })
        expect([own.statusCode, own.json()]).to.deep.equal([418, { teapot: true }])
      } finally { await app.close() }
    })

    it('a guard class whose handle() throws (or rejects) an HttpError answers with its status and body: a 401 from a guard, not only 403', async () => {
      @injectable() class Jwtish {
        async handle(request: Request): Promise<void> {
          if (request.headers.authorization !== 'Bearer ok') throw new HttpError(401, 'invalid or missing access token')
        }
      }
      @injectable() class SyncThrow { handle(): void { throw new HttpError(401, 'no session') } }
      @Route('/') class C {
        @OnRequest(Jwtish) @Get('/me') me() { return { ok: true } }
        @OnRequest(SyncThrow) @Get('/sync') sync() { return { ok: true } }
      }
      @Module({ providers: [Jwtish, SyncThrow], controllers: [C] }) class AppModule {}
      const app = await createApp(AppModule)
      try {
        const denied = await app.inject({ url: '/me' })
        expect([denied.statusCode, denied.json()]).to.deep.equal([401, { statusCode: 401, error: 'Unauthorized', message: 'invalid or missing access token' }])
        expect((await app.inject({ url: '/me', headers: { authorization: 'Bearer ok' } })).json()).to.deep.equal({ ok: true })
        expect((await app.inject({ url: '/sync' })).json()).to.deep.equal({ statusCode: 401, error: 'Unauthorized', message: 'no session' })
      } finally { await app.close() }
    })

    it('a guard class with a done callback is called with done: done(error) denies, done() proceeds', async () => {
      @injectable() class CbGuard {
        handle(request: Request, _reply: Reply, done: DoneFn) {
          done(request.headers['x-key'] === 'k' ? undefined : Object.assign(new Error('no key'), { statusCode: 403 }))
        }
      }
      @Route('/') class C { @OnRequest(CbGuard) @Get('/cb') cb() { return { ok: true } } }
      @Module({ providers: [CbGuard], controllers: [C] }) class AppModule {}
      const app = await createApp(AppModule)
      try {
        expect((await app.inject({ url: '/cb' })).statusCode).to.equal(403)
        expect((await app.inject({ url: '/cb', headers: { 'x-key': 'k' } })).json()).to.deep.equal({ ok: true })
      } finally { await app.close() }
    })

    it('a done-style guard class that returns false (its types refuse it) denies at once with 403, and a later done() is ignored', async () => {
      let ran = 0
      @injectable() class FalseGuard {
        handle(request: Request, _reply: Reply, done: DoneFn): unknown {
          if (request.headers['x-ok'] === '1') { done(); return true }
          setImmediate(() => done())
          return false
        }
      }
      @injectable() class AsyncFalse { async handle(_request: Request, _reply: Reply, _done: DoneFn): Promise<unknown> { return false } }
      @Route('/') class C {
        @OnRequest(FalseGuard as never) @Get('/f') f() { ran++; return { ok: true } }
        @OnRequest(AsyncFalse as never) @Get('/a') a() { ran++; return { ok: true } }
      }
      @Module({ providers: [FalseGuard, AsyncFalse], controllers: [C] }) class AppModule {}
      const app = await createApp(AppModule, { handlerTimeout: 2000 })
      try {
        for (const url of ['/f', '/a']) {
          const denied = await app.inject({ url })
          expect([denied.statusCode, (denied.json() as { code: string }).code], url).to.deep.equal([403, 'ENC_ERR_GUARD_DENIED'])
        }
        await new Promise((resolve) => setImmediate(resolve))
        expect(ran).to.equal(0)
        expect((await app.inject({ url: '/f', headers: { 'x-ok': '1' } })).json()).to.deep.equal({ ok: true })
      } finally { await app.close() }
    })

    it('a plain hook function keeps Fastify semantics: its return value is ignored, false included', async () => {
      @Route('/') class C { @OnRequest((() => false) as RequestHook) @Get('/f') f() { return { ran: true } } }
      @Module({ controllers: [C] }) class AppModule {}
      const app = await createApp(AppModule)
      try {
        expect((await app.inject({ url: '/f' })).json()).to.deep.equal({ ran: true })
      } finally { await app.close() }
    })
  })
})

describe('guards and @fastify/rate-limit: which one counts first (docs/controllers.md, "Hook order matters for guards")', () => {
  async function statuses(place: 'onRequest' | 'preHandler'): Promise<number[]> {
    const rateLimit = (await import('@fastify/rate-limit')).default
    const guard = bearerAuthHook({ keys: ['k1'] })
    @Route('/login')
    class LoginController {
      @Post('/') login() { return { ok: true } }
    }
    if (place === 'onRequest') OnRequest(guard)(LoginController.prototype, 'login', Object.getOwnPropertyDescriptor(LoginController.prototype, 'login')!)
    else PreHandler(guard)(LoginController.prototype, 'login', Object.getOwnPropertyDescriptor(LoginController.prototype, 'login')!)
    @Module({ plugins: [[rateLimit, { max: 2, timeWindow: 60_000 }]], controllers: [LoginController] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const codes: number[] = []
      for (let i = 0; i < 4; i++) codes.push((await app.inject({ method: 'POST', url: '/login', headers: bearer('wrong') })).statusCode)
      return codes
    } finally {
      await app.close()
    }
  }

  it('a guard on onRequest refuses before the limiter counts: failed logins are never limited', async () => {
    expect(await statuses('onRequest')).to.deep.equal([401, 401, 401, 401])
  })

  it('a guard on preHandler runs after the limiter: the third failed login is 429', async () => {
    expect(await statuses('preHandler')).to.deep.equal([401, 401, 429, 429])
  })
})
