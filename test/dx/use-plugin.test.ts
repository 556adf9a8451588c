import 'reflect-metadata'
import { expect } from 'chai'
import rateLimit from '@fastify/rate-limit'
import { Get, Module, Route, usePlugin } from '../../src/decorators'
import { createApp, override } from '../../src/modules'
import type { Scope } from '../../src/runtime'
import { declarationError } from '../decorators/helpers'
import { bootError } from '../modules/helpers'

/** The app's configuration: a provider, built at boot (here from defaults), replaced in tests. */
class Config {
  rateLimitMax = 100
}

@Route('/') class Ping { @Get('/ping') ping() { return { pong: true } } }

@Module({
  providers: [{ provide: Config, useFactory: () => new Config() }],
  plugins: [usePlugin(rateLimit, { inject: [Config], useFactory: (config: Config) => ({ max: config.rateLimitMax, timeWindow: '1 minute' }) })],
  controllers: [Ping],
})
class AppModule {}

async function hits(max: number | null, count: number): Promise<number[]> {
  const app = await createApp(AppModule, max === null ? {} : { overrides: [override(Config, { useValue: { rateLimitMax: max } })] })
  try {
    const statuses: number[] = []
    for (let i = 0; i < count; i++) statuses.push((await app.inject({ url: '/ping' })).statusCode)
    return statuses
  } finally { await app.close() }
}

describe('usePlugin(): plugin options built from providers at boot (dx §3, docs/controllers.md, "Configuration")', () => {
  it('builds the options from the provider: the same module, a different rate limit per test through overrides', async () => {
    expect(await hits(2, 3)).to.deep.equal([200, 200, 429])
    expect(await hits(null, 3)).to.deep.equal([200, 200, 200])
  })

  it('resolves providers from the declaring module (an ancestor\'s too) and keeps the entry\'s place in the plugins list', async () => {
    const order: string[] = []
    const first = async (_s: Scope, opts: Record<string, unknown>) => { order.push(`first:${String(opts.v)}`) }
    const second = async () => { order.push('second') }
    @Module({ plugins: [usePlugin(first, { inject: [Config], useFactory: (c: Config) => ({ v: c.rateLimitMax }) }), second] }) class Child {}
    @Module({ providers: [Config], plugins: [Child] }) class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(order).to.deep.equal(['first:100', 'second'])
  })

  it('refuses at boot a token the module cannot see, like a constructor dependency', async () => {
    @Module({ plugins: [usePlugin(async () => undefined, { inject: [Config], useFactory: () => ({}) })] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain('usePlugin(').and.contain('Config')
  })

  it('refuses at boot a useFactory that throws or returns no options object', async () => {
    const plugin = async function myPlugin() {}
    @Module({ plugins: [usePlugin(plugin, { useFactory: () => { throw new Error('no MAX set') } })] }) class Throws {}
    const thrown = await bootError(Throws)
    expect(thrown.code).to.equal('ENC_ERR_MODULE_PLUGIN_OPTIONS')
    expect(thrown.message).to.contain('usePlugin(myPlugin)').and.contain('no MAX set')
    @Module({ plugins: [usePlugin(plugin, { useFactory: () => 42 as never })] }) class Number {}
    expect((await bootError(Number)).message).to.contain('useFactory returned number')
  })

  it('awaits an async useFactory at boot: the plugin gets the resolved options, in its place in the plugins list', async () => {
    const seen: unknown[] = []
    const first = async function first(_s: Scope, opts: Record<string, unknown>) { seen.push(opts) }
    const second = async function second() { seen.push('second') }
    @Module({
      providers: [Config],
      plugins: [usePlugin(first, { inject: [Config], useFactory: async (c: Config) => { await new Promise((r) => setImmediate(r)); return { v: c.rateLimitMax } } }), second],
    }) class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(seen).to.deep.equal([{ v: 100 }, 'second'])
    // The real plugin too: an async factory's options reach @fastify/rate-limit.
    @Module({ plugins: [usePlugin(rateLimit, { useFactory: async () => ({ max: 1, timeWindow: '1 minute' }) })], controllers: [Ping] }) class Limited {}
    const limited = await createApp(Limited)
    try {
      expect([(await limited.inject({ url: '/ping' })).statusCode, (await limited.inject({ url: '/ping' })).statusCode]).to.deep.equal([200, 429])
    } finally { await limited.close() }
  })

  it('fails boot when an async useFactory rejects, with a coded error naming the module path and the plugin', async () => {
    const plugin = async function myPlugin() {}
    @Module({ plugins: [usePlugin(plugin, { useFactory: async () => { throw new Error('vault unreachable') } })] }) class Child {}
    @Module({ plugins: [Child] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_PLUGIN_OPTIONS')
    expect(error.message).to.equal('Root > Child: the options of usePlugin(myPlugin) could not be built: useFactory rejected: vault unreachable. ' +
      'useFactory runs once at boot with the injected providers and returns (or resolves to) the plugin\'s options object; ' +
      'createApp() awaits a promise for up to pluginTimeout (raise that option, or give the async work its own timeout).')
    expect((error as Error & { cause?: Error }).cause?.message).to.equal('vault unreachable')
  })

  it('fails boot when an async useFactory does not settle within pluginTimeout (coded, like an async factory provider)', async () => {
    const plugin = async function myPlugin() {}
    let registered = false
    @Module({ plugins: [usePlugin(async () => { registered = true }, { useFactory: () => new Promise<never>(() => undefined) }), [plugin, {}]] }) class Root {}
    let error: (Error & { code?: string }) | undefined
    try { await (await createApp(Root, { pluginTimeout: 20 })).close() } catch (e) { error = e as Error & { code?: string } }
    expect(error?.code).to.equal('ENC_ERR_MODULE_PLUGIN_OPTIONS')
    expect(error?.message).to.contain('Root: the options of usePlugin(anonymous plugin) could not be built: useFactory\'s promise did not settle within 20 ms (pluginTimeout)')
    expect(registered).to.equal(false)
  })

  it('refuses bad arguments at declaration, and the entry registered outside a module', async () => {
    const bad = declarationError(() => usePlugin(async () => undefined, { useFactory: 'x' as never }))
    expect(bad.code).to.equal('ENC_ERR_DECL_USE_PLUGIN')
    expect(bad.message).to.contain("useFactory 'x'")
    const entry = usePlugin(async function p() {}, { useFactory: () => ({}) })
    const direct = declarationError(() => (entry as () => void)())
    expect(direct.code).to.equal('ENC_ERR_DECL_USE_PLUGIN')
    expect(direct.message).to.contain('usePlugin(p) was registered directly')
  })
})
