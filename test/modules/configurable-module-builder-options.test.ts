import { expect } from 'chai'
import { ConfigurableModuleBuilder, Get, Module, Route, createApp, inject, injectable, isDeclarationError, lift } from '../../src'

// NestJS's ConfigurableModuleBuilder constructor options and setFactoryMethodName(), as NestJS apps write them:
//   new ConfigurableModuleBuilder<CacheOptions>({ moduleName: 'Cache' }).setFactoryMethodName('createCacheOptions')
//   CacheModule.registerAsync({ useClass: CacheConfig })   // CacheConfig.createCacheOptions() gives the options

interface CacheOptions { ttl: number }
const declarationFailure = (declare: () => unknown): Error & { code?: string } => {
  try { declare() } catch (error) { return error as Error & { code?: string } }
  throw new Error('expected a declaration error')
}

describe("ConfigurableModuleBuilder's constructor options and setFactoryMethodName() (NestJS's)", () => {
  it("moduleName names MODULE_OPTIONS_TOKEN as NestJS does ('Cache' gives 'CACHE_MODULE_OPTIONS', 'RateLimit' 'RATE_LIMIT_MODULE_OPTIONS')", () => {
    expect(new ConfigurableModuleBuilder<CacheOptions>({ moduleName: 'Cache' }).build().MODULE_OPTIONS_TOKEN).to.equal('CACHE_MODULE_OPTIONS')
    expect(new ConfigurableModuleBuilder<CacheOptions>({ moduleName: 'RateLimit' }).setClassMethodName('forRoot').build().MODULE_OPTIONS_TOKEN).to.equal('RATE_LIMIT_MODULE_OPTIONS')
  })

  it('optionsInjectionToken is the token as given (a string or a symbol), and a module injects its options under it', async () => {
    const CACHE_OPTIONS = Symbol('CACHE_OPTIONS')
    const built = new ConfigurableModuleBuilder<CacheOptions>({ optionsInjectionToken: CACHE_OPTIONS }).build()
    expect(built.MODULE_OPTIONS_TOKEN).to.equal(CACHE_OPTIONS)
    expect(new ConfigurableModuleBuilder<CacheOptions>({ optionsInjectionToken: 'CACHE' }).build().MODULE_OPTIONS_TOKEN).to.equal('CACHE')
    @Route('/ttl') class TtlController { constructor(@inject(CACHE_OPTIONS) private readonly options: CacheOptions) {} @Get('/') get() { return this.options } }
    @Module({ controllers: [TtlController] }) class CacheModule extends built.ConfigurableModuleClass {}
    @Module({ plugins: [CacheModule.register({ ttl: 5 })] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/ttl')).json()).to.deep.equal({ ttl: 5 })
    await app.close()
  })

  it("two configurable modules built with moduleName print distinct tokens in printTree() (both forRoot(): without it both print 'forRoot: MODULE_OPTIONS_TOKEN')", async () => {
    const cache = new ConfigurableModuleBuilder<CacheOptions>({ moduleName: 'Cache' }).setClassMethodName('forRoot').build()
    const queue = new ConfigurableModuleBuilder<{ name: string }>({ moduleName: 'Queue' }).setClassMethodName('forRoot').build()
    @Module({}) class CacheModule extends cache.ConfigurableModuleClass {}
    @Module({}) class QueueModule extends queue.ConfigurableModuleClass {}
    @Route('/') class Root { @Get('/') get() { return 'ok' } }
    @Module({ plugins: [CacheModule.forRoot({ ttl: 1 }), QueueModule.forRoot({ name: 'jobs' })], controllers: [Root] }) class AppModule {}
    const app = await createApp(AppModule)
    const tree = app.printTree()
    expect(tree).to.include("'CACHE_MODULE_OPTIONS'").and.include("'QUEUE_MODULE_OPTIONS'")
    expect(tree).not.to.include('MODULE_OPTIONS_TOKEN')
    await app.close()
  })

  it("setFactoryMethodName('createCacheOptions'): registerAsync({ useClass }) provides the class in the configured module and awaits its createCacheOptions()", async () => {
    let factories = 0
    const built = new ConfigurableModuleBuilder<CacheOptions>({ moduleName: 'Cache' }).setFactoryMethodName('createCacheOptions').build()
    @injectable() class Clock { seconds() { return 30 } }
    @injectable() class CacheConfig { constructor(private readonly clock: Clock) { factories++ } async createCacheOptions(): Promise<CacheOptions> { return { ttl: this.clock.seconds() } } }
    @Route('/ttl') class TtlController { constructor(@inject(built.MODULE_OPTIONS_TOKEN) private readonly options: CacheOptions) {} @Get('/') get() { return this.options } }
    @Module({ controllers: [TtlController] }) class CacheModule extends built.ConfigurableModuleClass {}
    @Module({ providers: [Clock], plugins: [CacheModule.registerAsync({ useClass: CacheConfig })] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/ttl')).json()).to.deep.equal({ ttl: 30 })
    expect(factories).to.equal(1)
    await app.close()
  })

  it("registerAsync({ useExisting }) calls create() on the instance already visible (built once, not provided again)", async () => {
    let factories = 0
    const built = new ConfigurableModuleBuilder<CacheOptions>().setClassMethodName('forRoot').build()
    @injectable() class SharedConfig { constructor() { factories++ } create(): CacheOptions { return { ttl: 7 } } }
    @Route('/ttl') class TtlController { constructor(@inject(built.MODULE_OPTIONS_TOKEN) private readonly options: CacheOptions, readonly shared: SharedConfig) {} @Get('/') get() { return this.options } }
    @Module({ controllers: [TtlController] }) class CacheModule extends built.ConfigurableModuleClass {}
    @Module({ providers: [SharedConfig] }) class ConfigModule {}
    @Module({ plugins: [lift(ConfigModule), CacheModule.forRootAsync({ useExisting: SharedConfig })] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/ttl')).json()).to.deep.equal({ ttl: 7 })
    expect(factories).to.equal(1)
    await app.close()
  })

  it('refuses a useClass factory without the factory method at declaration, naming the module, the class and the method setFactoryMethodName() chose', () => {
    const built = new ConfigurableModuleBuilder<CacheOptions>().setFactoryMethodName('createCacheOptions').build()
    class WrongConfig { create(): CacheOptions { return { ttl: 1 } } }
    @Module({}) class CacheModule extends built.ConfigurableModuleClass {}
    const error = declarationFailure(() => CacheModule.registerAsync({ useClass: WrongConfig as never }))
    expect(isDeclarationError(error)).to.equal(true)
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
    expect(error.message).to.contain('CacheModule.registerAsync()').and.contain('WrongConfig, without a createCacheOptions() method').and.contain('setFactoryMethodName()')
  })

  it('refuses async options with neither useFactory, useClass nor useExisting at declaration', () => {
    const built = new ConfigurableModuleBuilder<CacheOptions>().build()
    @Module({}) class CacheModule extends built.ConfigurableModuleClass {}
    const error = declarationFailure(() => CacheModule.registerAsync({ inject: [] }))
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
    expect(error.message).to.contain('without useFactory, useClass or useExisting')
  })
})
