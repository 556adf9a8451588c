// Twenty-one more wrong first programs a Fastify, Express or NestJS user would plausibly write
// (dx27), each with the answer it gets: a coded error at declaration or boot that names the place
// and the fix, or, for the two that used to do something other than what was written silently, the
// new refusals (ENC_ERR_DECL_PARAM_PLAIN_CLASS; ENC_ERR_DECL_PARAM_TYPE without a class beside it).
import 'reflect-metadata'
import { expect } from 'chai'
import { Body, Get, HttpCode, Module, OnRequest, Post, Query, Route } from '../../src/decorators'
import { injectable, type Scope } from '../../src'
import { createApp } from '../../src/modules'
import { recordingLogger, server } from '../support/servers'

type Coded = Error & { code?: string }

/** What a server's declaration or its boot refuses with (a declaration throws, a compile step rejects ready()). */
async function refusal(declare: (app: Scope) => void): Promise<Coded> {
  const app = server()
  try {
    declare(app)
    await app.ready()
  } catch (error) {
    return error as Coded
  }
  throw new Error('the program was expected to be refused')
}

/** The same for a module app: the classes' declaration throws, or createApp() rejects. */
async function moduleRefusal(declare: () => Function): Promise<Coded> {
  try {
    const app = await createApp(declare())
    await app.close()
  } catch (error) {
    return error as Coded
  }
  throw new Error('the program was expected to be refused')
}

/** Applies decorators as a build that emits metadata without type-checking (swc) would, with that metadata. */
// (The route decorator's types refuse these parameters, so a tsc build never gets this far.)
function swcMethod(target: Function, key: string, paramTypes: unknown[], decorators: Function[]): void {
  Reflect.defineMetadata('design:paramtypes', paramTypes, target.prototype, key)
  const descriptor = Object.getOwnPropertyDescriptor(target.prototype, key)
  const result = Reflect.decorate(decorators as MethodDecorator[], target.prototype, key, descriptor) as PropertyDescriptor | undefined
  if (result !== undefined) Object.defineProperty(target.prototype, key, result)
}

describe('first mistakes, session 27 (test/dx): Fastify habits', () => {
  it("an async hook that also takes done, calling done() (Fastify 3 only warns): ENC_ERR_HOOK_INVALID_HANDLER, 'remove it'", async () => {
    const error = await refusal((app) => app.addHook('preHandler', async (_request: unknown, _reply: unknown, done: () => void) => { done() }))
    expect(error.code).to.equal('ENC_ERR_HOOK_INVALID_HANDLER')
    expect(error.message).to.contain("addHook('preHandler')").and.contain('must not take a done parameter').and.contain('Remove it')
  })

  it("a hook name misspelt ('preHandle'): ENC_ERR_HOOK_INVALID_NAME listing the names", async () => {
    const error = await refusal((app) => app.addHook('preHandle' as never, async () => undefined))
    expect(error.code).to.equal('ENC_ERR_HOOK_INVALID_NAME')
    expect(error.message).to.contain("'preHandle'").and.contain('preHandler')
  })

  it("`type: 'integer', format: 'int64'` (an OpenAPI habit): boot fails naming the route, the part and the format", async () => {
    const error = await refusal((app) => app.get('/orders', { schema: { querystring: { type: 'object', properties: { id: { type: 'integer', format: 'int64' } } } } }, async () => ({})))
    expect(error.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    expect(error.message).to.contain('GET /orders').and.contain('querystring').and.contain('unknown format "int64"').and.contain('#/properties/id')
  })

  it("a response key '20x' (for 2xx): ENC_ERR_SCH_RESPONSE_KEY with the keys it takes", async () => {
    const error = await refusal((app) => app.get('/r', { schema: { response: { '20x': { type: 'object', properties: { a: { type: 'string' } } } } } }, async () => ({ a: 'x' })))
    expect(error.code).to.equal('ENC_ERR_SCH_RESPONSE_KEY')
    expect(error.message).to.contain("'20x'").and.contain("'1xx' to '5xx'").and.contain('GET /r')
  })

  it("`required: 'name'` (a string, not an array): boot fails naming the route and 'should be array'", async () => {
    const error = await refusal((app) => app.post('/users', { schema: { body: { type: 'object', properties: { name: { type: 'string' } }, required: 'name' } } } as never, async () => ({})))
    expect(error.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
    expect(error.message).to.contain('POST /users').and.contain('required should be array')
  })

  it("a property written beside `type` instead of under `properties`: ENC_ERR_SCH_UNKNOWN_KEYWORD (ajv would ignore it, the body unchecked)", async () => {
    const error = await refusal((app) => app.post('/users', { schema: { body: { type: 'object', name: { type: 'string' } } } } as never, async () => ({})))
    expect(error.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    expect(error.message).to.contain("'name'").and.contain('POST /users')
  })

  it('decorateRequest with an object (shared by every request): ENC_ERR_DEC_REFERENCE_TYPE with the factory form', async () => {
    const error = await refusal((app) => app.decorateRequest('user', {}))
    expect(error.code).to.equal('ENC_ERR_DEC_REFERENCE_TYPE')
    expect(error.message).to.contain("decorateRequest('user')").and.contain('factory')
  })

  it('a handler both in the options and as the last argument: ENC_ERR_ROUTE_INVALID, keep one', async () => {
    const error = await refusal((app) => app.get('/', { handler: async () => 1 } as never, async () => 2))
    expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error.message).to.contain('GET /').and.contain('keep one')
  })

  it('addHook after ready(): ENC_ERR_SCOPE_BOOTED, declare it in a plugin before ready()', async () => {
    const app = server()
    await app.ready()
    let error: Coded | undefined
    try { app.addHook('onRequest', async () => undefined) } catch (caught) { error = caught as Coded }
    expect(error?.code).to.equal('ENC_ERR_SCOPE_BOOTED')
    expect(error?.message).to.contain("addHook('onRequest')").and.contain('before ready()/listen()')
  })

  it('an async handler that forgets to return (resolves undefined, nothing sent): a 500 at once, logged with the fix, not a hang', async () => {
    const logger = recordingLogger()
    const app = server({ logger })
    app.get('/save', async () => { /* return forgotten */ })
    const response = await app.inject({ url: '/save' })
    expect(response.statusCode).to.equal(500)
    const logged = logger.entries.find((entry) => entry.level === 'error')
    expect(String((logged?.obj.err as Error | undefined)?.message)).to.contain('GET /save').and.contain('gave undefined without sending a reply').and.contain('Return the payload')
  })
})

describe('first mistakes, session 27 (test/dx): NestJS habits', () => {
  it("a module that lists itself (NestJS's forwardRef habit): ENC_ERR_MODULE_CYCLE naming it", async () => {
    const error = await moduleRefusal(() => {
      @Module({}) class Self {}
      Reflect.decorate([Module({ plugins: [Self] })], Self)
      return Self
    })
    expect(error.code).to.equal('ENC_ERR_MODULE_CYCLE')
    expect(error.message).to.contain('Self > Self').and.contain('cannot contain itself')
  })

  it("`exports: [Service]`: ENC_ERR_DECL_MODULE_OPTIONS saying there is nothing to export and what shares a provider upward (lift)", async () => {
    const error = await moduleRefusal(() => {
      @injectable() class Service {}
      @Module({ providers: [Service], exports: [Service] } as never) class Child {}
      return Child
    })
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_OPTIONS')
    expect(error.message).to.contain("'exports'").and.contain('lift(Child)')
  })

  it('a controller listed in providers: ENC_ERR_MODULE_UNLISTED_CONTROLLER, move it to controllers', async () => {
    const error = await moduleRefusal(() => {
      @Route('/cats') class Cats { @Get('/') list() { return [] } }
      @Module({ providers: [Cats] }) class Root {}
      return Root
    })
    expect(error.code).to.equal('ENC_ERR_MODULE_UNLISTED_CONTROLLER')
    expect(error.message).to.contain('Cats').and.contain('move it to controllers')
  })

  it('a provider with constructor parameters and no @injectable(): ENC_ERR_MODULE_DEPENDENCY_UNTYPED, decorate it', async () => {
    const error = await moduleRefusal(() => {
      @injectable() class Db {}
      class Repo { constructor(readonly db: Db) {} }
      @Route('/r') class C { constructor(readonly repo: Repo) {} @Get('/') list() { return [] } }
      @Module({ controllers: [C], providers: [Repo, Db] }) class Root {}
      return Root
    })
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(error.message).to.contain('provider Repo').and.contain('@injectable()')
  })

  it('a provider that is undefined (a circular import): ENC_ERR_DECL_MODULE_ENTRY saying so', async () => {
    const error = await moduleRefusal(() => {
      @Module({ providers: [undefined as never] }) class Root {}
      return Root
    })
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
    expect(error.message).to.contain('providers[0] is undefined').and.contain('circular import')
  })

  it('a plain schema object listed in controllers: ENC_ERR_DECL_MODULE_ENTRY, a controller class expected', async () => {
    const error = await moduleRefusal(() => {
      @Module({ controllers: [{ type: 'object', properties: { a: { type: 'string' } } }] as never }) class Root {}
      return Root
    })
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
    expect(error.message).to.contain('controllers[0] is an object').and.contain('controller class')
  })

  it("@HttpCode('201') (a string): ENC_ERR_DECL_ROUTE_OPTIONS naming the method and what it takes", async () => {
    const error = await moduleRefusal(() => {
      @Route('/c') class C { @HttpCode('201' as never) @Post('/') make() { return {} } }
      return C
    })
    expect(error.code).to.equal('ENC_ERR_DECL_ROUTE_OPTIONS')
    expect(error.message).to.contain('C.make').and.contain('integer from 200 to 599').and.contain("'201'")
  })

  it('a guard class no module provides: ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE naming the guard and where to add it', async () => {
    const error = await moduleRefusal(() => {
      @injectable() class AuthGuard { handle() { return false } }
      @OnRequest(AuthGuard) @Route('/c') class C { @Get('/') list() { return [] } }
      @Module({ controllers: [C] }) class Root {}
      return Root
    })
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain('AuthGuard').and.contain('a guard class').and.contain('add it to the providers of Root')
  })

  it('onModuleInit that rejects (a database down at boot): ENC_ERR_MODULE_LIFECYCLE_HOOK naming the provider and the cause; the app is not started', async () => {
    const error = await moduleRefusal(() => {
      @injectable() class Db { async onModuleInit() { throw new Error('connection refused') } }
      @Module({ providers: [Db] }) class Root {}
      return Root
    })
    expect(error.code).to.equal('ENC_ERR_MODULE_LIFECYCLE_HOOK')
    expect(error.message).to.contain('onModuleInit() of provider Db').and.contain('connection refused')
  })

  it('@Body() typed with a plain DTO class (class-validator habit, no SchemaClass, no body schema) in a build that does not type-check (swc): ENC_ERR_DECL_PARAM_PLAIN_CLASS, not a body taken unvalidated', async () => {
    class CreateBookDto { title!: string; pages!: number }
    const error = await moduleRefusal(() => {
      class Books { create(dto: CreateBookDto) { return dto } }
      Reflect.decorate([Route('/books')], Books)
      swcMethod(Books, 'create', [CreateBookDto], [Post('/'), (target: object, key: string) => Body()(target, key, 0)])
      return Books
    })
    expect(error.code).to.equal('ENC_ERR_DECL_PARAM_PLAIN_CLASS')
    expect(error.message).to.contain('Books.create').and.contain('@Body() typed CreateBookDto').and.contain('unvalidated')
      .and.contain('extends SchemaClass(').and.contain('schema: { body: {} }')
  })

  it('the same refusal for a class that is no DTO (a stream from a pass-through parser) or has no name: it leads with schema: { body: {} } and never says "declare  as class"', async () => {
    const { Readable } = await import('node:stream')
    const streamed = await moduleRefusal(() => {
      class Uploads { put(body: unknown) { return { ok: body !== null } } }
      Reflect.decorate([Route('/uploads')], Uploads)
      swcMethod(Uploads, 'put', [Readable], [Post('/'), (target: object, key: string) => Body()(target, key, 0)])
      return Uploads
    })
    expect(streamed.code).to.equal('ENC_ERR_DECL_PARAM_PLAIN_CLASS')
    expect(streamed.message).to.contain('typed Readable, which is not a SchemaClass').and.contain('To take the body as it comes').and.contain('schema: { body: {} }')
    expect(streamed.message).not.to.contain('NestJS DTO')
    const anonymous = (() => class {})()
    const unnamed = await moduleRefusal(() => {
      class Notes { create(body: unknown) { return body } }
      Reflect.decorate([Route('/notes')], Notes)
      swcMethod(Notes, 'create', [anonymous], [Post('/'), (target: object, key: string) => Body()(target, key, 0)])
      return Notes
    })
    expect(unnamed.code).to.equal('ENC_ERR_DECL_PARAM_PLAIN_CLASS')
    expect(unnamed.message).to.contain('typed an anonymous class').and.contain('type the parameter with a named class that extends SchemaClass(')
    expect(unnamed.message).not.to.contain('as class an anonymous class').and.not.to.match(/declare\s+as class/)
  })

  it('a plain class as the type is fine once the route gives the part a schema, and an interface (Object in the metadata) or a built-in (Buffer) never counts as a DTO', async () => {
    class CreateBookDto { title!: string }
    class Books {
      create(dto: CreateBookDto) { return dto }
      raw(dto: CreateBookDto) { return dto }
      loose(dto: object) { return dto }
      buffer(body: unknown) { return { buffer: Buffer.isBuffer(body) } }
    }
    const body = (target: object, key: string) => Body()(target, key, 0)
    Reflect.decorate([Route('/books')], Books)
    swcMethod(Books, 'create', [CreateBookDto], [Post('/', { schema: { body: { type: 'object', properties: { title: { type: 'string' } } } } }), body])
    swcMethod(Books, 'raw', [CreateBookDto], [Post('/raw', { schema: { body: {} } }), body])
    swcMethod(Books, 'loose', [Object], [Post('/loose'), body])
    swcMethod(Books, 'buffer', [Buffer], [Post('/buffer'), body])
    @Module({ controllers: [Books] }) class Root {}
    const app = await createApp(Root)
    try {
      expect((await app.inject({ method: 'POST', url: '/books', payload: { title: 'x' } })).json()).to.deep.equal({ title: 'x' })
      expect((await app.inject({ method: 'POST', url: '/books/loose', payload: { title: 'y' } })).json()).to.deep.equal({ title: 'y' })
    } finally { await app.close() }
  })

  it("@Query('page') page: number with no query schema, in a build that does not type-check (swc): ENC_ERR_DECL_PARAM_TYPE, not page + 1 === '11'", async () => {
    const error = await moduleRefusal(() => {
      class Items { list(page: number) { return { next: page + 1 } } }
      Reflect.decorate([Route('/items')], Items)
      swcMethod(Items, 'list', [Number], [Get('/'), (target: object, key: string) => Query('page')(target, key, 0)])
      return Items
    })
    expect(error.code).to.equal('ENC_ERR_DECL_PARAM_TYPE')
    expect(error.message).to.contain("@Query('page') typed number").and.contain('would be a string').and.contain('nothing coerces')
    // With its own schema, or a query schema on the route, the same parameter is fine.
    class Typed { list(page: number) { return { next: page + 1 } } }
    Reflect.decorate([Route('/items')], Typed)
    swcMethod(Typed, 'list', [Number], [Get('/'), (target: object, key: string) => Query('page', { type: 'integer' })(target, key, 0)])
    @Module({ controllers: [Typed] }) class Root {}
    const app = await createApp(Root)
    try {
      expect((await app.inject({ url: '/items?page=1' })).json()).to.deep.equal({ next: 2 })
    } finally { await app.close() }
  })
})
