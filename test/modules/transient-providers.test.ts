// Transient providers (NestJS's Scope.TRANSIENT; docs/request-scope.md, "Transient providers"): a fresh instance
// per consumer, built when the consumer is (at boot for a singleton, per request for a
// request-scoped one); INQUIRER names the consumer's class.
import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import {
  Get, INQUIRER, Module, OnRequest, RequestScoped, Route, Transient, createApp, isDeclarationError, override, resolveProvider,
  type Request, type RequestEnd,
} from '../../src'
import { bootError } from './helpers'

let serial = 0

describe('transient providers (docs/request-scope.md, "Transient providers")', () => {
  it('gives each consumer its own instance, built once for a singleton consumer; two parameters of one consumer share one (NestJS 12)', async () => {
    let built = 0
    @Transient() class Counter { readonly id = ++serial; constructor() { built++ } }
    @injectable() class A { constructor(readonly counter: Counter) {} }
    @injectable() class B { constructor(readonly counter: Counter, readonly second: Counter) {} }
    @Route() class C {
      constructor(readonly a: A, readonly b: B) {}
      @Get('/') get() { return { a: this.a.counter.id, b: this.b.counter.id, b2: this.b.second.id } }
    }
    @Module({ providers: [Counter, A, B], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const first = (await app.inject({ url: '/' })).json<{ a: number; b: number; b2: number }>()
    const second = (await app.inject({ url: '/' })).json<{ a: number; b: number; b2: number }>()
    // Changed in session 22 (was three instances, one per parameter): NestJS 12 builds one per consumer.
    expect(first.b2).to.equal(first.b)
    expect(first.a).to.not.equal(first.b)
    expect(second).to.deep.equal(first)
    expect(built).to.equal(2)
    await app.close()
  })

  it('two parameters of one request-scoped consumer share one transient per request (NestJS 12), released once', async () => {
    const disposed: number[] = []
    @Transient() class Draft { readonly id = ++serial; dispose() { disposed.push(this.id) } }
    @RequestScoped() class Ctx { constructor(readonly first: Draft, @inject(Draft) readonly second: Draft) {} }
    @Route() class C {
      constructor(readonly ctx: Ctx) {}
      @Get('/') get() { return { same: this.ctx.first === this.ctx.second, id: this.ctx.first.id } }
    }
    @Module({ providers: [Draft, Ctx], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const first = (await app.inject({ url: '/' })).json<{ same: boolean; id: number }>()
    const second = (await app.inject({ url: '/' })).json<{ same: boolean; id: number }>()
    expect([first.same, second.same]).to.deep.equal([true, true])
    expect(second.id).to.not.equal(first.id)
    expect(disposed).to.deep.equal([first.id, second.id])
    await app.close()
  })

  it("gives INQUIRER the consumer's class (a factory entry's inject list too), undefined from resolveProvider()", async () => {
    @Transient() class ScopedLogger { constructor(@inject(INQUIRER) readonly owner: Function | undefined) {} get name() { return this.owner?.name ?? 'none' } }
    const Tagged = Symbol('Tagged')
    @injectable() class Orders { constructor(readonly log: ScopedLogger, @inject(Tagged) readonly tag: string) {} }
    @Route() class Billing {
      constructor(readonly log: ScopedLogger, readonly orders: Orders) {}
      @Get('/') get() { return { billing: this.log.name, orders: this.orders.log.name, tag: this.orders.tag } }
    }
    @Module({
      providers: [ScopedLogger, Orders, { provide: Tagged, scope: 'transient', inject: [INQUIRER], useFactory: (owner: Function | undefined) => `for ${owner?.name}` }],
      controllers: [Billing],
    })
    class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ billing: 'Billing', orders: 'Orders', tag: 'for Orders' })
    expect(resolveProvider(app, ScopedLogger).name).to.equal('none')
    expect(resolveProvider(app, ScopedLogger)).to.not.equal(resolveProvider(app, ScopedLogger))
    await app.close()
  })

  it('builds one per request for a request-scoped consumer (each consumer its own), and releases it with the request', async () => {
    const log: string[] = []
    @Transient() class Buffer { readonly id = ++serial; constructor(@inject(INQUIRER) readonly owner: Function | undefined) {} dispose(end: RequestEnd) { log.push(`dispose ${this.owner?.name} ${end.failed}`) } }
    @RequestScoped() class Ctx { constructor(readonly buffer: Buffer) {} }
    @Route() class C {
      constructor(readonly ctx: Ctx, readonly buffer: Buffer) {}
      @Get('/') get() { return { ctx: this.ctx.buffer.id, controller: this.buffer.id } }
    }
    @Module({ providers: [Buffer, Ctx], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const first = (await app.inject({ url: '/' })).json<{ ctx: number; controller: number }>()
    const second = (await app.inject({ url: '/' })).json<{ ctx: number; controller: number }>()
    expect(first.ctx).to.not.equal(first.controller)
    expect([second.ctx, second.controller]).to.not.include(first.ctx).and.not.include(first.controller)
    expect(log).to.have.members(['dispose Ctx false', 'dispose C false', 'dispose Ctx false', 'dispose C false'])
    await app.close()
  })

  it('a transient that injects a request-scoped provider is per request too, and bubbles to its consumers (a guard included)', async () => {
    @RequestScoped() class Ctx { readonly id = ++serial }
    @Transient() class View { constructor(readonly ctx: Ctx) {} }
    @injectable() class Gate { constructor(readonly view: View) {} handle(request: Request) { (request as unknown as { g: number }).g = this.view.ctx.id } }
    @Route() @OnRequest(Gate) class C {
      constructor(readonly view: View) {}
      @Get('/') get(request: Request) { return { guard: (request as unknown as { g: number }).g, handler: this.view.ctx.id } }
    }
    @Module({ providers: [Ctx, View, Gate], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const first = (await app.inject({ url: '/' })).json<{ guard: number; handler: number }>()
    const second = (await app.inject({ url: '/' })).json<{ guard: number; handler: number }>()
    expect(first.guard).to.equal(first.handler)
    expect(second.guard).to.not.equal(first.guard)
    await app.close()
  })

  it("takes scope: 'transient' on useClass entries and overrides; an override with a useValue makes it one shared value", async () => {
    class Id { readonly id = ++serial }
    @injectable() class A { constructor(@inject('id') readonly id: Id) {} }
    @injectable() class B { constructor(@inject('id') readonly id: Id) {} }
    @Route() class C { constructor(readonly a: A, readonly b: B) {} @Get('/') get() { return { same: this.a.id === this.b.id } } }
    @Module({ providers: [{ provide: 'id', useClass: Id, scope: 'transient' }, A, B], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ same: false })
    await app.close()
    const stubbed = await createApp(Root, { overrides: [override('id', { useValue: { id: 0 } })] })
    expect((await stubbed.inject({ url: '/' })).json()).to.deep.equal({ same: true })
    await stubbed.close()
    const fresh = await createApp(Root, { overrides: [override('id', { useFactory: () => ({ id: ++serial }), scope: 'transient' })] })
    expect((await fresh.inject({ url: '/' })).json()).to.deep.equal({ same: false })
    await fresh.close()
  })

  it('gives each injection of a useExisting alias of a transient its own instance, its consumer as INQUIRER, in singleton and request-scoped consumers (NestJS: the alias is as transient as its target)', async () => {
    const disposed: string[] = []
    @Transient() class Log {
      readonly id = ++serial
      constructor(@inject(INQUIRER) readonly owner: Function | undefined) {}
      dispose(end: RequestEnd) { disposed.push(`${this.owner?.name} ${end.failed}`) }
    }
    @injectable() class A { constructor(@inject('L') readonly alias: Log, readonly direct: Log) {} }
    @injectable() class B { constructor(@inject('L2') readonly alias: Log) {} }
    @RequestScoped() class Ctx { constructor(@inject('L') readonly log: Log) {} }
    @Route() class C {
      constructor(readonly a: A, readonly b: B, readonly ctx: Ctx) {}
      @Get('/') get() {
        return { ids: [this.a.alias.id, this.a.direct.id, this.b.alias.id], owners: [this.a.alias.owner?.name, this.b.alias.owner?.name, this.ctx.log.owner?.name], ctx: this.ctx.log.id }
      }
    }
    @Module({ providers: [Log, { provide: 'L', useExisting: Log }, { provide: 'L2', useExisting: 'L' }, A, B, Ctx], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const first = (await app.inject({ url: '/' })).json<{ ids: number[]; owners: string[]; ctx: number }>()
    const second = (await app.inject({ url: '/' })).json<{ ids: number[]; owners: string[]; ctx: number }>()
    expect(new Set(first.ids).size).to.equal(3)
    expect(first.owners).to.deep.equal(['A', 'B', 'Ctx'])
    expect(second.ids).to.deep.equal(first.ids)
    // Through the alias, a request-scoped consumer gets one per request, released with it.
    expect(second.ctx).to.not.equal(first.ctx)
    expect(first.ids).to.not.include(first.ctx)
    expect(disposed).to.deep.equal(['Ctx false', 'Ctx false'])
    await app.close()
  })

  describe('boot and declaration errors', () => {
    @Route() class Ping { @Get('/') get() { return {} } }

    it('refuses INQUIRER in a provider that is not transient, naming it', async () => {
      @injectable() class Wrong { constructor(@inject(INQUIRER) readonly owner: unknown) {} }
      @Module({ providers: [Wrong], controllers: [Ping] }) class Root {}
      const error = await bootError(Root)
      expect(error.code).to.equal('ENC_ERR_MODULE_TRANSIENT')
      expect(error.message).to.contain('provider Wrong in Root').and.contain('@Transient()')
    })

    it('refuses a transient factory that returns a promise', async () => {
      @injectable() class User { constructor(@inject('later') readonly later: unknown) {} }
      @Module({ providers: [{ provide: 'later', scope: 'transient', useFactory: async () => 1 }, User], controllers: [Ping] }) class Root {}
      const error = await bootError(Root)
      expect(error.code).to.equal('ENC_ERR_MODULE_TRANSIENT')
      expect(error.message).to.contain("provider 'later' in Root").and.contain('its factory returned a promise')
    })

    it("a transient factory's refusal met after boot (resolveProvider) is not a later boot's answer to an unrelated failure", async () => {
      @Module({ providers: [{ provide: 'later', scope: 'transient', useFactory: async () => 1 }], controllers: [Ping] }) class First {}
      const first = await createApp(First)
      let refused: unknown
      try { resolveProvider(first, 'later') } catch (error) { refused = error }
      expect((refused as { code?: string }).code).to.equal('ENC_ERR_MODULE_TRANSIENT')
      await first.close()
      @injectable() class Broken { constructor() { throw new Error('no database') } }
      @Module({ providers: [Broken], controllers: [Ping] }) class Second {}
      const error = await bootError(Second)
      expect(error.code).to.equal('ENC_ERR_MODULE_INSTANTIATION')
      expect(error.message).to.contain('no database')
    })

    it('refuses a transient class with a boot-only method (onModuleInit), which would never run', async () => {
      @Transient() class Init { onModuleInit() { return undefined } }
      @Module({ providers: [Init], controllers: [Ping] }) class Root {}
      const error = await bootError(Root)
      expect(error.code).to.equal('ENC_ERR_MODULE_TRANSIENT')
      expect(error.message).to.contain('provider Init in Root').and.contain('onModuleInit()')
    })

    it("names 'transient' for NestJS's spellings at declaration", () => {
      let error: unknown
      try { @Module({ providers: [{ provide: 'x', useFactory: () => 1, scope: 'TRANSIENT' } as never] }) class M {} void M } catch (e) { error = e }
      expect(isDeclarationError(error)).to.equal(true)
      expect((error as Error).message).to.contain("Did you mean 'transient'")
    })
  })
})
