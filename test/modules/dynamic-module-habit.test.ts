import 'reflect-metadata'
import { expect } from 'chai'
import { Get, Module, Route, createApp, inject, injectable, isDeclarationError, lift, type InjectionToken } from '../../src'

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
