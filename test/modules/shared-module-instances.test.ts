import { expect } from 'chai'
import { ConfigurableModuleBuilder, Get, Hook, Module, Route, createApp, inject, injectable, lift } from '../../src'

// NestJS shares one instance of a module however many modules import it, and makes a global module's
// exports visible everywhere wherever it is listed. Enclave's module tree places such modules so that
// one node (one instance of each provider) serves every module that needs it.

const failure = (promise: Promise<unknown>): Promise<Error & { code?: string }> => promise.then(() => { throw new Error('expected a boot error') }, (error: Error & { code?: string }) => error)

function fixtures() {
  const counts = { config: 0, db: 0 }
  @injectable() class ConfigService { constructor() { counts.config++ } get(key: string): string { return `${key}-value` } }
  @Module({ providers: [ConfigService] }) class ConfigModule {}
  const db = new ConfigurableModuleBuilder<{ url: string }>({ moduleName: 'Db' })
    .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
    .setClassMethodName('forRoot').build()
  @injectable() class Db { constructor(@inject(db.MODULE_OPTIONS_TOKEN) readonly options: { url: string }) { counts.db++ } }
  @Module({ providers: [Db] }) class DbModule extends db.ConfigurableModuleClass {}
  const cache = new ConfigurableModuleBuilder<{ ttl: string }>({ moduleName: 'Cache' }).setClassMethodName('forRoot').build()
  @injectable() class Cache { constructor(@inject(cache.MODULE_OPTIONS_TOKEN) readonly options: { ttl: string }) {} }
  @Module({ providers: [Cache] }) class CacheModule extends cache.ConfigurableModuleClass {}
  @Route('/db') class DbController { constructor(private readonly db: Db) {} @Get('/') get() { return this.db.options } }
  return { counts, ConfigService, ConfigModule, Db, DbModule, Cache, CacheModule, DbController }
}

describe('shared module instances: global modules below the root, and forRootAsync() imports (NestJS singleton modules)', () => {
  it('a global module listed in a non-lifted CoreModule is hoisted into the root: a sibling feature module injects its provider (NestJS @Global)', async () => {
    const { DbModule, DbController, counts } = fixtures()
    @Module({ plugins: [DbModule.forRoot({ url: 'pg://core', isGlobal: true })] }) class CoreModule {}
    @Module({ controllers: [DbController] }) class UsersModule {}
    @Module({ plugins: [UsersModule] }) class FeaturesModule {}
    @Module({ plugins: [CoreModule, FeaturesModule] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/db')).json()).to.deep.equal({ url: 'pg://core' })
    expect(counts.db).to.equal(1)
    await app.close()
  })

  it('the same global module class listed in two modules below the root is one module in the root: its provider is built once', async () => {
    const { Db, DbModule, DbController, counts } = fixtures()
    const GlobalDb = DbModule.forRoot({ url: 'pg://one', isGlobal: true })
    @Module({ plugins: [GlobalDb], controllers: [DbController] }) class UsersModule {}
    @Route('/orders') class OrdersController { constructor(@inject(Db) private readonly db: InstanceType<typeof Db>) {} @Get('/') get() { return this.db.options } }
    @Module({ plugins: [GlobalDb], controllers: [OrdersController] }) class OrdersModule {}
    @Module({ plugins: [UsersModule, OrdersModule] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/db')).json()).to.deep.equal({ url: 'pg://one' })
    expect((await app.inject('/orders')).json()).to.deep.equal({ url: 'pg://one' })
    expect(counts.db).to.equal(1)
    await app.close()
  })

  it("a hoisted global module's hooks reach the subtree that listed it, as if the root listed it before that subtree", async () => {
    const { Db, DbModule, DbController } = fixtures()
    @Module({ providers: [Db] }) class StampedDb extends DbModule { @Hook('onRequest') async stamp(_request: unknown, reply: { header(name: string, value: string): unknown }) { reply.header('x-global', 'yes') } }
    @Module({ plugins: [StampedDb.forRoot({ url: 'pg://x', isGlobal: true })], controllers: [DbController] }) class CoreModule {}
    @Module({ plugins: [CoreModule] }) class AppModule {}
    const app = await createApp(AppModule)
    const response = await app.inject('/db')
    expect(response.json()).to.deep.equal({ url: 'pg://x' })
    expect(response.headers['x-global']).to.equal('yes')
    await app.close()
  })

  it("a hoisted global module's own dependencies come from the root, as a NestJS global module's from its own imports: one only the listing module provides fails boot, the path naming where it was listed", async () => {
    const { ConfigService } = fixtures()
    const built = new ConfigurableModuleBuilder<{ n: number }>()
      .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal })).build()
    @injectable() class Needy { constructor(@inject(ConfigService) readonly config: InstanceType<typeof ConfigService>) {} }
    @Module({ providers: [Needy] }) class NeedyModule extends built.ConfigurableModuleClass {}
    @Module({ providers: [ConfigService], plugins: [NeedyModule.register({ n: 1, isGlobal: true })] }) class CoreModule {}
    @Module({ plugins: [CoreModule] }) class AppModule {}
    const error = await failure(createApp(AppModule))
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain('AppModule > lift(NeedyModule) [global, listed in AppModule > CoreModule]')
  })

  it('two configured modules importing the same ConfigModule (visible from neither) share one ConfigService: it is lifted into their nearest common ancestor', async () => {
    const { ConfigModule, ConfigService, DbModule, CacheModule, Db, Cache, counts } = fixtures()
    @Route('/both') class Both { constructor(@inject(Db) private readonly db: InstanceType<typeof Db>, @inject(Cache) private readonly cache: InstanceType<typeof Cache>) {} @Get('/') get() { return { db: this.db.options, cache: this.cache.options } } }
    type Config = InstanceType<typeof ConfigService>
    @Module({
      plugins: [
        lift(DbModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: (c: Config) => ({ url: c.get('DB_URL') }) })),
        lift(CacheModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: (c: Config) => ({ ttl: c.get('TTL') }) })),
      ],
      controllers: [Both],
    }) class FeatureModule {}
    @Module({ plugins: [FeatureModule] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/both')).json()).to.deep.equal({ db: { url: 'DB_URL-value' }, cache: { ttl: 'TTL-value' } })
    expect(counts.config).to.equal(1)
    await app.close()
  })

  it('importers in two sibling subtrees share one instance too, and a module outside their common ancestor still does not see it', async () => {
    const { ConfigModule, ConfigService, DbModule, CacheModule, DbController, counts } = fixtures()
    type Config = InstanceType<typeof ConfigService>
    @Module({ plugins: [lift(DbModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: (c: Config) => ({ url: c.get('A') }) }))], controllers: [DbController] }) class AModule {}
    @Module({ plugins: [lift(CacheModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: (c: Config) => ({ ttl: c.get('B') }) }))] }) class BModule {}
    @Module({ plugins: [AModule, BModule] }) class DomainModule {}
    @Route('/other') class Other { constructor(@inject(ConfigService) readonly config: Config) {} @Get('/') get() { return 'x' } }
    @Module({ controllers: [Other] }) class OtherModule {}
    @Module({ plugins: [DomainModule] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/db')).json()).to.deep.equal({ url: 'A-value' })
    expect(counts.config).to.equal(1)
    await app.close()
    @Module({ plugins: [DomainModule, OtherModule] }) class WithOther {}
    const error = await failure(createApp(WithOther))
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
  })
})
