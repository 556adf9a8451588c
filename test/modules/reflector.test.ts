// NestJS's SetMetadata + Reflector (docs/migrating-from-nestjs.md, "Coming from NestJS"): route metadata declared with
// SetMetadata() or Reflector.createDecorator() and read in a guard (from the request, which has no
// ExecutionContext) or an interceptor (from context.handler / context.controller, NestJS's
// getHandler() / getClass()). Reflector is seen by every module without a provider entry.
import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import {
  Get, Module, OnRequest, Reflector, Route, SetMetadata, UseInterceptors, createApp, routeMetadata,
  type CallHandler, type Interceptor, type InterceptorContext, type Request,
} from '../../src'

const ROLES_KEY = 'roles'
// NestJS's habit: a decorator factory over SetMetadata.
const Roles = (...roles: string[]) => SetMetadata(ROLES_KEY, roles)

describe('Reflector and SetMetadata (docs/migrating-from-nestjs.md, "Coming from NestJS")', () => {
  it('a guard injecting Reflector (listed nowhere) reads the served route\'s SetMetadata value: the method\'s over the controller\'s', async () => {
    @injectable() class RolesGuard {
      constructor(private readonly reflector: Reflector) {}
      handle(request: Request) {
        const required = this.reflector.get<string[]>(ROLES_KEY, request)
        if (required === undefined) return true
        return required.some((role) => String(request.headers['x-role']).split(',').includes(role))
      }
    }
    @Route('/books') @Roles('reader') @OnRequest(RolesGuard) class Books {
      @Get('/') list() { return { books: [] } }
      @Get('/admin') @Roles('admin') admin() { return { admin: true } }
    }
    @Route('/open') @OnRequest(RolesGuard) class Open { @Get('/') get() { return { open: true } } }
    @Module({ prefix: '/api', providers: [RolesGuard], controllers: [Books, Open] }) class Api {}
    @Module({ plugins: [Api] }) class Root {}
    const app = await createApp(Root, { logger: false })
    const status = async (url: string, role?: string) => (await app.inject({ url, headers: role === undefined ? {} : { 'x-role': role } })).statusCode
    expect(await status('/api/books', 'reader')).to.equal(200)
    expect(await status('/api/books', 'guest')).to.equal(403)
    // The method's value replaces the controller's (NestJS's getAllAndOverride([handler, class])).
    expect(await status('/api/books/admin', 'reader')).to.equal(403)
    expect(await status('/api/books/admin', 'admin')).to.equal(200)
    expect(await status('/api/open')).to.equal(200)
    await app.close()
  })

  it('an interceptor reads context.handler and context.controller as NestJS reads getHandler() and getClass(): get, getAllAndOverride, getAllAndMerge', async () => {
    const seen: unknown[] = []
    @injectable() class Inspect implements Interceptor {
      constructor(private readonly reflector: Reflector) {}
      async intercept(context: InterceptorContext, next: CallHandler) {
        const targets = [context.handler, context.controller]
        seen.push({
          handler: this.reflector.get(ROLES_KEY, context.handler),
          controller: this.reflector.get(ROLES_KEY, context.controller),
          override: this.reflector.getAllAndOverride(ROLES_KEY, targets),
          merge: this.reflector.getAllAndMerge(ROLES_KEY, targets),
          all: this.reflector.getAll(ROLES_KEY, targets),
          none: this.reflector.getAllAndMerge('nothing', targets),
          options: this.reflector.getAllAndMerge('options', targets),
        })
        return next()
      }
    }
    @Route() @Roles('reader') @SetMetadata('options', { cache: true, ttl: 5 }) @UseInterceptors(Inspect) class C {
      @Get('/a') @Roles('admin') @SetMetadata('options', { ttl: 60 }) a() { return {} }
      @Get('/b') b() { return {} }
    }
    @Module({ providers: [Inspect], controllers: [C] }) class Root {}
    const app = await createApp(Root, { logger: false })
    expect((await app.inject({ url: '/a' })).statusCode).to.equal(200)
    expect((await app.inject({ url: '/b' })).statusCode).to.equal(200)
    expect(seen).to.deep.equal([
      { handler: ['admin'], controller: ['reader'], override: ['admin'], merge: ['admin', 'reader'], all: [['admin'], ['reader']], none: [], options: { ttl: 5, cache: true } },
      { handler: undefined, controller: ['reader'], override: ['reader'], merge: ['reader'], all: [undefined, ['reader']], none: [], options: { cache: true, ttl: 5 } },
    ])
    await app.close()
  })

  it('Reflector.createDecorator(): a typed decorator whose KEY the reflector and the request read; an argument-less one stores {} (NestJS\'s marker); a transform applies', async () => {
    const Public = Reflector.createDecorator<void>()
    const Permissions = Reflector.createDecorator<string, string[]>({ key: 'permissions', transform: (value) => value.split(',') })
    const seen: unknown[] = []
    @injectable() class Guard {
      constructor(private readonly reflector: Reflector) {}
      handle(request: Request) {
        seen.push([this.reflector.get(Public, request), Public.of(request), this.reflector.get(Permissions, request), request.routeOptions.config[Permissions.KEY]])
        return true
      }
    }
    @Route() @OnRequest(Guard) class C {
      @Get('/public') @Public() open() { return {} }
      @Get('/edit') @Permissions('books:read,books:write') edit() { return {} }
    }
    @Module({ providers: [Guard], controllers: [C] }) class Root {}
    const app = await createApp(Root, { logger: false })
    await app.inject({ url: '/public' })
    await app.inject({ url: '/edit' })
    expect(seen).to.deep.equal([
      [{}, {}, undefined, undefined],
      [undefined, undefined, ['books:read', 'books:write'], ['books:read', 'books:write']],
    ])
    expect(Permissions.KEY).to.equal('permissions').and.equal(Permissions.key)
    await app.close()
  })

  it('reads a base controller class\'s value from a subclass (NestJS reads inherited metadata); routeMetadata() values are the same values', async () => {
    const reflector = new Reflector()
    const Area = routeMetadata<string>('area')
    @Area('admin') @SetMetadata('audited', true) class Base {}
    class Sub extends Base {}
    expect([reflector.get('area', Sub), reflector.get(Area, Base), reflector.get('audited', Sub), reflector.get('other', Sub)]).to.deep.equal(['admin', 'admin', true, undefined])
    // A key Object.prototype has is not a value (as routeMetadata().of()).
    expect(reflector.get('constructor', Sub)).to.equal(undefined)
    expect(reflector.get('x', undefined)).to.equal(undefined)
  })

  it('is seen by every module\'s providers without a provider entry, one instance', async () => {
    @injectable() class A { constructor(readonly reflector: Reflector) {} }
    @injectable() class B { constructor(readonly reflector: Reflector) {} }
    @Route() class C { constructor(readonly b: B) {} @Get('/') get() { return { ok: this.b.reflector instanceof Reflector } } }
    @Module({ providers: [B], controllers: [C] }) class Child {}
    @Module({ providers: [A], plugins: [Child] }) class Root { constructor(readonly a: A) {} }
    const app = await createApp(Root, { logger: false })
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ ok: true })
    await app.close()
  })
})
