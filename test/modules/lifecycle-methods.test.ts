// NestJS's lifecycle methods (onModuleInit, onApplicationBootstrap, onModuleDestroy,
// beforeApplicationShutdown, onApplicationShutdown) on providers, controllers and module classes
// (docs/migrating-from-nestjs.md, "Coming from NestJS").
import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { injectable } from 'tsyringe'
import { Get, Hook, Module, Route } from '../../src/decorators'
import { createApp, override } from '../../src/modules'
import { lift } from '../../src/runtime'
import { recordingLogger } from '../support/servers'

/** A class whose five lifecycle methods (and onClose) record `name.method(args)` in `events`. */
function recorder(name: string, events: string[]) {
  return class {
    onModuleInit() { events.push(`${name}.onModuleInit`) }
    onApplicationBootstrap() { events.push(`${name}.onApplicationBootstrap`) }
    onModuleDestroy() { events.push(`${name}.onModuleDestroy`) }
    beforeApplicationShutdown(signal?: string) { events.push(`${name}.beforeApplicationShutdown(${String(signal)})`) }
    onClose() { events.push(`${name}.onClose`) }
    onApplicationShutdown(signal?: string) { events.push(`${name}.onApplicationShutdown(${String(signal)})`) }
  }
}

const methodOf = (event: string) => event.replace(/^[^.]*\./, '').replace(/\(.*$/, '')
const only = (events: readonly string[], method: string) => events.filter((e) => methodOf(e) === method).map((e) => e.replace(/\..*$/, ''))

describe('lifecycle methods: NestJS names called at boot and close (docs/migrating-from-nestjs.md, "Coming from NestJS")', () => {
  it("calls the boot hooks deepest module first, the close hooks root module first, as NestJS 12 does across a 3-level tree (controllers, providers, then the module class)", async () => {
    const events: string[] = []
    @injectable() class LeafService extends recorder('LeafService', events) {}
    @injectable() class MidService extends recorder('MidService', events) {}
    @injectable() class RootService extends recorder('RootService', events) {}
    @injectable() class SideService extends recorder('SideService', events) {}
    @Route() class LeafController extends recorder('LeafController', events) { @Get('/leaf') get() { return {} } }
    @Module({ providers: [LeafService], controllers: [LeafController] }) class Leaf extends recorder('Leaf', events) {}
    @Module({ plugins: [Leaf], providers: [MidService] }) class Mid extends recorder('Mid', events) {}
    @Module({ providers: [SideService] }) class Side extends recorder('Side', events) {}
    @Module({ plugins: [Mid, Side], providers: [RootService] }) class Root extends recorder('Root', events) {
      @Hook('onReady') ready() { events.push('Root.onReady hook') }
    }
    const app = await createApp(Root)
    // @nestjs/core 12.5.1 on the same tree (imports for plugins) logs exactly these two orders.
    const depthOrder = ['LeafController', 'LeafService', 'Leaf', 'MidService', 'Mid', 'SideService', 'Side', 'RootService', 'Root']
    const closeOrder = ['RootService', 'Root', 'SideService', 'Side', 'MidService', 'Mid', 'LeafController', 'LeafService', 'Leaf']
    expect(only(events, 'onModuleInit')).to.deep.equal(depthOrder)
    expect(only(events, 'onApplicationBootstrap')).to.deep.equal(depthOrder)
    // Every onModuleInit before any onApplicationBootstrap; the server booted (onReady) in between.
    const boot = events.map(methodOf)
    expect(boot.lastIndexOf('onModuleInit')).to.be.lessThan(boot.indexOf('onReady hook'))
    expect(boot.indexOf('onReady hook')).to.be.lessThan(boot.indexOf('onApplicationBootstrap'))
    events.length = 0
    await app.close()
    expect(only(events, 'onModuleDestroy')).to.deep.equal(closeOrder)
    expect(only(events, 'beforeApplicationShutdown')).to.deep.equal(closeOrder)
    expect(only(events, 'onApplicationShutdown')).to.deep.equal(closeOrder)
    // onModuleDestroy, then beforeApplicationShutdown, then the release (onClose), then onApplicationShutdown.
    const close = events.map(methodOf)
    expect(close.lastIndexOf('onModuleDestroy')).to.be.lessThan(close.indexOf('beforeApplicationShutdown'))
    expect(close.lastIndexOf('beforeApplicationShutdown')).to.be.lessThan(close.indexOf('onClose'))
    expect(close.lastIndexOf('onClose')).to.be.lessThan(close.indexOf('onApplicationShutdown'))
    expect(events).to.include('Root.beforeApplicationShutdown(undefined)')
  })

  it('orders a module\'s instances by dependency level: what a provider injects first at boot, last at close (NestJS 12)', async () => {
    const events: string[] = []
    @injectable() class Db extends recorder('Db', events) {}
    @injectable() class Other extends recorder('Other', events) {}
    @injectable() class Repo extends recorder('Repo', events) { constructor(readonly db: Db) { super() } }
    @injectable() class Service extends recorder('Service', events) { constructor(readonly repo: Repo) { super() } }
    @Route() class Api extends recorder('Api', events) { constructor(readonly service: Service) { super() } @Get('/') get() { return {} } }
    @Module({ providers: [Db, Other, { provide: 'repo-alias', useExisting: Repo }, Service, Repo], controllers: [Api] }) class Root extends recorder('Root', events) {}
    const app = await createApp(Root)
    await app.close()
    // @nestjs/core 12.5.1 with the same module: these orders.
    expect(only(events, 'onModuleInit')).to.deep.equal(['Db', 'Other', 'Repo', 'Service', 'Api', 'Root'])
    expect(only(events, 'onModuleDestroy')).to.deep.equal(['Api', 'Service', 'Repo', 'Db', 'Other', 'Root'])
  })

  it('awaits async hooks one at a time, so createApp() resolves with every onModuleInit done', async () => {
    const events: string[] = []
    const tick = () => new Promise((resolve) => setImmediate(resolve))
    @injectable() class Cache {
      loaded: string[] = []
      async onModuleInit() { events.push('Cache start'); await tick(); this.loaded = ['warm']; events.push('Cache end') }
      async onModuleDestroy() { events.push('Cache destroy start'); await tick(); events.push('Cache destroy end') }
    }
    @injectable() class Search {
      async onModuleInit() { events.push('Search start'); await tick(); events.push('Search end') }
      async onModuleDestroy() { events.push('Search destroy start'); await tick(); events.push('Search destroy end') }
    }
    @Route() class CacheController {
      constructor(readonly cache: Cache) {}
      @Get('/cache') get() { return { loaded: this.cache.loaded } }
    }
    @Module({ providers: [Cache, Search], controllers: [CacheController] }) class Root {
      async onApplicationBootstrap() { await tick(); events.push('Root bootstrap') }
    }
    const app = await createApp(Root)
    expect(events).to.deep.equal(['Cache start', 'Cache end', 'Search start', 'Search end', 'Root bootstrap'])
    await request(app.server).get('/cache').expect(200, { loaded: ['warm'] })
    await app.close()
    expect(events.slice(5)).to.deep.equal(['Cache destroy start', 'Cache destroy end', 'Search destroy start', 'Search destroy end'])
  })

  it('calls an instance once however many modules see it: lifted providers and one useValue object listed twice', async () => {
    const calls: string[] = []
    @injectable() class Db { onModuleInit() { calls.push('Db') } onApplicationShutdown() { calls.push('Db shutdown') } }
    const config = { onModuleInit: () => { calls.push('config') }, onApplicationShutdown: () => { calls.push('config shutdown') } }
    @injectable() class Users { constructor(readonly db: Db) {} }
    @Module({ providers: [Db] }) class DatabaseModule {}
    @Module({ providers: [Users, { provide: 'config', useValue: config }] }) class UsersModule {}
    @Module({ providers: [{ provide: 'config', useValue: config }] }) class OrdersModule { constructor() { calls.push('OrdersModule built') } }
    @Module({ plugins: [lift(DatabaseModule), UsersModule, OrdersModule] }) class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(calls.filter((c) => c === 'Db')).to.have.length(1)
    expect(calls.filter((c) => c === 'config')).to.have.length(1)
    expect(calls.filter((c) => c === 'Db shutdown')).to.have.length(1)
    expect(calls.filter((c) => c === 'config shutdown')).to.have.length(1)
  })

  it('calls a module class listed in two places on each of its two instances', async () => {
    const instances = new Set<object>()
    @Module() class Shared { onModuleInit() { instances.add(this) } }
    @Module({ plugins: [Shared] }) class A {}
    @Module({ plugins: [Shared] }) class B {}
    @Module({ plugins: [A, B] }) class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(instances.size).to.equal(2)
  })

  it('calls the hooks of useValue and useFactory values too', async () => {
    const events: string[] = []
    @Module({
      providers: [
        { provide: 'value', useValue: { onModuleInit: () => { events.push('value') } } },
        { provide: 'factory', useFactory: async () => ({ onModuleInit: () => { events.push('factory') } }) },
      ],
    }) class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(events).to.deep.equal(['value', 'factory'])
  })

  it('passes the signal closeOnSignals received to beforeApplicationShutdown and onApplicationShutdown', async () => {
    const events: string[] = []
    @injectable() class Service extends recorder('Service', events) {}
    @Module({ providers: [Service] }) class Root {}
    let exited!: (code: number) => void
    const exit = new Promise<number>((resolve) => { exited = resolve })
    // SIGUSR2 emitted in-process: the listener runs, nothing is sent to the test runner.
    const app = await createApp(Root, { closeOnSignals: { signals: ['SIGUSR2'], exit: (code) => exited(code) } })
    try {
      process.emit('SIGUSR2', 'SIGUSR2')
      expect(await exit).to.equal(0)
    } finally {
      await app.close()
    }
    expect(events).to.include('Service.beforeApplicationShutdown(SIGUSR2)')
    expect(events).to.include('Service.onApplicationShutdown(SIGUSR2)')
    expect(events.filter((e) => e.startsWith('Service.onModuleDestroy'))).to.have.length(1)
  })

  it('passes no signal when app.close() is called directly', async () => {
    const events: string[] = []
    @injectable() class Service extends recorder('Service', events) {}
    @Module({ providers: [Service] }) class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(events).to.include('Service.beforeApplicationShutdown(undefined)').and.include('Service.onApplicationShutdown(undefined)')
  })

  it('fails createApp() with ENC_ERR_MODULE_LIFECYCLE_HOOK naming the module path and provider when onModuleInit throws, and releases what was built', async () => {
    const events: string[] = []
    @injectable() class Pool { onModuleDestroy() { events.push('Pool destroyed') } dispose() { events.push('Pool disposed') } }
    @injectable() class Cache { onModuleInit() { throw new Error('redis unreachable') } }
    @injectable() class Later { onModuleInit() { events.push('Later init') } }
    @Module({ providers: [Cache] }) class CacheModule {}
    @Module({ plugins: [CacheModule], providers: [Pool, Later] }) class Root {}
    const error = await createApp(Root).then(() => expect.fail('createApp() should fail'), (e: Error & { code: string }) => e)
    expect(error.code).to.equal('ENC_ERR_MODULE_LIFECYCLE_HOOK')
    expect(error.message).to.contain('onModuleInit() of provider Cache').and.contain('Root > CacheModule').and.contain('redis unreachable')
    expect(events).to.not.include('Later init')
    expect(events).to.deep.equal(['Pool destroyed', 'Pool disposed'])
  })

  it('fails createApp() with ENC_ERR_MODULE_LIFECYCLE_HOOK when onApplicationBootstrap rejects, and closes the app', async () => {
    const events: string[] = []
    @Route() class Ctl {
      async onApplicationBootstrap() { throw new Error('migrations failed') }
      onApplicationShutdown() { events.push('shutdown') }
      @Get('/') get() { return {} }
    }
    @Module({ controllers: [Ctl] }) class Root {}
    const error = await createApp(Root).then(() => expect.fail('createApp() should fail'), (e: Error & { code: string }) => e)
    expect(error.code).to.equal('ENC_ERR_MODULE_LIFECYCLE_HOOK')
    expect(error.message).to.contain('onApplicationBootstrap() of controller Ctl (Root)').and.contain('migrations failed')
    expect(events).to.deep.equal(['shutdown'])
  })

  it('fails createApp() when onModuleInit outlives pluginTimeout', async () => {
    @injectable() class Stuck { onModuleInit() { return new Promise(() => undefined) } }
    @Module({ providers: [Stuck] }) class Root {}
    const error = await createApp(Root, { pluginTimeout: 50 }).then(() => expect.fail('createApp() should fail'), (e: Error & { code: string }) => e)
    expect(error.code).to.equal('ENC_ERR_MODULE_LIFECYCLE_HOOK')
    expect(error.message).to.contain('onModuleInit() of provider Stuck').and.contain('did not finish within 50 ms')
  })

  it('logs a throwing shutdown hook and goes on closing', async () => {
    const events: string[] = []
    const logger = recordingLogger()
    @injectable() class First { onModuleDestroy() { events.push('First destroy') } dispose() { events.push('First dispose') } onApplicationShutdown() { events.push('First shutdown') } }
    @injectable() class Broken {
      constructor(readonly first: First) {}
      onModuleDestroy() { throw new Error('already gone') }
      async beforeApplicationShutdown() { throw new Error('still gone') }
      onApplicationShutdown() { throw new Error('gone for good') }
    }
    @Module({ providers: [Broken, First] }) class Root {}
    const app = await createApp(Root, { logger })
    await app.close()
    expect(events).to.deep.equal(['First destroy', 'First dispose', 'First shutdown'])
    const failures = logger.entries.filter((e) => e.level === 'error').map((e) => e.msg)
    expect(failures).to.deep.equal([
      'onModuleDestroy() of provider Broken (Root) failed while the app was closing',
      'beforeApplicationShutdown() of provider Broken (Root) failed while the app was closing',
      'onApplicationShutdown() of provider Broken (Root) failed while the app was closing',
    ])
  })

  it('treats a lifecycle method that cannot even be read (a strict mock as useValue) as a failing hook: coded boot error, or logged at close while the rest is released', async () => {
    const strictMock = (refused: string) => new Proxy({}, {
      get(_target, key) { if (key === refused) throw new Error(`strict mock: no ${String(key)}`); return undefined },
    })
    @Module({ providers: [{ provide: 'mock', useValue: strictMock('onModuleInit') }, { provide: 'n', useValue: 42 }] }) class Booting {}
    const error = await createApp(Booting).then(() => null, (e: Error & { code?: string }) => e)
    expect(error?.code).to.equal('ENC_ERR_MODULE_LIFECYCLE_HOOK')
    expect(error?.message).to.contain("onModuleInit() of provider 'mock'").and.contain('strict mock: no onModuleInit')

    const events: string[] = []
    const logger = recordingLogger()
    @injectable() class Pool { dispose() { events.push('pool disposed') } onApplicationShutdown() { events.push('pool shutdown') } }
    @Module({ providers: [{ provide: 'mock', useValue: strictMock('onModuleDestroy') }, Pool] }) class Closing {}
    const app = await createApp(Closing, { logger })
    await app.close()
    expect(events).to.deep.equal(['pool disposed', 'pool shutdown'])
    expect(logger.entries.filter((e) => e.level === 'error').map((e) => e.msg)).to.deep.equal(["onModuleDestroy() of provider 'mock' (Closing) failed while the app was closing"])
  })

  it('calls the override\'s methods, not the replaced provider\'s', async () => {
    const events: string[] = []
    @injectable() class Mailer { onModuleInit() { events.push('real') } onModuleDestroy() { events.push('real destroy') } }
    @Module({ providers: [Mailer] }) class Root {}
    const fake = { onModuleInit: () => { events.push('fake') }, onModuleDestroy: () => { events.push('fake destroy') } }
    const app = await createApp(Root, { overrides: [override(Mailer, { useValue: fake as unknown as Mailer })] })
    await app.close()
    expect(events).to.deep.equal(['fake', 'fake destroy'])
  })
})
