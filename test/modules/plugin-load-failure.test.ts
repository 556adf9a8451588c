import 'reflect-metadata'
import { expect } from 'chai'
import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import Redis from 'ioredis'
import { injectable } from 'tsyringe'
import { Get, Module, Route, usePlugin } from '../../src/decorators'
import { createApp, override } from '../../src/modules'
import { createServer, lift, type Scope } from '../../src/runtime'
import { bootError } from './helpers'

type Coded = Error & { code?: string; cause?: unknown }

async function failedBoot(root: Function, options: Parameters<typeof createApp>[1] = {}): Promise<Coded> {
  let app
  try { app = await createApp(root, options) } catch (error) { return error as Coded }
  await app.close()
  return expect.fail('createApp() was expected to fail')
}

@Route('/') class Ping { @Get('/ping') ping() { return { pong: true } } }

describe('a plugin that fails while loading names itself and its module (ENC_ERR_MODULE_PLUGIN_FAILED)', () => {
  it('names the module path, @fastify/rate-limit and the original message when a test override gave it a stub Redis, and says the stub is why', async () => {
    @Module({
      // Never built here: the test overrides it (docs/testing.md, "Testing").
      providers: [{ provide: Redis, useFactory: () => new Redis({ lazyConnect: true }) }],
      plugins: [usePlugin(rateLimit, { inject: [Redis], useFactory: (redis: Redis) => ({ redis, max: 2, timeWindow: '1 minute' }) })],
      controllers: [Ping],
    }) class LimitsModule {}
    @Module({ plugins: [LimitsModule] }) class AppModule {}
    const error = await failedBoot(AppModule, { overrides: [override(Redis, { useValue: {} })] })
    expect(error.code).to.equal('ENC_ERR_MODULE_PLUGIN_FAILED')
    expect(error.message).to.contain("AppModule > LimitsModule: plugins[0], plugin usePlugin('@fastify/rate-limit'), failed while loading: this.redis.defineCommand is not a function.")
    expect(error.message).to.contain('built from Redis, which createApp({ overrides }) replaced').and.contain('stub')
    expect(error.cause).to.be.instanceOf(TypeError)
    expect((error.cause as Error).message).to.equal('this.redis.defineCommand is not a function')
  })

  it('says a stub was why also when the override replaced a provider deeper down, reached through the injected one (named with its path)', async () => {
    class Db { query(): string { return 'real' } }
    @injectable() class Repo { constructor(readonly db: Db) {} }
    const cache = async function cache(_s: Scope, options: { repo: Repo }) { options.repo.db.query() }
    @Module({
      providers: [Db, Repo, { provide: 'CONFIG', useFactory: (repo: Repo) => ({ repo }), inject: [Repo] }],
      plugins: [usePlugin(cache, { inject: ['CONFIG', Repo], useFactory: (config: { repo: Repo }) => config })],
    }) class DataModule {}
    @Module({ plugins: [DataModule] }) class AppModule {}
    const error = await failedBoot(AppModule, { overrides: [override(Db, { useValue: {} })] })
    expect(error.code).to.equal('ENC_ERR_MODULE_PLUGIN_FAILED')
    expect(error.message).to.contain("AppModule > DataModule: plugins[0], plugin usePlugin(cache), failed while loading: options.repo.db.query is not a function.")
    // Reached twice (through 'CONFIG' then Repo, and through Repo): named once, by the first path.
    expect(error.message).to.contain("built from Db (through 'CONFIG' > Repo), which createApp({ overrides }) replaced")
    expect(error.message.match(/Db \(through/g)).to.have.length(1)
  })

  it('names a plain plugin that throws by its function name, its entry and its module, with a general hint and the error as cause', async () => {
    const original = new Error('no connection string')
    function audit(): void { throw original }
    @Module({ plugins: [async function fine() {}, audit] }) class AuditModule {}
    @Module({ plugins: [AuditModule] }) class AppModule {}
    const error = await bootError(AppModule) as Coded
    expect(error.code).to.equal('ENC_ERR_MODULE_PLUGIN_FAILED')
    expect(error.message).to.equal('AppModule > AuditModule: plugins[1], plugin audit, failed while loading: no connection string. ' +
      "Check the options this entry gives the plugin and what the plugin needs in the scope (its dependencies, decorators); the plugin's own error is the cause.")
    expect(error.cause).to.equal(original)
  })

  it('names a plugin that rejects, or passes an error to done(), by its fastify-plugin or lift() name; "anonymous plugin" only when it has none', async () => {
    const named = fp(async () => { throw new Error('rejected') }, { name: 'metrics' })
    @Module({ plugins: [[named, {}]] }) class A {}
    expect((await bootError(A)).message).to.contain("A: plugins[0], plugin 'metrics', failed while loading: rejected.")
    const lifted = lift((_s: Scope, _o: unknown, done: (e?: Error) => void) => done(new Error('via done')), { name: 'tenancy' })
    @Module({ plugins: [lifted] }) class B {}
    expect((await bootError(B)).message).to.contain("B: plugins[0], plugin 'tenancy', failed while loading: via done.")
    @Module({ plugins: [fp(async () => { throw new Error('x') })] }) class C {}
    expect((await bootError(C)).message).to.contain('C: plugins[0], plugin anonymous plugin, failed while loading: x.')
    @Module({ plugins: [async () => { throw 'a string' }] }) class D {}
    const thrown = await bootError(D) as Coded
    expect(thrown.message).to.contain('plugin anonymous plugin, failed while loading: a string.')
    expect(thrown.cause).to.equal('a string')
  })

  it('attributes the failure to the entry that failed, not to the entries after it (which are skipped)', async () => {
    let laterRan = false
    function broken(): void { throw new Error('broken') }
    @Module({ plugins: [broken] }) class Child {}
    @Module({ plugins: [Child, async function later() { laterRan = true }] }) class Root {}
    const error = await bootError(Root)
    expect(error.message).to.contain('Root > Child: plugins[0], plugin broken, failed while loading: broken.')
    expect(laterRan).to.equal(false)
  })

  it('keeps an Enclave coded error from inside a plugin (a duplicate route) as it is: it already names the scope and the fix', async () => {
    const routes = async function routes(scope: Scope) {
      scope.get('/x', async () => 'a')
      scope.get('/x', async () => 'b')
    }
    @Module({ plugins: [routes] }) class Root {}
    const error = await bootError(Root) as Coded
    expect(error.code).to.equal('ENC_ERR_ROUTE_DUPLICATE')
    expect(error.message).to.not.contain('failed while loading')
  })

  it('keeps ENC_ERR_PLUGIN_TIMEOUT for a callback plugin that never calls done() within pluginTimeout', async () => {
    const waits = function waits(_s: Scope, _o: unknown, _done: () => void): void {}
    @Module({ plugins: [waits] }) class Root {}
    const error = await failedBoot(Root, { pluginTimeout: 20 })
    expect(error.code).to.equal('ENC_ERR_PLUGIN_TIMEOUT')
    expect(error.message).to.contain('Root')
  })

  it('keeps ENC_ERR_PLUGIN_TIMEOUT for an async module plugin whose promise never settles within pluginTimeout', async () => {
    const hangs = async function hangs(): Promise<void> { await new Promise(() => undefined) }
    @Module({ plugins: [hangs] }) class Root {}
    const error = await failedBoot(Root, { pluginTimeout: 20 })
    expect(error.code).to.equal('ENC_ERR_PLUGIN_TIMEOUT')
    expect(error.message).to.contain('Root').and.contain('hangs').and.contain('did not settle')
  })

  it('leaves the runtime as Fastify 3 has it: register() then ready() rejects with the plugin\'s own error', async () => {
    const original = new Error('own error')
    const app = createServer()
    app.register(async function failing() { throw original })
    let caught: unknown
    try { await app.ready() } catch (error) { caught = error }
    expect(caught).to.equal(original)
  })
})
