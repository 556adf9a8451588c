import 'reflect-metadata'
import { expect } from 'chai'
import { Get, Module, OnRequest, Post, Route, injectable, routeMetadata, type Reply, type Request } from '../../src'
import { createApp } from '../../src/modules'
import { declarationError } from './helpers'

const Roles = routeMetadata<readonly string[]>('roles')

// NestJS's RolesGuard with Reflector: the route's roles, else open.
@injectable()
class RolesGuard {
  handle(request: Request): boolean {
    const roles = Roles.of(request)
    return roles === undefined || roles.includes(String(request.headers['x-role']))
  }
}

describe('routeMetadata() (NestJS SetMetadata + Reflector)', () => {
  it('a value on a route method is what a guard class reads with of(request): the route answers 403 to other roles', async () => {
    @Route('/books') @OnRequest(RolesGuard)
    class Books {
      @Get('/') list() { return { open: true } }
      @Roles(['admin']) @Post('/') create() { return { created: true } }
    }
    @Module({ controllers: [Books], providers: [RolesGuard] }) class App {}
    const app = await createApp(App)
    try {
      expect((await app.inject({ method: 'POST', url: '/books', headers: { 'x-role': 'reader' } })).statusCode).to.equal(403)
      expect((await app.inject({ method: 'POST', url: '/books', headers: { 'x-role': 'admin' } })).json()).to.deep.equal({ created: true })
      expect((await app.inject({ method: 'GET', url: '/books', headers: { 'x-role': 'reader' } })).json()).to.deep.equal({ open: true })
    } finally { await app.close() }
  })

  it('a value on the controller class applies to each of its routes, and a method value overrides it', async () => {
    const seen: unknown[] = []
    @Route('/admin') @Roles(['admin']) @OnRequest((request: Request) => { seen.push(Roles.of(request)) })
    class Admin {
      @Get('/a') a() { return {} }
      @Roles(['ops']) @Get('/b') b() { return {} }
    }
    @Module({ controllers: [Admin] }) class App {}
    const app = await createApp(App)
    try {
      await app.inject('/admin/a')
      await app.inject('/admin/b')
      expect(seen).to.deep.equal([['admin'], ['ops']])
    } finally { await app.close() }
  })

  it('a subclass controller inherits its base class\'s value and may override it', async () => {
    const seen: unknown[] = []
    @Roles(['base']) class Base { @Get('/x') x() { return {} } }
    @Route('/sub') @OnRequest((request: Request) => { seen.push(Roles.of(request)) }) class Sub extends Base {}
    @Route('/over') @Roles(['over']) @OnRequest((request: Request) => { seen.push(Roles.of(request)) }) class Over extends Base {}
    @Module({ controllers: [Sub, Over] }) class App {}
    const app = await createApp(App)
    try {
      await app.inject('/sub/x')
      await app.inject('/over/x')
      expect(seen).to.deep.equal([['base'], ['over']])
    } finally { await app.close() }
  })

  it('is stored in the route config beside the route options\' own config keys, which plugins and reply.context see', async () => {
    const Tag = routeMetadata<string>('tag')
    @Route('/c')
    class C {
      @Tag('t1') @Get('/', { config: { rateLimit: { max: 5 } } })
      get(_request: Request, reply: Reply) { return { tag: Tag.of(reply) ?? null, config: reply.context.config } }
    }
    @Module({ controllers: [C] }) class App {}
    const app = await createApp(App)
    try {
      expect((await app.inject('/c')).json()).to.deep.equal({ tag: 't1', config: { rateLimit: { max: 5 }, tag: 't1', url: '/c', method: 'GET' } })
    } finally { await app.close() }
  })

  it('reads undefined on a route that carries none, and the route options keep their config untouched', async () => {
    @Route('/n')
    class N { @Get('/') get(request: Request) { return { roles: Roles.of(request) ?? 'none', config: request.context.config } } }
    @Module({ controllers: [N] }) class App {}
    const app = await createApp(App)
    try {
      expect((await app.inject('/n')).json()).to.deep.equal({ roles: 'none', config: { url: '/n', method: 'GET' } })
    } finally { await app.close() }
  })

  it('refuses an empty key, a property and a static method at declaration', () => {
    expect(declarationError(() => routeMetadata('')).code).to.equal('ENC_ERR_DECL_ROUTE_OPTIONS')
    const onProperty = declarationError(() => { class P { @(Roles(['a']) as PropertyDecorator) x = 1 } return P })
    expect(onProperty.code).to.equal('ENC_ERR_DECL_TARGET')
    expect(onProperty.message).to.contain("routeMetadata('roles') on P.x")
    const onStatic = declarationError(() => { class S { @Roles(['a']) static m() {} } return S })
    expect(onStatic.code).to.equal('ENC_ERR_DECL_STATIC_MEMBER')
  })
})

describe('routeMetadata() where no route would carry it', () => {
  it('on a controller method that declares no route is refused at boot, naming the method and the key', async () => {
    @Route('/h') class H { @Roles(['admin']) helper() { return 1 } @Get('/') get() { return {} } }
    @Module({ controllers: [H] }) class App {}
    const error = await createApp(App).then(() => null, (e: Error & { code: string }) => e)
    expect(error?.code).to.equal('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED')
    expect(error?.message).to.include("H.helper (listed in App) carries routeMetadata('roles') but declares no route")
  })

  it('on a module class is refused at boot, naming the module and the key', async () => {
    @Roles(['admin']) @Module({}) class Admin {}
    const error = await createApp(Admin).then(() => null, (e: Error & { code: string }) => e)
    expect(error?.code).to.equal('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED')
    expect(error?.message).to.include("Module Admin (Admin) carries routeMetadata('roles')")
  })

  it('of(request) reads only values set on the route: a key named like an Object.prototype member is undefined where unset', async () => {
    const IsPublic = routeMetadata<boolean>('constructor')
    const Named = routeMetadata<string>('toString')
    const seen: unknown[] = []
    @Route('/notes') @OnRequest((request: Request) => { seen.push(IsPublic.of(request), Named.of(request)) })
    class Notes {
      @Get('/') list() { return {} }
      @IsPublic(true) @Named('open') @Get('/open') open() { return {} }
    }
    @Module({ controllers: [Notes] }) class App {}
    const app = await createApp(App)
    try {
      await app.inject('/notes')
      await app.inject('/notes/open')
      expect(seen).to.deep.equal([undefined, undefined, true, 'open'])
    } finally { await app.close() }
  })
})
