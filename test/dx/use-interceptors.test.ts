import 'reflect-metadata'
import { expect } from 'chai'
import { createReadStream, mkdtempSync, rmSync, writeFileSync, type ReadStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { injectable } from 'tsyringe'
import { Get, HttpCode, Module, OnRequest, Params, Post, Reply, Route, UseInterceptors, createParamDecorator, routeMetadata } from '../../src/decorators'
import type { CallHandler, CustomParam, Interceptor, InterceptorContext } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { HttpError } from '../../src/runtime'
import type { Request } from '../../src/runtime'
import { bootError } from '../modules/helpers'
import { recordingLogger } from '../support/servers'
import { withInterceptors } from '../../src/modules/interceptors'

const order: string[] = []
const tag = (label: string) => {
  @injectable() class Tagged implements Interceptor {
    async intercept(_context: InterceptorContext, next: CallHandler) {
      order.push(`${label}>`)
      const result = await next()
      order.push(`<${label}`)
      return result
    }
  }
  Object.defineProperty(Tagged, 'name', { value: label })
  return Tagged
}

@injectable() class Envelope implements Interceptor {
  async intercept(_context: InterceptorContext, next: CallHandler) { return { data: await next() } }
}

describe('@UseInterceptors(): around advice for the route method\'s call (NestJS interceptors)', () => {
  beforeEach(() => { order.length = 0 })

  it('what intercept() returns is the answer: mapping the result to { data }', async () => {
    @Route('/books') class BooksController {
      @UseInterceptors(Envelope) @Get('/') list() { return ['dune'] }
      @Get('/plain') plain() { return ['dune'] }
    }
    @Module({ providers: [Envelope], controllers: [BooksController] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/books' })).json()).to.deep.equal({ data: ['dune'] })
      expect((await app.inject({ url: '/books/plain' })).json()).to.deep.equal(['dune'])
    } finally { await app.close() }
  })

  it('wraps module (outermost module first), then controller (base class first), then method interceptors; A wraps B within one decorator', async () => {
    const [Root, Child, Base, Ctrl, A, B, Top] = ['root', 'child', 'base', 'ctrl', 'a', 'b', 'top'].map(tag)
    @UseInterceptors(Base) @Route('/') class BaseController {}
    @UseInterceptors(Ctrl) @Route('/') class C extends BaseController {
      @UseInterceptors(Top) @UseInterceptors(A, B) @Get('/') get() { order.push('handler'); return 'ok' }
    }
    @UseInterceptors(Child) @Module({ providers: [Ctrl, Base, A, B, Top], controllers: [C] }) class ChildModule {}
    @UseInterceptors(Root) @Module({ providers: [Root, Child], plugins: [ChildModule] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/' })).body).to.equal('ok')
      expect(order).to.deep.equal(['root>', 'child>', 'base>', 'ctrl>', 'top>', 'a>', 'b>', 'handler', '<b', '<a', '<top', '<ctrl', '<base', '<child', '<root'])
    } finally { await app.close() }
  })

  it('runs after the guards and validation, and an interceptor class injects services (a provider of the module)', async () => {
    @injectable() class Clock { now() { return 7 } }
    @injectable() class Stamp implements Interceptor {
      constructor(private readonly clock: Clock) {}
      async intercept(context: InterceptorContext, next: CallHandler) {
        order.push(`stamp saw ${(context.request.params as { id: number }).id}`)
        return { at: this.clock.now(), value: await next() }
      }
    }
    const guard = async (request: Request) => { order.push('guard'); if (request.headers['x-user'] === undefined) throw new HttpError(401, 'who?') }
    @OnRequest(guard) @UseInterceptors(Stamp) @Route('/') class C {
      @Get('/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }) get(@Params('id') id: number) { return id }
    }
    @Module({ providers: [Clock, Stamp], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/3' })).statusCode).to.equal(401)
      expect((await app.inject({ url: '/x', headers: { 'x-user': 'a' } })).statusCode).to.equal(400)
      expect(order).to.deep.equal(['guard', 'guard'])
      expect((await app.inject({ url: '/3', headers: { 'x-user': 'a' } })).json()).to.deep.equal({ at: 7, value: 3 })
      expect(order).to.deep.equal(['guard', 'guard', 'guard', 'stamp saw 3'])
    } finally { await app.close() }
  })

  it('a cache answers without calling next(): the method does not run', async () => {
    let calls = 0
    @injectable() class Cache implements Interceptor {
      private readonly stored = new Map<string, unknown>()
      async intercept(context: InterceptorContext, next: CallHandler) {
        const key = context.request.url
        if (this.stored.has(key)) return this.stored.get(key)
        const value = await next()
        this.stored.set(key, value)
        return value
      }
    }
    @UseInterceptors(Cache) @Route('/') class C { @Get('/n') n() { calls++; return { calls } } }
    @Module({ providers: [Cache], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/n' })).json()).to.deep.equal({ calls: 1 })
      expect((await app.inject({ url: '/n' })).json()).to.deep.equal({ calls: 1 })
      expect(calls).to.equal(1)
    } finally { await app.close() }
  })

  it('next() rejects with what the method threw (sync or async): try/catch around it maps errors (NestJS catchError)', async () => {
    class Conflict extends Error {}
    @injectable() class MapErrors implements Interceptor {
      async intercept(_context: InterceptorContext, next: CallHandler) {
        try { return await next() } catch (error) {
          if (error instanceof Conflict) throw new HttpError(409, error.message)
          throw error
        }
      }
    }
    @UseInterceptors(MapErrors) @Route('/') class C {
      @Get('/sync') sync() { throw new Conflict('taken') }
      @Get('/async') async later() { throw new Conflict('taken later') }
      @Get('/other') other() { throw new HttpError(404, 'none') }
    }
    @Module({ providers: [MapErrors], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const sync = await app.inject({ url: '/sync' })
      expect(sync.statusCode).to.equal(409)
      expect(sync.json()).to.include({ message: 'taken' })
      expect((await app.inject({ url: '/async' })).json()).to.include({ statusCode: 409, message: 'taken later' })
      expect((await app.inject({ url: '/other' })).statusCode).to.equal(404)
    } finally { await app.close() }
  })

  it('custom parameter factories (NestJS pipes) run inside next(): after the interceptor\'s before part, and their errors reach its catch', async () => {
    const CurrentUser = createParamDecorator((_data: unknown, request: Request) => {
      order.push('param')
      if (request.headers['x-user'] === undefined) throw new Error('no user')
      return String(request.headers['x-user'])
    })
    @injectable() class Guarded implements Interceptor {
      async intercept(_context: InterceptorContext, next: CallHandler) {
        order.push('before')
        try { return await next() } catch { throw new HttpError(401, 'sign in') }
      }
    }
    @Route('/') class C { @UseInterceptors(Guarded) @Get('/') get(@CurrentUser() user: CustomParam<string>) { order.push('method'); return user } }
    @Module({ providers: [Guarded], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/', headers: { 'x-user': 'ann' } })).body).to.equal('ann')
      expect(order).to.deep.equal(['before', 'param', 'method'])
      expect((await app.inject({ url: '/' })).json()).to.include({ statusCode: 401, message: 'sign in' })
    } finally { await app.close() }
  })

  it('a throw in intercept() itself is the route\'s error', async () => {
    @injectable() class Refuse implements Interceptor { intercept(): unknown { throw new HttpError(418, 'teapot') } }
    @UseInterceptors(Refuse) @Route('/') class C { @Get('/') get() { return 'never' } }
    @Module({ providers: [Refuse], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/' })).statusCode).to.equal(418)
    } finally { await app.close() }
  })

  it('the interceptor\'s result goes through the route\'s response schema (unknown properties filtered) and @HttpCode still sets the status', async () => {
    @injectable() class Leak implements Interceptor {
      async intercept(_context: InterceptorContext, next: CallHandler) { return { data: await next(), secret: 'x' } }
    }
    const schema = { response: { 201: { type: 'object', properties: { data: { type: 'string' } } } } } as const
    @UseInterceptors(Leak) @Route('/') class C { @HttpCode(201) @Post('/', { schema }) create() { return 'made' as never } }
    @Module({ providers: [Leak], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const res = await app.inject({ method: 'POST', url: '/' })
      expect(res.statusCode).to.equal(201)
      expect(res.json()).to.deep.equal({ data: 'made' })
    } finally { await app.close() }
  })

  it('a method that sends through reply: next() resolves to undefined once the response is out (a returned reply is awaited: await reply), and what intercept() returns is not sent', async () => {
    const seen: unknown[] = []
    let sawAll = () => {}
    const allSeen = new Promise<void>((resolve) => { sawAll = resolve })
    @injectable() class Spy implements Interceptor {
      async intercept(context: InterceptorContext, next: CallHandler) {
        const value = await next()
        seen.push(value === context.reply ? 'reply' : value)
        if (seen.length === 3) sawAll()
        return { data: value }
      }
    }
    @UseInterceptors(Spy) @Route('/') class C {
      @Get('/returns-reply') a(@Reply() reply: Reply) { return reply.code(202).send({ own: true }) }
      @Get('/returns-nothing') async b(@Reply() reply: Reply) { reply.send({ own: 'too' }) }
      @Get('/later') c(@Reply() reply: Reply) { setImmediate(() => reply.send({ later: true })); return reply }
    }
    @Module({ providers: [Spy], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const a = await app.inject({ url: '/returns-reply' })
      expect([a.statusCode, a.json()]).to.deep.equal([202, { own: true }])
      expect((await app.inject({ url: '/returns-nothing' })).json()).to.deep.equal({ own: 'too' })
      expect((await app.inject({ url: '/later' })).json()).to.deep.equal({ later: true })
      // The interceptor resumes after the response is out, some microtasks after inject() resolves for /later.
      await allSeen
      expect(seen).to.deep.equal([undefined, undefined, undefined])
    } finally { await app.close() }
  })

  it('the context names the controller, the method and the handler, and reads route metadata through the request', async () => {
    const Roles = routeMetadata<readonly string[]>('roles')
    let got: unknown
    @injectable() class Look implements Interceptor {
      intercept(context: InterceptorContext, next: CallHandler) {
        got = { controller: context.controller.name, method: context.method, handler: context.handler === C.prototype.list, roles: Roles.of(context.request), reply: typeof context.reply.send }
        return next()
      }
    }
    @Route('/') class C { @Roles(['admin']) @UseInterceptors(Look) @Get('/') list() { return 'x' } }
    @Module({ providers: [Look], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/' })).body).to.equal('x')
      expect(got).to.deep.equal({ controller: 'C', method: 'list', handler: true, roles: ['admin'], reply: 'function' })
    } finally { await app.close() }
  })

  it('an interceptor that calls next() without returning it answers 500 ENC_ERR_REPLY_NOTHING_SENT naming the interceptor, the route method and the fix, not the handler', async () => {
    @injectable() class Forgetful implements Interceptor { intercept(_context: InterceptorContext, next: CallHandler) { void next() } }
    @injectable() class AwaitsOnly implements Interceptor { async intercept(_context: InterceptorContext, next: CallHandler) { await next() } }
    @injectable() class Swallows implements Interceptor { async intercept(_context: InterceptorContext, next: CallHandler) { try { return await next() } catch { /* dropped */ } } }
    @Route('/') class C {
      @UseInterceptors(Forgetful) @Get('/sync') sync() { return 'x' }
      @UseInterceptors(AwaitsOnly) @Get('/async') async later() { return 'y' }
      @UseInterceptors(Swallows) @Get('/caught') caught() { throw new HttpError(409, 'taken') }
      @UseInterceptors(Forgetful) @Get('/thrown') thrown() { throw new HttpError(409, 'taken') }
      @UseInterceptors(AwaitsOnly) @Get('/none') async none(@Reply() reply: Reply) { reply.send('own') }
    }
    @Module({ providers: [Forgetful, AwaitsOnly, Swallows], controllers: [C] }) class AppModule {}
    const logger = recordingLogger()
    const app = await createApp(AppModule, { logger })
    try {
      for (const [url, name, method] of [['/sync', 'Forgetful', 'sync'], ['/async', 'AwaitsOnly', 'later'], ['/caught', 'Swallows', 'caught']] as const) {
        const res = await app.inject({ url })
        expect(res.statusCode, url).to.equal(500)
        const err = logger.entries.filter((e) => e.level === 'error').map((e) => e.obj.err as Error & { code: string }).pop()
        expect(err?.code).to.equal('ENC_ERR_REPLY_NOTHING_SENT')
        const logged = err?.message
        expect(logged).to.include(`GET ${url}: the interceptor ${name} (on C.${method}) called next() but its intercept() gave undefined`)
        expect(logged).to.include('return next()')
      }
      // A next() neither returned nor awaited: the method's error still reaches the error handler (no unhandled rejection).
      expect((await app.inject({ url: '/thrown' })).statusCode).to.equal(409)
      // The method sent through reply: nothing was dropped.
      expect((await app.inject({ url: '/none' })).body).to.equal('own')
    } finally { await app.close() }
  })

  it('an async interceptor that calls next() without awaiting it lets the method\'s own error (thrown synchronously or not) reach the error handler, not a 500 naming the interceptor', async () => {
    @injectable() class AsyncForgetful implements Interceptor { async intercept(_context: InterceptorContext, next: CallHandler) { void next() } }
    @injectable() class LaterForgetful implements Interceptor { async intercept(_context: InterceptorContext, next: CallHandler) { void next(); await null; await null } }
    @injectable() class Catches implements Interceptor { intercept(_context: InterceptorContext, next: CallHandler) { next().catch(() => undefined) } }
    @Route('/') class C {
      @UseInterceptors(AsyncForgetful) @Get('/sync') sync() { throw new HttpError(409, 'taken') }
      @UseInterceptors(AsyncForgetful) @Get('/async') async later() { throw new HttpError(409, 'taken') }
      @UseInterceptors(LaterForgetful) @Get('/later') afterTicks() { throw new HttpError(409, 'taken') }
      @UseInterceptors(Catches) @Get('/caught') caught() { throw new HttpError(409, 'taken') }
    }
    @Module({ providers: [AsyncForgetful, LaterForgetful, Catches], controllers: [C] }) class AppModule {}
    const logger = recordingLogger()
    const app = await createApp(AppModule, { logger })
    try {
      for (const url of ['/sync', '/async', '/later']) {
        const res = await app.inject({ url })
        expect([url, res.statusCode, (res.json() as { message: string }).message]).to.deep.equal([url, 409, 'taken'])
      }
      // An interceptor that looked at the error (catch()) and gave nothing still gets the coded 500 naming it.
      expect((await app.inject({ url: '/caught' })).statusCode).to.equal(500)
      const err = logger.entries.filter((e) => e.level === 'error').map((e) => e.obj.err as Error & { code: string }).pop()
      expect(err?.code).to.equal('ENC_ERR_REPLY_NOTHING_SENT')
      expect(err?.message).to.include('the interceptor Catches (on C.caught)')
    } finally { await app.close() }
  })

  it('a route without interceptors keeps the method\'s handler: no wrapper', () => {
    const handler = () => 1
    @Route('/') class C { @Get('/') get() { return 1 } }
    expect(withInterceptors(handler as never, [], C, 'get')).to.equal(handler)
  })
})

describe('@UseInterceptors() boot errors (ENC_ERR_MODULE_INTERCEPTOR_INVALID)', () => {
  it('an interceptor that answers with something else than the method\'s stream destroys the stream (a file\'s descriptor is closed); one that pipes it on keeps it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'enc-intercept-'))
    const file = join(dir, 'report.txt')
    writeFileSync(file, 'file contents')
    const opened: ReadStream[] = []
    const closed = (stream: ReadStream) => new Promise<void>((resolve) => { if (stream.closed) resolve(); else stream.once('close', () => resolve()) })
    @injectable() class Cached implements Interceptor { async intercept(_c: InterceptorContext, next: CallHandler) { await next(); return { cached: true } } }
    @injectable() class Failing implements Interceptor { async intercept(_c: InterceptorContext, next: CallHandler) { await next(); throw new HttpError(409, 'stale') } }
    @injectable() class Upper implements Interceptor {
      async intercept(_c: InterceptorContext, next: CallHandler) {
        const upper = new Transform({ transform(chunk: Buffer, _e, done) { done(null, chunk.toString().toUpperCase()) } })
        return (await next() as Readable).pipe(upper)
      }
    }
    @Route('/') class Files {
      @UseInterceptors(Cached) @Get('/cached') cached() { const s = createReadStream(file); opened.push(s); return s }
      @UseInterceptors(Failing) @Get('/failing') failing() { const s = createReadStream(file); opened.push(s); return s }
      @UseInterceptors(Upper) @Get('/upper') upper() { const s = createReadStream(file); opened.push(s); return s }
    }
    @Module({ providers: [Cached, Failing, Upper], controllers: [Files] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/cached' })).json()).to.deep.equal({ cached: true })
      await closed(opened[0])
      expect(opened[0].destroyed).to.equal(true)
      expect((await app.inject({ url: '/failing' })).statusCode).to.equal(409)
      await closed(opened[1])
      expect(opened[1].destroyed).to.equal(true)
      expect((await app.inject({ url: '/upper' })).body).to.equal('FILE CONTENTS')
      await closed(opened[2])
      expect(opened[2].readableEnded).to.equal(true)
    } finally {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a class without intercept(), naming the route and the fix', async () => {
    class NotOne { handle() { return 1 } }
    @Route('/') class C { @UseInterceptors(NotOne as never) @Get('/') get() { return 1 } }
    @Module({ providers: [NotOne], controllers: [C] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_INTERCEPTOR_INVALID')
    expect(error.message).to.include('route C.get').and.include('NotOne').and.include('intercept(context, next)')
  })

  it('refuses something that is not a class (undefined from a circular import, a function), with the hint', async () => {
    @UseInterceptors(undefined as never) @Route('/') class C { @Get('/') get() { return 1 } }
    @Module({ controllers: [C] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_INTERCEPTOR_INVALID')
    expect(error.message).to.include('controller C').and.include('undefined').and.include('circular import')
    const fn = (_c: unknown, next: () => unknown) => next()
    @Route('/') class D { @UseInterceptors(fn as never) @Get('/') get() { return 1 } }
    @Module({ controllers: [D] }) class OtherModule {}
    expect((await bootError(OtherModule)).message).to.include('the function fn')
  })

  it('refuses an interceptor class the module does not provide (not resolvable), naming the controller and the fix', async () => {
    @injectable() class Timing implements Interceptor { intercept(_c: InterceptorContext, next: CallHandler) { return next() } }
    @Route('/') class C { @UseInterceptors(Timing) @Get('/') get() { return 1 } }
    @Module({ controllers: [C] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.include('controller C').and.include('@UseInterceptors()').and.include('Timing').and.include('add it to the providers')
  })

  it('refuses @UseInterceptors() on a controller method that declares no route, and on a module method', async () => {
    @Route('/') class C { @UseInterceptors(Envelope) helper() { return 1 } @Get('/') get() { return 1 } }
    @Module({ providers: [Envelope], controllers: [C] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_INTERCEPTOR_INVALID')
    expect(error.message).to.include('C.helper').and.include('declares no route')
    @Module({ providers: [Envelope] }) class M { @UseInterceptors(Envelope) helper() { return 1 } }
    const onModule = await bootError(M)
    expect(onModule.message).to.include('M.helper').and.include('module method is not a route')
  })

  it('refuses @UseInterceptors() on a module with no controller routes in it or below: it would wrap nothing', async () => {
    @UseInterceptors(Envelope) @Module({ providers: [Envelope] }) class Empty {}
    const error = await bootError(Empty)
    expect(error.code).to.equal('ENC_ERR_MODULE_INTERCEPTOR_INVALID')
    expect(error.message).to.include('module Empty').and.include('would wrap no route')
  })
})
