import { expect } from 'chai'
import { ConfigurableModuleBuilder, Get, Module, Route, createApp, inject, injectable, isDeclarationError, lift } from '../../src'

// NestJS apps configure shared infrastructure as
//   TypeOrmModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory })
// and make ConfigModule global with ConfigurableModuleBuilder's setExtras({ isGlobal }). Both as written.

interface DbOptions { url: string }
const failure = (promise: Promise<unknown>): Promise<Error & { code?: string }> => promise.then(() => { throw new Error('expected a boot error') }, (error: Error & { code?: string }) => error)

function fixtures() {
  let configs = 0
  @injectable() class ConfigService { constructor() { configs++ } get(key: string): string { return `${key}-value` } }
  @Module({ providers: [ConfigService] }) class ConfigModule {}
  const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<DbOptions>()
    .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
    .setClassMethodName('forRoot').build()
  @injectable() class Db { constructor(@inject(MODULE_OPTIONS_TOKEN) readonly options: DbOptions & { isGlobal?: boolean }) {} }
  @Module({ providers: [Db] }) class DbModule extends ConfigurableModuleClass {}
  @Route('/db') class DbController { constructor(private readonly db: Db) {} @Get('/') get() { return this.db.options } }
  return { ConfigService, ConfigModule, DbModule, Db, DbController, configs: () => configs }
}

/** A ConfigModule made with the builder, forRoot({ env, isGlobal }), as NestJS apps write theirs. */
function configurableConfig() {
  let built = 0
  const config = new ConfigurableModuleBuilder<{ env: string }>()
    .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
    .setClassMethodName('forRoot').build()
  @injectable() class ConfigService { constructor(@inject(config.MODULE_OPTIONS_TOKEN) readonly options: { env: string }) { built++ } }
  @Module({ providers: [ConfigService] }) class ConfigModule extends config.ConfigurableModuleClass {}
  return { ConfigService, ConfigModule, built: () => built }
}

describe("ConfigurableModuleBuilder: forRootAsync({ imports }) and setExtras({ isGlobal }) (NestJS's shared-infrastructure pattern)", () => {
  it("forRootAsync({ imports: [ConfigModule], inject: [ConfigService] }) boots where no ancestor provides ConfigService: the import is lifted into the configured module", async () => {
    const { ConfigModule, ConfigService, DbModule, DbController } = fixtures()
    @Module({ plugins: [lift(DbModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: (config: InstanceType<typeof ConfigService>) => ({ url: config.get('DB_URL') }) }))], controllers: [DbController] })
    class LiftedApp {}
    const app = await createApp(LiftedApp)
    expect((await app.inject('/db')).json()).to.deep.equal({ url: 'DB_URL-value' })
    await app.close()
  })

  it('forRootAsync({ imports }) uses the instance an ancestor already has (lifted into the root): ConfigService is built once, not copied', async () => {
    const { ConfigModule, ConfigService, DbModule, DbController, configs } = fixtures()
    @Module({ plugins: [lift(DbModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: (config: InstanceType<typeof ConfigService>) => ({ url: config.get('DB_URL') }) }))], controllers: [DbController] })
    class FeatureModule {}
    @Module({ plugins: [lift(ConfigModule), FeatureModule] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/db')).json()).to.deep.equal({ url: 'DB_URL-value' })
    expect(configs()).to.equal(1)
    await app.close()
  })

  it('a global ConfigModule.forRoot({ isGlobal: true }) reached only as a forRootAsync() import is placed and injected (not skipped as if listed elsewhere)', async () => {
    const { DbModule, DbController } = fixtures()
    const { ConfigService, ConfigModule, built } = configurableConfig()
    @Module({
      plugins: [lift(DbModule.forRootAsync({ imports: [ConfigModule.forRoot({ env: 'prod', isGlobal: true })], inject: [ConfigService], useFactory: (c: InstanceType<typeof ConfigService>) => ({ url: c.options.env }) }))],
      controllers: [DbController],
    })
    class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/db')).json()).to.deep.equal({ url: 'prod' })
    expect(built()).to.equal(1)
    await app.close()
  })

  it('forRootAsync({ imports: [ConfigModule] }) shares a global ConfigModule.forRoot({ isGlobal: true }) listed in the root', async () => {
    const { DbModule, DbController } = fixtures()
    const { ConfigService, ConfigModule, built } = configurableConfig()
    @Module({ plugins: [lift(DbModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: (c: InstanceType<typeof ConfigService>) => ({ url: c.options.env }) }))], controllers: [DbController] })
    class FeatureModule {}
    @Module({ plugins: [ConfigModule.forRoot({ env: 'prod', isGlobal: true }), FeatureModule] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/db')).json()).to.deep.equal({ url: 'prod' })
    expect(built()).to.equal(1)
    await app.close()
  })

  it('setExtras({ isGlobal }): forRoot({ ...options, isGlobal: true }) in the root makes its providers visible to every module, the extras left out of MODULE_OPTIONS_TOKEN', async () => {
    const { DbModule, DbController } = fixtures()
    @Module({ controllers: [DbController] }) class Grandchild {}
    @Module({ plugins: [Grandchild] }) class Child {}
    @Module({ plugins: [DbModule.forRoot({ url: 'postgres://db', isGlobal: true }), Child] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/db')).json()).to.deep.equal({ url: 'postgres://db' })
    await app.close()
  })

  it('setExtras({ isGlobal }): without isGlobal (the default false) the module stays encapsulated, so a sibling subtree cannot inject its providers', async () => {
    const { DbModule, DbController } = fixtures()
    @Module({ controllers: [DbController] }) class Child {}
    @Module({ plugins: [DbModule.forRoot({ url: 'postgres://db' }), Child] }) class AppModule {}
    const error = await failure(createApp(AppModule))
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
  })

  it('a global module listed below the root is hoisted into the root, as NestJS makes its exports visible everywhere: the whole app under a test host boots, and a sibling subtree of the listing module injects it', async () => {
    const { DbModule, DbController } = fixtures()
    @Module({ controllers: [DbController] }) class Child {}
    @Module({ plugins: [DbModule.forRoot({ url: 'x', isGlobal: true }), Child] }) class AppModule {}
    @Module({ plugins: [AppModule] }) class TestHost {}
    const app = await createApp(TestHost)
    expect((await app.inject('/db')).json()).to.deep.equal({ url: 'x' })
    await app.close()
    @Module({ plugins: [DbModule.forRoot({ url: 'x', isGlobal: true })] }) class CoreModule {}
    @Module({ controllers: [DbController] }) class Feature {}
    @Module({ plugins: [CoreModule, Feature] }) class Nested {}
    const nested = await createApp(Nested)
    expect((await nested.inject('/db')).json()).to.deep.equal({ url: 'x' })
    await nested.close()
  })

  it("setExtras()'s transform adds providers to the definition, as NestJS's does", async () => {
    const EXTRA = Symbol('EXTRA')
    const built = new ConfigurableModuleBuilder<{ n: number }>()
      .setExtras({ label: 'none' }, (definition, extras) => ({ ...definition, providers: [...definition.providers, { provide: EXTRA, useValue: extras.label }] }))
      .build()
    @Route('/extra') class X { constructor(@inject(EXTRA) private readonly label: string, @inject(built.MODULE_OPTIONS_TOKEN) private readonly options: object) {} @Get('/') get() { return { label: this.label, options: this.options } } }
    @Module({ controllers: [X] }) class M extends built.ConfigurableModuleClass {}
    @Module({ plugins: [M.register({ n: 1, label: 'given' })] }) class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/extra')).json()).to.deep.equal({ label: 'given', options: { n: 1 } })
    await app.close()
  })

  it('refuses an undefined imports entry at declaration as a circular import (NestJS would need forwardRef), naming the module and method', () => {
    const { DbModule } = fixtures()
    let caught: unknown
    try { DbModule.forRootAsync({ imports: [undefined as never], useFactory: () => ({ url: 'x' }) }) } catch (error) { caught = error }
    expect(isDeclarationError(caught)).to.equal(true)
    expect((caught as Error & { code: string }).code).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
    expect((caught as Error).message).to.contain('@Module() of DbModule.forRootAsync(): imports[0] is undefined').and.contain('circular import')
  })

  it('refuses a class without @Module() in imports at boot, naming the module path', async () => {
    const { DbModule } = fixtures()
    class NotAModule {}
    @Module({ plugins: [DbModule.forRootAsync({ imports: [NotAModule], useFactory: () => ({ url: 'x' }) })] }) class AppModule {}
    const error = await failure(createApp(AppModule))
    expect(error.code).to.equal('ENC_ERR_MODULE_NOT_A_MODULE')
    expect(error.message).to.contain('AppModule > DbModule: imports[0]: NotAModule is not a module')
  })
})
