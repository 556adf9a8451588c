import { expect } from 'chai'
import { ConfigurableModuleBuilder, Get, Module, Route, createApp, inject, injectable, lift } from '../../src'

// NestJS initialises an imported module before the modules importing it (import distance), so a
// service's onModuleInit() can query a pool whose onModuleInit() connected it, and shuts it down
// after them. In Enclave the shared pool sits above its users (the root, a lifted or global module).

describe('lifecycle methods across modules: what a provider injects from another module is initialised before it and shut down after it', () => {
  function app(calls: string[]) {
    @injectable() class Pool {
      connected = false
      async onModuleInit() { await new Promise((resolve) => setTimeout(resolve, 2)); this.connected = true; calls.push('Pool init') }
      onApplicationShutdown() { calls.push('Pool shutdown') }
      onModuleDestroy() { calls.push('Pool destroy') }
    }
    @injectable() class RootClock { onModuleInit() { calls.push('RootClock init') } onApplicationShutdown() { calls.push('RootClock shutdown') } }
    @injectable() class UsersService {
      constructor(private readonly pool: Pool, private readonly clock: RootClock) {}
      onModuleInit() { calls.push(`Users init (pool connected: ${this.pool.connected})`) }
      onModuleDestroy() { calls.push(`Users destroy (pool connected: ${this.pool.connected})`) }
      onApplicationShutdown() { calls.push('Users shutdown') }
    }
    @injectable() class Unrelated { onModuleInit() { calls.push('Unrelated init') } onApplicationShutdown() { calls.push('Unrelated shutdown') } }
    @Route('/users') class UsersController { constructor(private readonly users: UsersService) {} @Get('/') list() { return [] } }
    @Module({ providers: [UsersService, Unrelated], controllers: [UsersController] }) class UsersModule {}
    @Module({ plugins: [UsersModule], prefix: '/identity' }) class IdentityModule {}
    const db = new ConfigurableModuleBuilder<{ url: string }>()
      .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal })).setClassMethodName('forRoot').build()
    @Module({ providers: [Pool] }) class DatabaseModule extends db.ConfigurableModuleClass {}
    return { Pool, RootClock, IdentityModule, DatabaseModule, dbOptions: db.MODULE_OPTIONS_TOKEN }
  }

  it('a global DatabaseModule.forRoot({ isGlobal: true }): the pool before the services two modules down that inject it, and after them at close', async () => {
    const calls: string[] = []
    const { RootClock, IdentityModule, DatabaseModule } = app(calls)
    @Module({ providers: [RootClock], plugins: [DatabaseModule.forRoot({ url: 'x', isGlobal: true }), IdentityModule] }) class AppModule {}
    const booted = await createApp(AppModule)
    expect(calls.indexOf('Pool init')).to.be.below(calls.indexOf('Users init (pool connected: true)'))
    expect(calls.indexOf('RootClock init')).to.be.below(calls.indexOf('Users init (pool connected: true)'))
    calls.length = 0
    await booted.close()
    expect(calls).to.include('Users destroy (pool connected: true)')
    expect(calls.indexOf('Users destroy (pool connected: true)')).to.be.below(calls.indexOf('Pool destroy'))
    expect(calls.indexOf('Users shutdown')).to.be.below(calls.indexOf('Pool shutdown'))
    expect(calls.indexOf('Users shutdown')).to.be.below(calls.indexOf('RootClock shutdown'))
  })

  it('a lift()ed module and a plain root provider: the same order', async () => {
    const calls: string[] = []
    const { RootClock, IdentityModule, DatabaseModule } = app(calls)
    @Module({ providers: [RootClock], plugins: [lift(DatabaseModule.forRoot({ url: 'x' })), IdentityModule] }) class AppModule {}
    const booted = await createApp(AppModule)
    expect(calls.slice(0, 3)).to.include.members(['Pool init', 'RootClock init'])
    expect(calls.indexOf('Pool init')).to.be.below(calls.indexOf('Users init (pool connected: true)'))
    await booted.close()
    expect(calls.indexOf('Users shutdown')).to.be.below(calls.indexOf('Pool shutdown'))
  })

  it('forRootAsync({ imports, inject }): the factory options, then the pool, then its users', async () => {
    const calls: string[] = []
    const { IdentityModule, DatabaseModule, RootClock } = app(calls)
    @injectable() class ConfigService { onModuleInit() { calls.push('Config init') } get() { return 'postgres://x' } }
    @Module({ providers: [ConfigService] }) class ConfigModule {}
    @Module({ providers: [RootClock], plugins: [lift(DatabaseModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory: (config: ConfigService) => ({ url: config.get() }) })), IdentityModule] })
    class AppModule {}
    const booted = await createApp(AppModule)
    expect(calls.indexOf('Pool init')).to.be.below(calls.indexOf('Users init (pool connected: true)'))
    await booted.close()
  })
})
