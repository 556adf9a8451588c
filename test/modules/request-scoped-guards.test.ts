// Request-scoped guards, hook classes and interceptors (docs/request-scope.md, "Request-scoped providers", NestJS
// builds them per request when they depend on a request-scoped provider): built per request,
// sharing the request's instances with the controller, released with the rest.
import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import {
  ErrorHandler, Get, HttpError, Module, OnRequest, OnResponse, PreHandler, REQUEST, RequestScoped, Route, UseInterceptors,
  createApp, override, type CallHandler, type Interceptor, type InterceptorContext, type Reply, type Request, type RequestEnd,
} from '../../src'

const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
let serial = 0

describe('request-scoped guards, hook classes and interceptors (docs/request-scope.md, "Request-scoped providers")', () => {
  it('builds them per request, sharing one instance of each request-scoped provider with the controller', async () => {
    const built: string[] = []
    @RequestScoped() class Tenant { readonly id = ++serial; constructor(@inject(REQUEST) readonly request: Request) {} }
    @injectable() class TenantGuard {
      constructor(readonly tenant: Tenant) { built.push('guard') }
      handle(request: Request) { (request as unknown as { seen: number[] }).seen = [this.tenant.id]; return true }
    }
    @injectable() class Stamp implements Interceptor {
      constructor(readonly tenant: Tenant) { built.push('interceptor') }
      async intercept(context: InterceptorContext, next: CallHandler) {
        const value = await next() as Record<string, unknown>
        return { ...value, interceptor: this.tenant.id }
      }
    }
    @Route() @OnRequest(TenantGuard) @UseInterceptors(Stamp) class C {
      constructor(readonly tenant: Tenant) { built.push('controller') }
      @Get('/ids') ids(request: Request) { return { guard: (request as unknown as { seen: number[] }).seen[0], handler: this.tenant.id } }
    }
    @Module({ providers: [Tenant, TenantGuard, Stamp], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    expect(built).to.deep.equal([])
    const first = (await app.inject({ url: '/ids' })).json<{ guard: number; handler: number; interceptor: number }>()
    const second = (await app.inject({ url: '/ids' })).json<{ guard: number; handler: number; interceptor: number }>()
    expect(first.guard).to.equal(first.handler).and.equal(first.interceptor)
    expect(second.guard).to.equal(second.handler).and.equal(second.interceptor)
    expect(second.guard).to.not.equal(first.guard)
    expect(built).to.deep.equal(['guard', 'controller', 'interceptor', 'guard', 'controller', 'interceptor'])
    await app.close()
  })

  it('bubbles the scope into a guard through a service, on a module-level guard too; a guard that needs none stays one instance', async () => {
    let plainBuilt = 0
    @RequestScoped() class Ctx { readonly id = ++serial }
    @injectable() class Users { constructor(readonly ctx: Ctx) {} }
    @injectable() class Plain { constructor() { plainBuilt++ } handle() { return true } }
    @injectable() class UsersGuard {
      constructor(readonly users: Users) {}
      handle(request: Request) { (request as unknown as { ctx: number }).ctx = this.users.ctx.id }
    }
    @Route() @PreHandler(Plain) class C { @Get('/') get(request: Request) { return { ctx: (request as unknown as { ctx: number }).ctx } } }
    @Module({ providers: [Ctx, Users, UsersGuard, Plain], controllers: [C] }) @OnRequest(UsersGuard) class Root {}
    const app = await createApp(Root)
    const ids = [(await app.inject({ url: '/' })).json<{ ctx: number }>().ctx, (await app.inject({ url: '/' })).json<{ ctx: number }>().ctx]
    expect(ids[0]).to.be.a('number')
    expect(ids[1]).to.not.equal(ids[0])
    expect(plainBuilt).to.equal(1)
    await app.close()
  })

  it('denies as a singleton guard does (false answers 403), and releases what it built with end.failed; the handler never runs', async () => {
    const log: string[] = []
    @Route() class C { @Get('/') get() { log.push('handler'); return { ok: true } } }
    @injectable() class Gate {
      constructor(@inject('tx') readonly tx: string) {}
      async handle(request: Request) { await tick(); return request.headers['x-pass'] === 'yes' }
    }
    @Module({
      providers: [Gate, { provide: 'tx', scope: 'request', useFactory: () => 'tx', dispose: (_v: string, end: RequestEnd) => { log.push(`dispose failed=${end.failed} ${(end.error as { code?: string } | undefined)?.code ?? ''}`) } }],
      controllers: [C],
    })
    @PreHandler(Gate) class Root {}
    const app = await createApp(Root)
    const denied = await app.inject({ url: '/' })
    expect(denied.statusCode).to.equal(403)
    expect(denied.json()).to.include({ code: 'ENC_ERR_GUARD_DENIED' })
    await tick(5) // released by the route's onResponse hook, which may run after inject() resolved
    expect(log.splice(0)).to.deep.equal(['dispose failed=true ENC_ERR_GUARD_DENIED'])
    const allowed = await app.inject({ url: '/', headers: { 'x-pass': 'yes' } })
    expect(allowed.statusCode).to.equal(200)
    expect(log.splice(0)).to.deep.equal(['handler', 'dispose failed=false '])
    await app.close()
  })

  it("a guard's request-scoped dependency failing reaches the route's error handlers (an HttpError keeps its status)", async () => {
    const handled: string[] = []
    @injectable() class Gate { constructor(@inject('tenant') readonly tenant: string) {} handle() { return true } }
    @Route() @OnRequest(Gate) class C { @Get('/') get() { return { ok: true } } }
    const appWith = async (useFactory: () => unknown) => {
      @Module({ providers: [Gate, { provide: 'tenant', scope: 'request', useFactory }], controllers: [C] }) class Root {
        @ErrorHandler() onError(error: Error, _request: Request, reply: Reply) {
          handled.push(error.message)
          if (error instanceof HttpError) throw error
          return reply.code(503).send({ statusCode: 503, error: 'Service Unavailable', message: 'no tenant' })
        }
      }
      return createApp(Root)
    }
    const app = await appWith(async () => { await tick(); throw new Error('tenant lookup failed') })
    expect((await app.inject({ url: '/' })).statusCode).to.equal(503)
    await app.close()
    const denying = await appWith(() => { throw new HttpError(401, 'who are you') })
    const answer = await denying.inject({ url: '/' })
    expect(answer.statusCode).to.equal(401)
    expect(answer.json<{ message: string }>().message).to.equal('who are you')
    await denying.close()
    expect(handled).to.deep.equal(['tenant lookup failed', 'who are you'])
  })

  it('runs a done-style request-scoped guard, which denies through done(error)', async () => {
    @RequestScoped() class Ctx { readonly id = ++serial }
    @injectable() class Gate {
      constructor(readonly ctx: Ctx) {}
      handle(request: Request, _reply: Reply, done: (error?: Error) => void) { setTimeout(() => done(request.headers['x-pass'] === 'yes' ? undefined : new HttpError(401, 'no pass')), 1) }
    }
    @Route() @OnRequest(Gate) class C { @Get('/') get() { return { ok: true } } }
    @Module({ providers: [Ctx, Gate], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/' })).statusCode).to.equal(401)
    expect((await app.inject({ url: '/', headers: { 'x-pass': 'yes' } })).statusCode).to.equal(200)
    await app.close()
  })

  it('releases newest first across guard, controller and interceptor, once the handler settled', async () => {
    const log: string[] = []
    const entry = (name: string) => ({ provide: name, scope: 'request' as const, useFactory: () => { log.push(`build ${name}`); return name }, dispose: (_v: string, end: RequestEnd) => { log.push(`dispose ${name} failed=${end.failed}`) } })
    @injectable() class Gate { constructor(@inject('g') readonly g: string) {} handle() { return true } }
    @injectable() class Around implements Interceptor {
      constructor(@inject('i') readonly i: string) {}
      intercept(_c: InterceptorContext, next: CallHandler) { return next() }
    }
    @Route() @OnRequest(Gate) @UseInterceptors(Around) class C {
      constructor(@inject('c') readonly c: string) {}
      @Get('/') get() { log.push('handler'); return { ok: true } }
    }
    @Module({ providers: [Gate, Around, entry('g'), entry('c'), entry('i')], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/' })).statusCode).to.equal(200)
    expect(log).to.deep.equal(['build g', 'build c', 'build i', 'handler', 'dispose i failed=false', 'dispose c failed=false', 'dispose g failed=false'])
    await app.close()
  })

  it('keeps 100 overlapping requests apart across guard and handler', async () => {
    @RequestScoped() class Ctx { constructor(@inject(REQUEST) readonly request: Request) {} get who() { return String(this.request.headers['x-who']) } }
    @injectable() class Gate {
      constructor(readonly ctx: Ctx) {}
      async handle(request: Request) { await tick(Number(this.ctx.who) % 7); (request as unknown as { guardSaw: string }).guardSaw = this.ctx.who }
    }
    @Route() @OnRequest(Gate) class C {
      constructor(readonly ctx: Ctx) {}
      @Get('/') async get(request: Request) { await tick(Number(this.ctx.who) % 5); return { guard: (request as unknown as { guardSaw: string }).guardSaw, handler: this.ctx.who } }
    }
    @Module({ providers: [Ctx, Gate], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => app.inject({ url: '/', headers: { 'x-who': String(i) } })))
    answers.forEach((answer, i) => expect(answer.json()).to.deep.equal({ guard: String(i), handler: String(i) }))
    await app.close()
  })

  it('lets overrides replace the request-scoped provider a guard needs (a useValue makes the guard a singleton again)', async () => {
    let built = 0
    @RequestScoped() class Ctx { readonly name: string = 'real' }
    @injectable() class Gate { constructor(readonly ctx: Ctx) { built++ } handle(request: Request) { (request as unknown as { who: string }).who = this.ctx.name } }
    @Route() @OnRequest(Gate) class C { @Get('/') get(request: Request) { return { who: (request as unknown as { who: string }).who } } }
    @Module({ providers: [Ctx, Gate], controllers: [C] }) class Root {}
    const app = await createApp(Root, { overrides: [override(Ctx, { useValue: { name: 'stub' } })] })
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ who: 'stub' })
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ who: 'stub' })
    expect(built).to.equal(1)
    await app.close()
  })

  it('builds a request-scoped hook class at a stage after the handler (onResponse) per request (it was refused before session 21)', async () => {
    const ids: number[] = []
    @RequestScoped() class Ctx { readonly id = ++serial }
    @injectable() class Audit { constructor(readonly ctx: Ctx) {} handle() { ids.push(this.ctx.id) } }
    @Route() @OnResponse(Audit) class C { @Get('/') get() { return {} } }
    @Module({ providers: [Ctx, Audit], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/' })).statusCode).to.equal(200)
    expect((await app.inject({ url: '/' })).statusCode).to.equal(200)
    await tick(10)
    expect(ids).to.have.length(2)
    expect(ids[0]).to.not.equal(ids[1])
    await app.close()
  })
})

describe('a per-request factory that never settles (docs/request-scope.md, "Request-scoped providers")', () => {
  it('is given up at handlerTimeout (503); what the request built is released, and a value that lands later is released as it lands', async () => {
    const log: string[] = []
    let land: (value: string) => void = () => undefined
    @Route() class C {
      constructor(@inject('first') readonly first: string, @inject('stuck') readonly stuck: string) {}
      @Get('/', { handlerTimeout: 50 } as never) get() { log.push('handler'); return { ok: true } }
    }
    @Module({
      providers: [
        { provide: 'first', scope: 'request', useFactory: () => 'first', dispose: (_v: string, end: RequestEnd) => { log.push(`dispose first failed=${end.failed}`) } },
        { provide: 'stuck', scope: 'request', useFactory: () => new Promise<string>((resolve) => { land = resolve }), dispose: () => { log.push('dispose stuck') } },
      ],
      controllers: [C],
    })
    class Root {}
    const app = await createApp(Root)
    const response = await app.inject({ url: '/' })
    expect(response.statusCode).to.equal(503)
    await tick(5)
    expect(log.splice(0)).to.deep.equal(['dispose first failed=true'])
    land('late')
    await tick(5)
    expect(log).to.deep.equal(['dispose stuck'])
    await app.close()
  })
})
