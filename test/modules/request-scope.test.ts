// Request-scoped providers (NestJS's Scope.REQUEST; docs/request-scope.md, "Request-scoped providers"): built per
// request for the routes whose controller needs them, shared within the request, released when
// the route's handler settled; everything built at boot that would need one fails boot, coded.
import 'reflect-metadata'
import { expect } from 'chai'
import { delay, inject, injectable } from 'tsyringe'
import {
  DecorateRequest, ErrorHandler, Get, HttpCode, HttpError, Module, OnRequest, Post, REPLY, REQUEST, RequestScoped, Route, UseInterceptors,
  createApp, createParamDecorator, isDeclarationError, override, resolveProvider, usePlugin,
  type CallHandler, type CustomParam, type Interceptor, type InterceptorContext, Reply, type Request, type RequestEnd,
} from '../../src'
import { bootError } from './helpers'

const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
let serial = 0

describe('request-scoped providers (docs/request-scope.md, "Request-scoped providers")', () => {
  it('builds a fresh instance per request, shared by every consumer within the request', async () => {
    @RequestScoped() class RequestState { readonly id = ++serial }
    @injectable() class Audit { constructor(readonly state: RequestState) {} }
    @Route() class C {
      constructor(readonly state: RequestState, readonly audit: Audit) {}
      @Get('/ids') ids() { return { controller: this.state.id, audit: this.audit.state.id } }
    }
    @Module({ providers: [RequestState, Audit], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const first = (await app.inject({ url: '/ids' })).json<{ controller: number; audit: number }>()
    const second = (await app.inject({ url: '/ids' })).json<{ controller: number; audit: number }>()
    expect(first.controller).to.equal(first.audit)
    expect(second.controller).to.equal(second.audit)
    expect(second.controller).to.not.equal(first.controller)
    await app.close()
  })

  it("takes scope: 'request' on useClass and useFactory entries (the factory is called per request)", async () => {
    let calls = 0
    class Counter { readonly id = ++serial }
    @Route() class C {
      constructor(@inject('counter') readonly counter: Counter, @inject('made') readonly made: { n: number }) {}
      @Get('/') get() { return { made: this.made.n } }
    }
    @Module({ providers: [{ provide: 'counter', useClass: Counter, scope: 'request' }, { provide: 'made', useFactory: () => ({ n: ++calls }), scope: 'request' }], controllers: [C] })
    class Root {}
    const app = await createApp(Root)
    expect(calls).to.equal(0) // not at boot
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ made: 1 })
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ made: 2 })
    await app.close()
  })

  it("gives REQUEST (that request's headers and decorations) and REPLY to what injects them", async () => {
    @RequestScoped() class Tenant {
      constructor(@inject(REQUEST) readonly request: Request, @inject(REPLY) readonly reply: Reply) {}
      get name(): unknown { return this.request.headers['x-tenant'] }
    }
    @Route() class C {
      constructor(readonly tenant: Tenant) {}
      @Get('/') get() {
        this.tenant.reply.header('x-seen', 'yes')
        return { tenant: this.tenant.name, trace: (this.tenant.request as unknown as { trace: string }).trace }
      }
    }
    @DecorateRequest('trace' as never, { factory: (request: Request) => `t-${String(request.headers['x-tenant'])}` } as never)
    @Module({ providers: [Tenant], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const a = await app.inject({ url: '/', headers: { 'x-tenant': 'acme' } })
    expect(a.json()).to.deep.equal({ tenant: 'acme', trace: 't-acme' })
    expect(a.headers['x-seen']).to.equal('yes')
    expect((await app.inject({ url: '/', headers: { 'x-tenant': 'umbrella' } })).json()).to.deep.equal({ tenant: 'umbrella', trace: 't-umbrella' })
    await app.close()
  })

  it('bubbles the scope: a provider or controller injecting one is built per request; the others stay singletons built at boot', async () => {
    const built: string[] = []
    @RequestScoped() class Ctx { constructor() { built.push('Ctx') } }
    @injectable() class Users { constructor(readonly ctx: Ctx) { built.push('Users') } }
    @injectable() class Clock { constructor() { built.push('Clock') } }
    @Route('/scoped') class Scoped {
      readonly id = ++serial
      constructor(readonly users: Users, readonly clock: Clock) { built.push('Scoped') }
      @Get('/') get() { return { id: this.id } }
    }
    @Route('/plain') class Plain {
      readonly id = ++serial
      constructor(readonly clock: Clock) { built.push('Plain') }
      @Get('/') get() { return { id: this.id } }
    }
    @Module({ providers: [Ctx, Users, Clock], controllers: [Scoped, Plain] }) class Root {}
    const app = await createApp(Root)
    expect(built).to.deep.equal(['Clock', 'Plain'])
    const [s1, s2] = [(await app.inject({ url: '/scoped' })).json<{ id: number }>().id, (await app.inject({ url: '/scoped' })).json<{ id: number }>().id]
    const [p1, p2] = [(await app.inject({ url: '/plain' })).json<{ id: number }>().id, (await app.inject({ url: '/plain' })).json<{ id: number }>().id]
    expect(s1).to.not.equal(s2)
    expect(p1).to.equal(p2)
    // Dependencies first, once per request; the singleton Clock is injected as it is.
    expect(built).to.deep.equal(['Clock', 'Plain', 'Ctx', 'Users', 'Scoped', 'Ctx', 'Users', 'Scoped'])
    await app.close()
  })

  it("bubbles across modules (a root's request-scoped provider, a child's service and controller); an alias gives the same instance", async () => {
    @RequestScoped() class Ctx { readonly id = ++serial }
    @injectable() class ChildService { constructor(readonly ctx: Ctx, @inject('ctx-alias') readonly alias: Ctx) {} }
    @Route() class ChildController {
      constructor(readonly service: ChildService) {}
      @Get('/child') get() { return { id: this.service.ctx.id, same: this.service.ctx === this.service.alias } }
    }
    @Module({ providers: [ChildService], controllers: [ChildController] }) class Child {}
    @Module({ providers: [Ctx, { provide: 'ctx-alias', useExisting: Ctx }], plugins: [Child] }) class Root {}
    const app = await createApp(Root)
    const first = (await app.inject({ url: '/child' })).json<{ id: number; same: boolean }>()
    const second = (await app.inject({ url: '/child' })).json<{ id: number; same: boolean }>()
    expect(first.same).to.equal(true)
    expect(second.same).to.equal(true)
    expect(second.id).to.not.equal(first.id)
    await app.close()
  })

  it('keeps 100 overlapping requests apart: each sees its own instance', async () => {
    @RequestScoped() class Who {
      readonly id: string
      constructor(@inject(REQUEST) request: Request) { this.id = String(request.headers['x-id']) }
    }
    @injectable() class Deep { constructor(readonly who: Who) {} }
    @Route() class C {
      constructor(readonly deep: Deep, readonly who: Who) {}
      @Get('/') async get() {
        await tick(Math.floor(Math.random() * 5))
        return { id: this.deep.who.id, same: this.deep.who === this.who }
      }
    }
    @Module({
      providers: [Who, Deep, { provide: 'slow', scope: 'request', inject: [REQUEST], useFactory: async (request: Request) => { await tick(Math.floor(Math.random() * 5)); return request.headers['x-id'] } }],
      controllers: [C],
    })
    class Root {}
    const app = await createApp(Root)
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => app.inject({ url: '/', headers: { 'x-id': String(i) } })))
    answers.forEach((answer, i) => expect(answer.json()).to.deep.equal({ id: String(i), same: true }))
    await app.close()
  })

  it('awaits an async request-scoped factory before building what injects it', async () => {
    @Route() class C {
      constructor(@inject('user') readonly user: { name: string }) {}
      @Get('/') get() { return { name: this.user.name, isPromise: (this.user as unknown) instanceof Promise } }
    }
    @Module({ providers: [{ provide: 'user', scope: 'request', useFactory: async () => { await tick(); return { name: 'ada' } } }], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ name: 'ada', isPromise: false })
    await app.close()
  })

  describe('a failing request-scoped factory is the route\'s error', () => {
    const appWith = async (useFactory: () => unknown, handled: unknown[] | null) => {
      @Route() class C {
        constructor(@inject('tenant') readonly tenant: unknown) {}
        @Get('/') get() { return { ok: true } }
      }
      @Module({ providers: [{ provide: 'tenant', scope: 'request', useFactory }], controllers: [C] }) class Root {
        @ErrorHandler() onError(error: Error, _request: Request, reply: Reply) {
          if (handled === null) throw error
          handled.push(error.message)
          return reply.code(503).send({ statusCode: 503, error: 'Service Unavailable', message: 'no tenant' })
        }
      }
      return createApp(Root)
    }

    it('a synchronous throw reaches the error handler', async () => {
      const handled: unknown[] = []
      const app = await appWith(() => { throw new Error('no tenant row') }, handled)
      const response = await app.inject({ url: '/' })
      expect(response.statusCode).to.equal(503)
      expect(handled).to.deep.equal(['no tenant row'])
      await app.close()
    })

    it('a rejected promise reaches the error handler', async () => {
      const handled: unknown[] = []
      const app = await appWith(async () => { await tick(); throw new Error('lookup failed') }, handled)
      expect((await app.inject({ url: '/' })).statusCode).to.equal(503)
      expect(handled).to.deep.equal(['lookup failed'])
      await app.close()
    })

    it('unhandled, it answers 500 without the message\'s stack; an HttpError keeps its status', async () => {
      const app = await appWith(() => { throw new Error('secret detail') }, null)
      const response = await app.inject({ url: '/' })
      expect(response.statusCode).to.equal(500)
      expect(response.json()).to.include({ statusCode: 500, error: 'Internal Server Error' })
      expect(response.body).to.not.contain('at ').and.not.contain('.js:')
      await app.close()
      const denied = await appWith(() => { throw new HttpError(401, 'who are you') }, null)
      const answer = await denied.inject({ url: '/' })
      expect(answer.statusCode).to.equal(401)
      expect(answer.json<{ message: string }>().message).to.equal('who are you')
      await denied.close()
    })
  })

  describe('release at the end of the request', () => {
    it("calls a factory's dispose(value, end) and a class's own dispose(end), newest first, once the handler settled", async () => {
      const log: string[] = []
      @RequestScoped() class Unit { dispose(end: RequestEnd) { log.push(`Unit.dispose failed=${end.failed}`) } }
      @Route() class C {
        constructor(@inject('tx') readonly tx: { id: number }, readonly unit: Unit) {}
        @Get('/ok') ok() { log.push('handler'); return { ok: true } }
        @Get('/fail') fail() { log.push('handler'); throw new HttpError(409, 'conflict') }
      }
      @Module({
        providers: [
          Unit,
          { provide: 'tx', scope: 'request', useFactory: () => ({ id: 1 }), dispose: (_tx: unknown, end: RequestEnd) => { log.push(`tx.dispose failed=${end.failed} ${end.error instanceof Error ? end.error.message : ''}`) } },
        ],
        controllers: [C],
      })
      class Root {}
      const app = await createApp(Root)
      expect((await app.inject({ url: '/ok' })).statusCode).to.equal(200)
      expect(log.splice(0)).to.deep.equal(['handler', 'Unit.dispose failed=false', 'tx.dispose failed=false '])
      expect((await app.inject({ url: '/fail' })).statusCode).to.equal(409)
      expect(log.splice(0)).to.deep.equal(['handler', 'Unit.dispose failed=true', 'tx.dispose failed=true conflict'])
      await app.close()
      // close() releases nothing of theirs: they were released with their request.
      expect(log).to.deep.equal([])
    })

    it('a method that returns the reply and sends it later is answered as sent, and what the request built is released after the send', async () => {
      const log: string[] = []
      @RequestScoped() class Unit { dispose() { log.push('Unit.dispose') } }
      @Route() class C {
        constructor(readonly unit: Unit) {}
        @Get('/later') later(@Reply() reply: Reply) {
          setTimeout(() => { log.push('send'); void reply.send({ later: true }) }, 20)
          return reply
        }
      }
      @Module({ providers: [Unit], controllers: [C] }) class Root {}
      const app = await createApp(Root)
      const res = await app.inject({ url: '/later' })
      expect(res.statusCode).to.equal(200)
      expect(res.json()).to.deep.equal({ later: true })
      expect(log).to.deep.equal(['send', 'Unit.dispose'])
      await app.close()
    })

    it('a dispose that throws after a successful handler answers 500 (a failed commit is not confirmed); the others still run', async () => {
      const log: string[] = []
      @Route() class C {
        constructor(@inject('a') readonly a: unknown, @inject('b') readonly b: unknown) {}
        @Get('/') get() { return { ok: true } }
      }
      @Module({
        providers: [
          { provide: 'a', scope: 'request', useFactory: () => 'a', dispose: () => { log.push('a') } },
          { provide: 'b', scope: 'request', useFactory: () => 'b', dispose: () => { log.push('b'); throw new Error('commit failed') } },
        ],
        controllers: [C],
      })
      class Root {}
      const app = await createApp(Root)
      const response = await app.inject({ url: '/' })
      expect(response.statusCode).to.equal(500)
      expect(log).to.deep.equal(['b', 'a'])
      await app.close()
    })

    it('releases what was built when a later factory fails, with end.failed', async () => {
      const ends: RequestEnd[] = []
      @Route() class C {
        constructor(@inject('first') readonly first: unknown, @inject('second') readonly second: unknown) {}
        @Get('/') get() { return { ok: true } }
      }
      @Module({
        providers: [
          { provide: 'first', scope: 'request', useFactory: () => 'first', dispose: (_v: unknown, end: RequestEnd) => { ends.push(end) } },
          { provide: 'second', scope: 'request', useFactory: () => { throw new HttpError(400, 'bad tenant') } },
        ],
        controllers: [C],
      })
      class Root {}
      const app = await createApp(Root)
      expect((await app.inject({ url: '/' })).statusCode).to.equal(400)
      expect(ends).to.have.length(1)
      expect(ends[0].failed).to.equal(true)
      expect((ends[0].error as Error).message).to.equal('bad tenant')
      await app.close()
    })
  })

  it('works with @HttpCode, custom parameters and interceptors on a request-scoped controller', async () => {
    const CurrentTenant = createParamDecorator((_data: undefined, request: Request) => String(request.headers['x-tenant']))
    @injectable() class Envelope implements Interceptor {
      async intercept(_context: InterceptorContext, next: CallHandler) { return { data: await next() } }
    }
    @RequestScoped() class Ctx { readonly id = ++serial }
    @Route() class C {
      constructor(readonly ctx: Ctx) {}
      @Post('/') @HttpCode(201) @UseInterceptors(Envelope)
      create(@CurrentTenant() tenant: CustomParam<string>) { return { tenant, ctx: typeof this.ctx.id } }
    }
    @Module({ providers: [Ctx, Envelope], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const response = await app.inject({ method: 'POST', url: '/', headers: { 'x-tenant': 'acme' } })
    expect(response.statusCode).to.equal(201)
    expect(response.json()).to.deep.equal({ data: { tenant: 'acme', ctx: 'number' } })
    await app.close()
  })

  describe('overrides in tests', () => {
    @RequestScoped() class Tenant {
      constructor(@inject(REQUEST) readonly request: Request) {}
      get name(): string { return String(this.request.headers['x-tenant']) }
    }
    @Route() class C {
      constructor(readonly tenant: Tenant) {}
      @Get('/') get() { return { tenant: this.tenant.name } }
    }
    @Module({ providers: [Tenant], controllers: [C] }) class Root {}

    it('replaces a request-scoped provider with a useValue stub', async () => {
      const app = await createApp(Root, { overrides: [override(Tenant, { useValue: { name: 'stub' } })] })
      expect((await app.inject({ url: '/' })).json()).to.deep.equal({ tenant: 'stub' })
      await app.close()
    })

    it("replaces it with a request-scoped factory (scope: 'request' on the override)", async () => {
      let n = 0
      const app = await createApp(Root, { overrides: [override(Tenant, { scope: 'request', useFactory: () => ({ name: `fake-${++n}` }) as Tenant })] })
      expect((await app.inject({ url: '/' })).json()).to.deep.equal({ tenant: 'fake-1' })
      expect((await app.inject({ url: '/' })).json()).to.deep.equal({ tenant: 'fake-2' })
      await app.close()
    })

    it('refuses an override with an unknown scope', async () => {
      const error = await createApp(Root, { overrides: [[Tenant, { useValue: {}, scope: 'request' } as never]] }).then(() => null, (e: Error & { code: string }) => e)
      expect(error?.code).to.equal('ENC_ERR_MODULE_OVERRIDE_INVALID')
      const other = await createApp(Root, { overrides: [[Tenant, { useClass: Tenant, scope: 'Request' } as never]] }).then(() => null, (e: Error & { code: string }) => e)
      expect(other?.code).to.equal('ENC_ERR_MODULE_OVERRIDE_INVALID')
      expect(other?.message).to.contain("'Request'")
    })
  })

  describe('boot errors', () => {
    @RequestScoped() class Ctx {}
    @injectable() class Users { constructor(readonly ctx: Ctx) {} }
    @Route() class Ping { @Get('/') get() { return {} } }

    const expectRequestScopeError = async (root: Function, ...parts: string[]) => {
      const error = await bootError(root)
      expect(error.code).to.equal('ENC_ERR_MODULE_REQUEST_SCOPE')
      for (const part of parts) expect(error.message).to.contain(part)
      return error
    }

    it('refuses a module class that injects a request-scoped provider, naming the path to it', async () => {
      @Module({ providers: [Ctx, Users], controllers: [Ping] }) class Root { constructor(readonly users: Users) {} }
      await expectRequestScopeError(Root, 'module Root in Root', "Root -> Users -> Ctx (scope 'request' in Root)", 'controller')
    })

    // Session 20: guards and interceptors that need one are built per request (request-scoped-guards.test.ts), no longer refused.
    it('boots a guard class that needs one (through bubbling) and an interceptor that needs REQUEST: both built per request', async () => {
      @injectable() class Guard { constructor(readonly users: Users) {} handle() { return true } }
      @injectable() class Stamp implements Interceptor {
        constructor(@inject(REQUEST) readonly request: Request) {}
        async intercept(_c: InterceptorContext, next: CallHandler) { return { url: this.request.url, value: await next() } }
      }
      @Route() @OnRequest(Guard) @UseInterceptors(Stamp) class Guarded { @Get('/g') get() { return {} } }
      @Module({ providers: [Ctx, Users, Guard, Stamp], controllers: [Guarded] }) class Root {}
      const app = await createApp(Root)
      expect((await app.inject({ url: '/g?x=1' })).json()).to.deep.equal({ url: '/g?x=1', value: {} })
      await app.close()
    })

    it("refuses usePlugin() options that inject a request-scoped provider", async () => {
      const plugin = async () => undefined
      @Module({ providers: [Ctx], plugins: [usePlugin(plugin, { inject: [Ctx], useFactory: () => ({}) })], controllers: [Ping] }) class Root {}
      await expectRequestScopeError(Root, 'usePlugin(plugin) in Root', "Ctx (scope 'request' in Root)")
    })

    it('refuses a request-scoped class with a boot-only method (onModuleInit, checkHealth), which would never run', async () => {
      @injectable() class Repo { constructor(readonly ctx: Ctx) {} onModuleInit() { return undefined } }
      @Module({ providers: [Ctx, Repo], controllers: [Ping] }) class Root {}
      await expectRequestScopeError(Root, 'provider Repo in Root', 'onModuleInit()', 'Repo -> Ctx')
      @RequestScoped() class Probe { checkHealth() { return true } }
      @Module({ providers: [Probe], controllers: [Ping] }) class Other {}
      await expectRequestScopeError(Other, 'provider Probe in Other', 'checkHealth()')
    })

    it('refuses a delay() parameter in a request-scoped class', async () => {
      @injectable() class Later {}
      @RequestScoped() class Lazy { constructor(@inject(delay(() => Later)) readonly later: Later) {} }
      @Module({ providers: [Later, Lazy], controllers: [Ping] }) class Root {}
      await expectRequestScopeError(Root, 'provider Lazy in Root', 'constructor parameter 0', 'delay()')
    })

    it('refuses resolveProvider() of a request-scoped provider outside a request', async () => {
      @Module({ providers: [Ctx, Users], controllers: [Ping] }) class Root {}
      const app = await createApp(Root)
      for (const token of [Ctx, Users, REQUEST]) {
        let error: (Error & { code?: string }) | undefined
        try { resolveProvider(app, token as never) } catch (e) { error = e as Error }
        expect(error?.code, String(token)).to.equal('ENC_ERR_MODULE_REQUEST_SCOPE')
        expect(error?.message).to.contain('outside a request')
      }
      await app.close()
    })

    it("refuses an unknown scope value when the module is declared, with the nearest one", () => {
      const declare = (scope: unknown) => () => { @Module({ providers: [{ provide: 'x', useFactory: () => 1, scope } as never] }) class M {} return M }
      for (const [scope, hint] of [['REQUEST', "Did you mean 'request'"], ['TRANSIENT', "Did you mean 'transient'"], [1, "Did you mean 'transient'"], ['default', "Did you mean 'singleton'"], [2, "Did you mean 'request'"], ['sometimes', "Use 'request'"]] as const) {
        let error: unknown
        try { declare(scope)() } catch (e) { error = e }
        expect(isDeclarationError(error), String(scope)).to.equal(true)
        expect((error as { code: string }).code).to.equal('ENC_ERR_DECL_PROVIDER_SCOPE')
        expect((error as Error).message).to.contain('providers[0]').and.contain(hint)
      }
      let onValue: unknown
      try { @Module({ providers: [{ provide: 'x', useValue: 1, scope: 'request' } as never] }) class M {} void M } catch (e) { onValue = e }
      expect((onValue as { code: string }).code).to.equal('ENC_ERR_DECL_PROVIDER_SCOPE')
      expect((onValue as Error).message).to.contain('useClass or useFactory')
      // The scope is a known one in the wrong place: the message says so, not that the value is unknown.
      expect((onValue as Error).message).to.contain("has scope 'request' on an entry that has no lifetime of its own").and.not.contain('does not know')
    })
  })
})

describe('request scope types (compiled by tsc)', () => {
  it("types scope as 'singleton' | 'request' | 'transient', and a factory's dispose end as RequestEnd", () => {
    const declare = (): void => {
      // @ts-expect-error only 'singleton' | 'request' | 'transient' (session 20 added 'transient', NestJS's TRANSIENT)
      @Module({ providers: [{ provide: 'x', useFactory: () => 1, scope: 'TRANSIENT' }] }) class A {}
      @Module({ providers: [{ provide: 'x', useFactory: () => 1, scope: 'transient' }] }) class A2 {}
      // @ts-expect-error a useValue has no scope of its own
      @Module({ providers: [{ provide: 'x', useValue: 1, scope: 'request' }] }) class B {}
      @Module({ providers: [{ provide: 'x', useFactory: () => 1, scope: 'request', dispose: (_v: number, end: RequestEnd) => end.failed }] }) class C {}
      class Stub { name = 'x' }
      // @ts-expect-error an override's useValue takes no scope either
      override(Stub, { useValue: { name: 'y' }, scope: 'request' })
      override(Stub, { useClass: Stub, scope: 'request' })
      void [A, A2, B, C]
    }
    void declare
  })
})
