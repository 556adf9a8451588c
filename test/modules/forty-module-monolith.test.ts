import { expect } from 'chai'
import { ConfigurableModuleBuilder, Get, Module, Route, createApp, inject, injectable, lift, override } from '../../src'

// A NestJS-style monolith at the size a platform team runs (docs/large-apps.md): 10 domains x 4
// feature modules, a global ConfigModule, DatabaseModule.forRootAsync({ imports: [ConfigModule] }),
// a shared module lifted into the root; every feature service injects the pool.
function monolith(calls: string[]) {
  const config = new ConfigurableModuleBuilder<{ env: Record<string, string> }>()
    .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal })).setClassMethodName('forRoot').build()
  @injectable() class ConfigService { constructor(@inject(config.MODULE_OPTIONS_TOKEN) private readonly options: { env: Record<string, string> }) {} get(key: string) { return this.options.env[key] } }
  @Module({ providers: [ConfigService] }) class ConfigModule extends config.ConfigurableModuleClass {}
  const db = new ConfigurableModuleBuilder<{ url: string }>()
    .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal })).setClassMethodName('forRoot').build()
  @injectable() class Db {
    connected = false
    constructor(@inject(db.MODULE_OPTIONS_TOKEN) readonly options: { url: string }) {}
    onModuleInit() { this.connected = true; calls.push('Db init') }
    onApplicationShutdown() { calls.push('Db shutdown') }
    name(feature: string) { return `${feature}@${this.options.url}` }
  }
  @Module({ providers: [Db] }) class DatabaseModule extends db.ConfigurableModuleClass {}
  const domains = Array.from({ length: 10 }, (_, d) => {
    const features = Array.from({ length: 4 }, (_, f) => {
      const name = `f${d}x${f}`
      @injectable() class Service {
        constructor(readonly db: Db) {}
        onModuleInit() { calls.push(`${name} init ${this.db.connected}`) }
        onApplicationShutdown() { calls.push(`${name} shutdown`) }
      }
      @Route(`/${name}`) class Controller {
        constructor(private readonly service: Service) {}
        @Get('/') list() { return { feature: this.service.db.name(name) } }
        @Get('/:id') one() { return {} }
      }
      @Module({ providers: [Service], controllers: [Controller] }) class Feature {}
      return Feature
    })
    @Module({ prefix: `/d${d}`, plugins: features }) class Domain {}
    return Domain
  })
  @Module({
    plugins: [
      ConfigModule.forRoot({ env: { DB_URL: 'memory://one' }, isGlobal: true }),
      DatabaseModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: async (c: ConfigService) => ({ url: c.get('DB_URL') }), isGlobal: true }),
      ...domains,
    ],
  })
  class AppModule {}
  return { AppModule, Db, DatabaseModule, domains }
}

describe('a 40-module NestJS-style monolith (docs/large-apps.md)', function () {
  this.timeout(30_000)

  it('boots 80 routes over 40 feature modules with a global forRootAsync({ imports: [ConfigModule] }) pool: the pool initialised before all 40 services, closed after them', async () => {
    const calls: string[] = []
    const { AppModule } = monolith(calls)
    const app = await createApp(AppModule)
    expect((await app.inject('/d9/f9x3')).json()).to.deep.equal({ feature: 'f9x3@memory://one' })
    expect(calls[0]).to.equal('Db init')
    expect(calls.filter((c) => c.endsWith(' init true'))).to.have.length(40)
    calls.length = 0
    await app.close()
    expect(calls.at(-1)).to.equal('Db shutdown')
    expect(calls.filter((c) => c.endsWith(' shutdown'))).to.have.length(41)
  })

  it('one override replaces the pool all 40 feature modules inject', async () => {
    const { AppModule, Db } = monolith([])
    const fake = { connected: true, name: (feature: string) => `${feature}@fake` }
    const app = await createApp(AppModule, { overrides: [override(Db, { useValue: fake as never })] })
    expect((await app.inject('/d0/f0x0')).json()).to.deep.equal({ feature: 'f0x0@fake' })
    expect((await app.inject('/d5/f5x2')).json()).to.deep.equal({ feature: 'f5x2@fake' })
    await app.close()
  })

  it('one domain tested alone under a host that provides the pool, without the other 36 modules', async () => {
    const { Db, domains } = monolith([])
    @Module({ providers: [{ provide: Db, useValue: { connected: true, name: (f: string) => `${f}@stub` } }], plugins: [lift(domains[3])] }) class TestHost {}
    const app = await createApp(TestHost)
    expect((await app.inject('/d3/f3x1')).json()).to.deep.equal({ feature: 'f3x1@stub' })
    expect((await app.inject('/d4/f4x1')).statusCode).to.equal(404)
    await app.close()
  })
})
