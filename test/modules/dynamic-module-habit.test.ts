import 'reflect-metadata'
import { expect } from 'chai'
import { ConfigurableModuleBuilder, Get, Hook, Module, Route, createApp, inject, injectable, isDeclarationError, lift, type InjectionToken } from '../../src'

// NestJS's forRoot()/register() habit: what Enclave answers for the DynamicModule object, and the
// configurable module the README offers instead (a function that declares a module class).
const CACHE_OPTIONS = Symbol('CACHE_OPTIONS')

@Route('/ttl') class TtlController {
  constructor(@inject(CACHE_OPTIONS) private readonly options: { ttl: number }) {}
  @Get('/') get() { return { ttl: this.options.ttl } }
}

describe('NestJS dynamic modules (forRoot) in @Module({ plugins })', () => {
  it('refuses a { module, providers } object at declaration, naming the module and the static alternatives', () => {
    class CacheModule { static forRoot(ttl: number) { return { module: CacheModule, providers: [{ provide: CACHE_OPTIONS, useValue: { ttl } }] } } }
    let caught: unknown
    try { Module({ plugins: [CacheModule.forRoot(60) as never] })(class AppModule {}) } catch (error) { caught = error }
    expect(isDeclarationError(caught)).to.equal(true)
    const error = caught as Error & { code: string }
    // Before: "plugins[0] is an object; expected a module class, lift(Module), ...", with no word on forRoot().
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
    expect(error.message).to.contain('@Module() of AppModule: plugins[0] is a NestJS dynamic module ({ module: CacheModule, ... }')
      .and.contain('factory provider ({ provide, useFactory, inject })').and.contain('a module class that a function declares')
  })

  it('serves a configurable module: a function that declares a module class per configuration, lifted where its providers are needed', async () => {
    function cacheModule(options: { ttl: number }): Function {
      @Module({ providers: [{ provide: CACHE_OPTIONS, useValue: options }] }) class CacheModule {}
      return CacheModule
    }
    @Module({ plugins: [lift(cacheModule({ ttl: 60 }))], controllers: [TtlController] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/ttl')).json()).to.deep.equal({ ttl: 60 })
    await app.close()
  })

  it('serves forRootAsync({ useFactory, inject }): the function declares an async factory provider whose inject list comes from an ancestor, awaited at boot', async () => {
    @injectable() class AppConfig { readonly jwtSecret = 's3cret' }
    const JWT_OPTIONS = Symbol('JWT_OPTIONS')
    @injectable() class JwtService { constructor(@inject(JWT_OPTIONS) readonly options: { secret: string }) {} sign(sub: string) { return `${sub}.${this.options.secret}` } }
    function jwtModuleAsync(async: { useFactory: (...args: any[]) => Promise<{ secret: string }>; inject: readonly InjectionToken[] }): Function {
      @Module({ providers: [{ provide: JWT_OPTIONS, useFactory: async.useFactory, inject: [...async.inject] }, JwtService] }) class JwtModule {}
      return JwtModule
    }
    @Route('/token') class TokenController { constructor(private readonly jwt: JwtService) {} @Get('/') get() { return { token: this.jwt.sign('ada') } } }
    @Module({
      providers: [AppConfig],
      plugins: [lift(jwtModuleAsync({ useFactory: async (config: AppConfig) => { await new Promise((resolve) => setTimeout(resolve, 1)); return { secret: config.jwtSecret } }, inject: [AppConfig] }))],
      controllers: [TokenController],
    })
    class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/token')).json()).to.deep.equal({ token: 'ada.s3cret' })
    await app.close()
  })

  it("re-exports a module as NestJS's exports: [DatabaseModule] does: a lifted module that lifts another passes its providers up to the parent", async () => {
    @injectable() class Database { readonly name = 'db' }
    @Module({ providers: [Database] }) class DatabaseModule {}
    @Module({ plugins: [lift(DatabaseModule)] }) class CoreModule {}
    @Route('/db') class DbController { constructor(private readonly db: Database) {} @Get('/') get() { return { name: this.db.name } } }
    @Module({ plugins: [lift(CoreModule)], controllers: [DbController] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/db')).json()).to.deep.equal({ name: 'db' })
    await app.close()
  })
})

describe("NestJS's ConfigurableModuleBuilder (README \"Coming from NestJS\")", () => {
  interface CacheOptions { ttl: number }
  const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<CacheOptions>().setClassMethodName('forRoot').build()
  @injectable() class Cache { constructor(@inject(MODULE_OPTIONS_TOKEN) readonly options: CacheOptions) {} }
  @Route('/cache') class CacheController { constructor(private readonly cache: Cache) {} @Get('/') get() { return { ttl: this.cache.options.ttl } } }
  @Module({ providers: [Cache], controllers: [CacheController] }) class CacheModule extends ConfigurableModuleClass {}

  it('forRoot(options) is a module class of its own per call, its providers given the options (two configurations side by side)', async () => {
    @Module({ prefix: '/a', plugins: [CacheModule.forRoot({ ttl: 60 })] }) class A {}
    @Module({ prefix: '/b', plugins: [CacheModule.forRoot({ ttl: 5 })] }) class B {}
    @Module({ plugins: [A, B] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/a/cache')).json()).to.deep.equal({ ttl: 60 })
    expect((await app.inject('/b/cache')).json()).to.deep.equal({ ttl: 5 })
    expect(CacheModule.forRoot({ ttl: 1 })).to.not.equal(CacheModule.forRoot({ ttl: 1 }))
    expect(CacheModule.forRoot({ ttl: 1 }).name).to.equal('CacheModule')
    await app.close()
  })

  it('forRootAsync({ useFactory, inject }) is awaited at boot, its inject tokens from an ancestor; lift() shows its providers to the parent (NestJS exports)', async () => {
    @injectable() class AppConfig { readonly ttl = 30 }
    @Route('/parent') class ParentController { constructor(private readonly cache: Cache) {} @Get('/') get() { return { ttl: this.cache.options.ttl } } }
    @Module({
      providers: [AppConfig],
      plugins: [lift(CacheModule.forRootAsync({ useFactory: async (config: AppConfig) => { await new Promise((resolve) => setTimeout(resolve, 1)); return { ttl: config.ttl } }, inject: [AppConfig] }))],
      controllers: [ParentController],
    })
    class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/parent')).json()).to.deep.equal({ ttl: 30 })
    expect((await app.inject('/cache')).json()).to.deep.equal({ ttl: 30 })
    await app.close()
  })

  it('keeps what is declared on the module class: its hooks, lifecycle methods and constructor injection', async () => {
    const calls: string[] = []
    @Module({ providers: [Cache] }) class Hooked extends ConfigurableModuleClass {
      constructor(readonly cache: Cache) { super() }
      onModuleInit() { calls.push(`init ${this.cache.options.ttl}`) }
      @Hook('onRequest') async mark(request: { url: string }) { calls.push(`hook ${request.url}`) }
    }
    @Route('/x') class X { @Get('/') get() { return {} } }
    @Module({ plugins: [lift(Hooked.forRoot({ ttl: 9 }))], controllers: [X] }) class AppModule {}
    const app = await createApp(AppModule)
    await app.inject('/x')
    expect(calls).to.deep.equal(['init 9', 'hook /x'])
    await app.close()
  })

  it('register() / registerAsync() by default; a module that does not inject the options, without them, fails boot naming MODULE_OPTIONS_TOKEN', async () => {
    const built = new ConfigurableModuleBuilder<{ url: string }>().build()
    @injectable() class Client { constructor(@inject(built.MODULE_OPTIONS_TOKEN) readonly options: { url: string }) {} }
    @Route('/url') class U { constructor(private readonly client: Client) {} @Get('/') get() { return { url: this.client.options.url } } }
    @Module({ providers: [Client], controllers: [U] }) class ClientModule extends built.ConfigurableModuleClass {}
    @Module({ plugins: [ClientModule.register({ url: 'redis://x' })] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/url')).json()).to.deep.equal({ url: 'redis://x' })
    await app.close()
    // Listed as it is, without register(): nothing provides the options.
    @Module({ plugins: [ClientModule] }) class Unconfigured {}
    const error = await createApp(Unconfigured).then(() => null, (caught: Error & { code?: string }) => caught)
    expect(error?.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error?.message).to.contain('register: MODULE_OPTIONS_TOKEN')
  })
})
