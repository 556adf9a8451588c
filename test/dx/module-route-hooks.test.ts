import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { Get, Hook, Module, OnRequest, OnSend, PreHandler, Req, Route, UseInterceptors, routeMetadata } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { describeSecurity, lift } from '../../src/runtime'
import type { Reply, Request } from '../../src/runtime'
import { bootError } from '../modules/helpers'

type Seen = { seen: string[] }
const seen = (request: Request) => (request.raw as unknown as Partial<Seen>)
const mark = (label: string) => async (request: Request) => { (seen(request).seen ??= []).push(label) }

const Public = routeMetadata<boolean>('isPublic')

/** NestJS's APP_GUARD: every route needs x-user, unless marked @Public(true). */
@injectable()
class Users { known = new Set(['ann']) }
@injectable()
class AuthGuard {
  constructor(private readonly users: Users) {}
  handle(request: Request) {
    if (Public.of(request) === true) return true
    return this.users.known.has(String(request.headers['x-user']))
  }
}

describe('route hooks on a module class: every controller route of the module and its descendants (NestJS APP_GUARD)', () => {
  it('a guard class on the root module guards every controller route below it, reads routeMetadata (@Public), and leaves unknown URLs their 404', async () => {
    @Route('/cats') class CatsController {
      @Get('/') list() { return ['tom'] }
      @Public(true) @Get('/public') open() { return { open: true } }
    }
    @Module({ controllers: [CatsController], prefix: '/v1' }) class CatsModule {}
    @Route('/') class RootController { @Get('/me') me() { return { me: true } } }
    @OnRequest(AuthGuard)
    @Module({ providers: [Users, AuthGuard], controllers: [RootController], plugins: [CatsModule] })
    class AppModule {}
    const app = await createApp(AppModule)
    try {
      const denied = await app.inject({ url: '/v1/cats' })
      expect(denied.statusCode).to.equal(403)
      expect((denied.json() as { code: string }).code).to.equal('ENC_ERR_GUARD_DENIED')
      expect((await app.inject({ url: '/v1/cats', headers: { 'x-user': 'ann' } })).json()).to.deep.equal(['tom'])
      expect((await app.inject({ url: '/me' })).statusCode).to.equal(403)
      expect((await app.inject({ url: '/v1/cats/public' })).json()).to.deep.equal({ open: true })
      const unknown = await app.inject({ url: '/nope' })
      expect(unknown.statusCode).to.equal(404)
      expect((await app.inject({ url: '/v1/nope' })).statusCode).to.equal(404)
    } finally { await app.close() }
  })

  it('runs module hooks outermost module first, then the controller\'s, then the method\'s, then the route options\' own', async () => {
    @OnRequest(mark('controller'))
    @Route('/') class C {
      @OnRequest(mark('method')) @Get('/', { onRequest: mark('option') })
      get(@Req() request: Request) { return seen(request).seen }
    }
    @OnRequest(mark('child-1'), mark('child-2')) @Module({ controllers: [C] }) class ChildModule {}
    @OnRequest(mark('root')) @Module({ plugins: [ChildModule] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/' })).json()).to.deep.equal(['root', 'child-1', 'child-2', 'controller', 'method', 'option'])
    } finally { await app.close() }
  })

  it('runs after the context\'s @Hook(\'onRequest\') methods, as Fastify runs scope hooks before a route\'s own', async () => {
    @Route('/') class C { @Get('/') get(@Req() request: Request) { return seen(request).seen } }
    @OnRequest(mark('module route hook'))
    @Module({ controllers: [C] })
    class AppModule { @Hook('onRequest') async scopeHook(request: Request) { await mark('scope hook')(request) } }
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/' })).json()).to.deep.equal(['scope hook', 'module route hook'])
    } finally { await app.close() }
  })

  it('applies to the module\'s own routes and its descendants\', never to a parent\'s or a sibling\'s, lifted modules included', async () => {
    @Route('/a') class A { @Get('/') a() { return { a: true } } }
    @Route('/b') class B { @Get('/') b() { return { b: true } } }
    @Route('/root') class R { @Get('/') r() { return { r: true } } }
    @PreHandler(() => { throw Object.assign(new Error('guarded'), { statusCode: 401 }) })
    @Module({ controllers: [A] }) class Guarded {}
    @Module({ controllers: [B] }) class Sibling {}
    @Module({ controllers: [R], plugins: [lift(Guarded), Sibling] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/a' })).statusCode).to.equal(401)
      expect((await app.inject({ url: '/b' })).statusCode).to.equal(200)
      expect((await app.inject({ url: '/root' })).statusCode).to.equal(200)
    } finally { await app.close() }
  })

  it('a module\'s guards and interceptors cover its controller routes only (NestJS binds them to controllers): a route a plugin function in it declares (lifted or not) and a 404 under its prefix are covered by its @Hook(\'onRequest\') alone', async () => {
    @injectable() class Envelope { async intercept(_context: object, next: () => Promise<unknown>) { return { data: await next() } } }
    @Route('/') class C { @Get('/ctrl') ctrl(@Req() request: Request) { return seen(request).seen } }
    const pluginRoutes = async (scope: import('../../src/runtime').Scope) => { scope.get('/plugin', async (request) => seen(request).seen) }
    const liftedRoutes = lift(async (scope: import('../../src/runtime').Scope) => { scope.get('/lifted', async (request) => seen(request).seen) })
    @OnRequest(mark('guard'))
    @UseInterceptors(Envelope)
    @Module({ prefix: '/m', providers: [Envelope], controllers: [C], plugins: [pluginRoutes, liftedRoutes] })
    class AppModule {
      @Hook('onRequest') async everyRequest(request: Request) { await mark('hook')(request) }
      @Hook('onResponse') async after(request: Request) { notFoundSeen.push(...(request.url === '/m/nothing' ? seen(request).seen ?? [] : [])) }
    }
    const notFoundSeen: string[] = []
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/m/ctrl' })).json()).to.deep.equal({ data: ['hook', 'guard'] })
      expect((await app.inject({ url: '/m/plugin' })).json()).to.deep.equal(['hook'])
      expect((await app.inject({ url: '/m/lifted' })).json()).to.deep.equal(['hook'])
      expect((await app.inject({ url: '/m/nothing' })).statusCode).to.equal(404)
      expect(notFoundSeen).to.deep.equal(['hook'])
    } finally { await app.close() }
  })

  it('resolves a module\'s hook class once, from that module\'s container: one instance for every route it guards', async () => {
    let built = 0
    @injectable() class Counting { constructor() { built++ } handle(_request: Request, _reply: Reply) { return true } }
    @Route('/x') class X { @Get('/') x() { return {} } }
    @Route('/y') class Y { @Get('/') y() { return {} } }
    @Module({ controllers: [Y] }) class Child {}
    @OnRequest(Counting) @Module({ providers: [Counting], controllers: [X], plugins: [Child] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/x' })).statusCode).to.equal(200)
      expect((await app.inject({ url: '/y' })).statusCode).to.equal(200)
      expect(built).to.equal(1)
    } finally { await app.close() }
  })

  it('openapi() marks every route a module guard class covers with its describeSecurity(), and no other', async () => {
    @injectable() class KeyGuard { handle(request: Request) { return request.headers['x-key'] === 'k' } }
    describeSecurity(KeyGuard, { name: 'apiKey', scheme: { type: 'apiKey', in: 'header', name: 'x-key' }, status: 403 })
    @Route('/in') class In { @Get('/') g() { return {} } }
    @Route('/out') class Out { @Get('/') g() { return {} } }
    @OnRequest(KeyGuard) @Module({ prefix: '/g', providers: [KeyGuard], controllers: [In] }) class GuardedModule {}
    @Module({ controllers: [Out], plugins: [GuardedModule] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const doc = app.openapi({ title: 't', version: '1' }) as unknown as { paths: Record<string, Record<string, { security?: unknown }>> }
      expect(doc.paths['/g/in'].get.security).to.deep.equal([{ apiKey: [] }])
      expect(doc.paths['/out'].get.security).to.equal(undefined)
    } finally { await app.close() }
  })

  it('refuses at boot a module hook class the module does not provide, naming the module', async () => {
    @Route('/') class C { @Get('/') g() { return {} } }
    @OnRequest(AuthGuard) @Module({ providers: [Users], controllers: [C] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain('AuthGuard').and.contain('module AppModule')
  })

  it('refuses at boot a module hook class without handle()', async () => {
    @injectable() class NotAGuard { check() { return true } }
    @Route('/') class C { @Get('/') g() { return {} } }
    @OnRequest(NotAGuard as never) @Module({ providers: [NotAGuard], controllers: [C] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED')
    expect(error.message).to.contain('NotAGuard (on AppModule)').and.contain('no handle(request, reply)')
  })

  it('an interceptor stage on a module (@OnSend) applies to its routes too', async () => {
    @Route('/') class C { @Get('/') g() { return { ok: true } } }
    @OnSend(async (_request: Request, reply: Reply, payload: unknown) => { reply.header('x-wrapped', '1'); return payload })
    @Module({ controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const response = await app.inject({ url: '/' })
      expect(response.headers['x-wrapped']).to.equal('1')
      expect(response.json()).to.deep.equal({ ok: true })
    } finally { await app.close() }
  })
})
