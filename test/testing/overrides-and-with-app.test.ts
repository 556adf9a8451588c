// Tests replace providers anywhere in the tree (createApp({ overrides })), read them typed
// (resolveProvider / t.get) and boot-inject-close in one call (withApp).
import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import { Get, Module, Route } from '../../src/decorators'
import { Logger, createApp, override, resolveProvider } from '../../src/modules'
import { lift } from '../../src'
import request from 'supertest'
import { withApp } from '../../src/testing'
import type { Request } from '../../src/runtime'

@injectable() class Mailer { send(to: string): string { return `real mail to ${to}` } }
@injectable() class Signup { constructor(readonly mailer: Mailer) {} run(to: string): string { return this.mailer.send(to) } }
@Route('/signup') class SignupController {
  constructor(readonly signup: Signup) {}
  @Get('/:to') get(request: Request) { return { sent: this.signup.run((request.params as { to: string }).to) } }
}
@Module({ providers: [Signup], controllers: [SignupController], prefix: '/users' }) class UsersModule {}
@Module({ plugins: [UsersModule], providers: [Mailer] }) class AppModule {}

const fakeMailer = { send: (to: string) => `fake mail to ${to}` }

describe('testing: provider overrides (docs/testing.md, "Testing")', () => {
  it('replaces a provider declared in the root for every module that uses it', async () => {
    await withApp(AppModule, { overrides: [override(Mailer, { useValue: fakeMailer })] }, async (t) => {
      const res = await t.inject('/users/signup/ada')
      expect(res.json()).to.deep.equal({ sent: 'fake mail to ada' })
      expect(t.get(Mailer)).to.equal(fakeMailer)
    })
  })

  it('takes useClass and useFactory (with inject) too, built in the declaring module', async () => {
    class FakeMailer { send(to: string) { return `class fake to ${to}` } }
    await withApp(AppModule, { overrides: [[Mailer, { useClass: FakeMailer }]] }, async (t) => {
      expect((await t.inject('/users/signup/bo')).json()).to.deep.equal({ sent: 'class fake to bo' })
    })
    @Module({ plugins: [UsersModule], providers: [Mailer, { provide: 'domain', useValue: 'example.test' }] }) class WithDomain {}
    const factory = override(Mailer, { useFactory: (domain: string) => ({ send: (to: string) => `${to}@${domain}` }), inject: ['domain'] })
    await withApp(WithDomain, { overrides: [factory] }, async (t) => {
      expect((await t.inject('/users/signup/cy')).json()).to.deep.equal({ sent: 'cy@example.test' })
    })
  })

  it('takes an async useFactory: awaited at boot like an async factory provider (typed T | Promise<T>)', async () => {
    const asyncFake = override(Mailer, { useFactory: async () => { await Promise.resolve(); return { send: (to: string) => `async fake to ${to}` } } })
    await withApp(AppModule, { overrides: [asyncFake] }, async (t) => {
      expect((await t.inject('/users/signup/di')).json()).to.deep.equal({ sent: 'async fake to di' })
    })
  })

  it('replaces a provider declared in a child module; visibility does not change', async () => {
    const fakeSignup = { run: () => 'no mail in tests' }
    await withApp(AppModule, { overrides: [[Signup, { useValue: fakeSignup }]] }, async (t) => {
      expect((await t.inject('/users/signup/x')).json()).to.deep.equal({ sent: 'no mail in tests' })
      expect(t.get(Signup, UsersModule)).to.equal(fakeSignup)
      // Still provided by UsersModule only: the root cannot see it.
      expect(() => t.get(Signup)).to.throw().with.property('code', 'ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    })
  })

  it("t.get() without the providing module says to pass it as t.get's second argument; resolveProvider() still says third (newcomer finding 13)", async () => {
    await withApp(AppModule, {}, async (t) => {
      expect(() => t.get(Signup)).to.throw().with.property('message').that.contains('t.get(Signup)').and.contains('second argument: t.get(Signup, Module)')
      expect(() => resolveProvider(t.app, Signup)).to.throw().with.property('message').that.contains('resolveProvider(app, Signup)').and.contains('third argument')
    })
  })

  it('rule: an override replaces every declaration of the token, so a child\'s own provider never keeps the real one', async () => {
    @injectable() class Clock { now() { return 'real' } }
    @Route() class TimeController { constructor(readonly clock: Clock) {} @Get('/time') get() { return { now: this.clock.now() } } }
    @Module({ providers: [Clock], controllers: [TimeController], prefix: '/child' }) class Child {}
    @Module({ plugins: [Child], providers: [Clock] }) class Root {}
    const fixed = { now: () => 'fixed' }
    await withApp(Root, { overrides: [[Clock, { useValue: fixed }]] }, async (t) => {
      expect((await t.inject('/child/time')).json()).to.deep.equal({ now: 'fixed' })
      expect(t.get(Clock)).to.equal(fixed)
      expect(t.get(Clock, Child)).to.equal(fixed)
    })
  })

  it('refuses an override of a token no module provides, naming the root and the fix', async () => {
    @injectable() class Unused {}
    const error = await createApp(AppModule, { overrides: [[Unused, { useValue: {} }]] }).then(() => null, (e: Error & { code: string }) => e)
    expect(error?.code).to.equal('ENC_ERR_MODULE_OVERRIDE_UNKNOWN')
    expect(error?.message).to.contain('no module of AppModule provides Unused')
  })

  it('an override of a token the tree injects but no module provides (a feature module booted alone) names who injects it and the host-module fix (newcomer16)', async () => {
    // NestJS habit: Test.createTestingModule({ imports: [UsersModule] }).overrideProvider(Mailer): UsersModule gets Mailer from its parent.
    const error = await createApp(UsersModule, { overrides: [override(Mailer, { useValue: fakeMailer })] }).then(() => null, (e: Error & { code: string }) => e)
    expect(error?.code).to.equal('ENC_ERR_MODULE_OVERRIDE_UNKNOWN')
    expect(error?.message).to.contain('no module of UsersModule provides Mailer')
      .and.contain('provider Signup in UsersModule (constructor parameter 0) injects it')
      .and.contain('overrides replace providers, they add none')
      .and.contain('@Module({ providers: [{ provide: Mailer, useValue: stub }], plugins: [UsersModule] }) class TestHost {}')
    // A factory's inject list and a usePlugin() entry's count as injecting it too.
    @Module({ providers: [{ provide: 'greeting', useFactory: (url: string) => url, inject: ['DB_URL'] }] }) class Factory {}
    const viaFactory = await createApp(Factory, { overrides: [['DB_URL', { useValue: 'x' }]] }).then(() => null, (e: Error) => e)
    expect(viaFactory?.message).to.contain("factory provider 'greeting' in Factory (inject[0]) injects it")
    // The fix it names works: the host provides what the parent would, and the module keeps its own scope and prefix.
    @Module({ providers: [{ provide: Mailer, useValue: fakeMailer }], plugins: [UsersModule] }) class TestHost {}
    await withApp(TestHost, {}, async (t) => {
      expect((await t.inject('/users/signup/eve')).json()).to.deep.equal({ sent: 'fake mail to eve' })
    })
  })

  it('a feature module booted alone without what its parent provides names the host-module fix at boot (newcomer16)', async () => {
    const error = await createApp(UsersModule).then(() => null, (e: Error & { code: string }) => e)
    expect(error?.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error?.message).to.contain('provider Signup in UsersModule needs Mailer')
      .and.contain('If UsersModule gets it from a module above it in the real app')
      .and.contain('@Module({ providers: [{ provide: Mailer, useValue: stub }], plugins: [UsersModule] }) class TestHost {}')
  })

  it('suggests the token that has the same name when an override names a look-alike token', async () => {
    @Module({ providers: [{ provide: 'Mailer', useValue: fakeMailer }] }) class Root {}
    const error = await createApp(Root, { overrides: [[Mailer, { useValue: {} }]] }).then(() => null, (e: Error & { code: string }) => e)
    expect(error?.code).to.equal('ENC_ERR_MODULE_OVERRIDE_UNKNOWN')
    expect(error?.message).to.contain("Did you mean 'Mailer'")
  })

  it('suggests the closest provided string or symbol token for a mistyped one (newcomer finding 11)', async () => {
    const db = Symbol('database')
    @Module({ providers: [{ provide: 'DB_URL', useValue: 'postgres://' }, { provide: db, useValue: {} }] }) class Root {}
    const typo = await createApp(Root, { overrides: [['DB_ULR', { useValue: 'x' }]] }).then(() => null, (e: Error & { code: string }) => e)
    expect(typo?.code).to.equal('ENC_ERR_MODULE_OVERRIDE_UNKNOWN')
    expect(typo?.message).to.contain("Did you mean 'DB_URL'")
    const symbolTypo = await createApp(Root, { overrides: [[Symbol('databse'), { useValue: {} }]] }).then(() => null, (e: Error & { code: string }) => e)
    expect(symbolTypo?.message).to.contain('Did you mean Symbol(database)')
  })

  it('override(Logger, { useValue }) replaces the framework logger that every module injects (newcomer finding 4)', async () => {
    const lines: string[] = []
    const fake = { info: (msg: string) => { lines.push(msg) } }
    @injectable() class Work { constructor(readonly log: Logger) {} run() { this.log.info('svc work') } }
    @Route('/w') class W { constructor(readonly work: Work) {} @Get('/') get() { this.work.run(); return { ok: true } } }
    @Module({ providers: [Work], controllers: [W] }) class Child {}
    @Module({ plugins: [Child] }) class Root {}
    await withApp(Root, { overrides: [override(Logger, { useValue: fake })] }, async (t) => {
      await t.inject({ url: '/w' })
      expect(t.get(Logger, Child)).to.equal(fake)
    })
    expect(lines).to.deep.equal(['svc work'])
  })

  it('override(Logger) with a lifted module that provides its own Logger: the override replaces it, no duplicate provider', async () => {
    const lines: string[] = []
    const fake = { info: (msg: string) => { lines.push(msg) } }
    @injectable() class Work { constructor(readonly log: Logger) {} run() { this.log.info('svc work') } }
    @Route('/w') class W { constructor(readonly work: Work) {} @Get('/') get() { this.work.run(); return { ok: true } } }
    @Module({ providers: [{ provide: Logger, useValue: { info() {} } }] }) class LogMod {}
    @Module({ plugins: [lift(LogMod)], providers: [Work], controllers: [W] }) class Root {}
    await withApp(Root, { overrides: [override(Logger, { useValue: fake })] }, async (t) => {
      await t.inject({ url: '/w' })
      expect(t.get(Logger, Root)).to.equal(fake)
    })
    expect(lines).to.deep.equal(['svc work'])
  })

  it('refuses a malformed entry and a token overridden twice with ENC_ERR_MODULE_OVERRIDE_INVALID', async () => {
    for (const overrides of [[[Mailer, {}]], [[Mailer, { useValue: 1, useClass: Mailer }]], [Mailer], [[Mailer, { useValue: 1 }], [Mailer, { useValue: 2 }]],
      [[Mailer, { useValue: 1, dispose: () => undefined }]], [[Mailer, { useFactory: () => 1, dispose: 'quit' }]]]) {
      const error = await createApp(AppModule, { overrides: overrides as never }).then(() => null, (e: Error & { code: string }) => e)
      expect(error?.code, JSON.stringify(overrides)).to.equal('ENC_ERR_MODULE_OVERRIDE_INVALID')
    }
  })

  it('the override\'s dependencies are checked like a declared provider\'s', async () => {
    @injectable() class NeedsMissing { constructor(@inject('missing') readonly m: unknown) {} send() { return '' } }
    const error = await createApp(AppModule, { overrides: [[Mailer, { useClass: NeedsMissing }]] }).then(() => null, (e: Error & { code: string }) => e)
    expect(error?.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
  })
})

describe('testing: withApp and resolveProvider', () => {
  it('closes the app after the body, disposing providers, and returns the body\'s result', async () => {
    const events: string[] = []
    @injectable() class Pool { dispose() { events.push('disposed') } }
    @Module({ providers: [Pool] }) class Root {}
    const result = await withApp(Root, {}, async (t) => { events.push('body'); return t.get(Pool) instanceof Pool })
    expect(result).to.equal(true)
    expect(events).to.deep.equal(['body', 'disposed'])
  })

  it('closes the app when the body throws, and rethrows the body\'s error', async () => {
    const events: string[] = []
    @injectable() class Pool { dispose() { events.push('disposed') } }
    @Module({ providers: [Pool] }) class Root {}
    const error = await withApp(Root, {}, () => { throw new Error('assertion failed') }).then(() => null, (e: Error) => e)
    expect(error?.message).to.equal('assertion failed')
    expect(events).to.deep.equal(['disposed'])
  })

  it('resolveProvider returns the very instance the controllers got, and refuses a scope createApp did not make', async () => {
    const app = await createApp(AppModule)
    try {
      const signup = resolveProvider(app, Signup, UsersModule)
      expect(signup.mailer).to.equal(resolveProvider(app, Mailer))
      expect(() => resolveProvider(app, Mailer, SignupController)).to.throw().with.property('code', 'ENC_ERR_MODULE_NOT_AN_APP')
    } finally {
      await app.close()
    }
    const { createServer } = await import('../../src/runtime')
    expect(() => resolveProvider(createServer(), Mailer)).to.throw().with.property('code', 'ENC_ERR_MODULE_NOT_AN_APP')
  })

  it('t.server is the app\'s Node server, so supertest runs against it without listen() (dx2 item 7)', async () => {
    await withApp(AppModule, { overrides: [override(Mailer, { useValue: fakeMailer })] }, async (t) => {
      expect(t.server).to.equal(t.app.server)
      const res = await request(t.server).get('/users/signup/ada')
      expect(res.status).to.equal(200)
      expect(res.body).to.deep.equal({ sent: 'fake mail to ada' })
    })
  })

  it('override(Class, { useValue }) takes a stub of the class\'s public shape when the class has private members (dx2 item 6)', async () => {
    @injectable() class ShippingConfig { base = 500 }
    @injectable() class ShippingClient {
      readonly #secret = 'k'
      constructor(private readonly config: ShippingConfig) {}
      async quote(items: number): Promise<number> { return this.config.base + items + this.#secret.length }
    }
    @Route('/quote') class QuoteController {
      constructor(readonly shipping: ShippingClient) {}
      @Get('/') async get() { return { price: await this.shipping.quote(2) } }
    }
    @Module({ providers: [ShippingConfig, ShippingClient], controllers: [QuoteController] }) class Root {}
    // No cast: private and #private members are not part of what a stub must have.
    const stub = override(ShippingClient, { useValue: { quote: async (n: number) => 700 + n } })
    await withApp(Root, { overrides: [stub] }, async (t) => {
      expect((await t.inject('/quote')).json()).to.deep.equal({ price: 702 })
    })
  })

  it('withApp: t.app.listen() serves over a real port (an override in place), and withApp closes the listener', async () => {
    let address = ''
    await withApp(AppModule, { overrides: [override(Mailer, { useValue: fakeMailer })] }, async (t) => {
      address = await t.app.listen({ port: 0, host: '127.0.0.1' })
      const response = await fetch(`${address}/users/signup/ada`)
      expect(await response.json()).to.deep.equal({ sent: 'fake mail to ada' })
    })
    const after = await fetch(`${address}/users/signup/ada`).then(() => 'answered', () => 'refused')
    expect(after).to.equal('refused')
  })

  it('types: get() and override() follow the token\'s type (compiled by tsc)', async () => {
    await withApp(AppModule, {}, (t) => {
      const mailer: Mailer = t.get(Mailer)
      // @ts-expect-error a Mailer is not a number
      const wrong: number = t.get(Mailer)
      void wrong
      return mailer
    })
    // @ts-expect-error the value does not have Mailer's shape
    override(Mailer, { useValue: { post: () => '' } })
    // @ts-expect-error a factory must build a Mailer
    override(Mailer, { useFactory: () => 42 })
    expect(override(Mailer, { useValue: fakeMailer })).to.deep.equal([Mailer, { useValue: fakeMailer }])
  })
})
