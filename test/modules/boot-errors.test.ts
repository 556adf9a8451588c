import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { DecorateRequest, Get, Module, Route, Body, Schema } from '../../src/decorators'
import { lift } from '../../src/runtime'
import { createApp } from '../../src/modules'
import jwt from '@fastify/jwt'
import { bootError } from './helpers'

describe('createApp: boot errors name the module path and the fix', () => {
  it('refuses a root class that is not a module', async () => {
    class NotAModule {}
    const error = await bootError(NotAModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_NOT_A_MODULE')
    expect(error.message).to.contain('createApp()').and.contain('NotAModule').and.contain('@Module(')
  })

  it('refuses a class in plugins that is not a module, naming where it is listed', async () => {
    class Forgotten {}
    @Module() class Child {}
    @Module({ plugins: [Child, Forgotten] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_NOT_A_MODULE')
    expect(error.message).to.contain('Root: plugins[1]').and.contain('Forgotten')
  })

  it('points a controller listed in plugins to controllers', async () => {
    @Route() class Ctl {}
    @Module({ plugins: [lift(Ctl)] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_NOT_A_MODULE')
    expect(error.message).to.contain("list it in a module's controllers")
  })

  it('refuses a module listed with options', async () => {
    @Module() class Child {}
    @Module({ plugins: [[Child, { prefix: '/c' }]] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_ENTRY_OPTIONS')
    expect(error.message).to.contain('Root: plugins[0]').and.contain('@Module()')
  })

  it('refuses a module that contains itself, printing the cycle', async () => {
    class A {}
    @Module({ plugins: [A] }) class B {}
    Module({ plugins: [B] })(A)
    @Module({ plugins: [A] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_CYCLE')
    expect(error.message).to.contain('Root > A > B > A').and.contain('A > B > A.')
  })

  it('refuses the same module twice in one plugins list, lifted or not', async () => {
    @Module() class Child {}
    @Module({ plugins: [Child, lift(Child)] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DUPLICATE_ENTRY')
    expect(error.message).to.contain('Root lists Child twice')
  })

  it('refuses a controller listed twice in one module', async () => {
    @Route() class Ctl { @Get('/x') x() { return {} } }
    @Module({ controllers: [Ctl, Ctl] }) class Child {}
    @Module({ plugins: [Child] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DUPLICATE_CONTROLLER')
    expect(error.message).to.contain('Root > Child lists controller Ctl twice')
  })

  it('refuses a listed controller without a class-level @Route', async () => {
    class Half { @Get('/h') h() { return {} } }
    @Module({ controllers: [Half] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_NOT_A_CONTROLLER')
    expect(error.message).to.contain('Half').and.contain('1 route method').and.contain('Add @Route()')
  })

  it('refuses module-only decorators on a controller', async () => {
    @DecorateRequest('x' as string, 1) @Route() class Decorated {}
    @Module({ controllers: [Decorated] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_MISPLACED_DECORATOR')
    expect(error.message).to.contain('@DecorateRequest').and.contain('Move them to the module')
  })

  it('refuses to boot while a class the tree reaches has route methods but neither @Route() nor a module listing it', async () => {
    class HalfOrphan { @Get('/h') h() { return {} } }
    @Module({ providers: [HalfOrphan] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_UNLISTED_CONTROLLER')
    expect(error.message).to.contain('- HalfOrphan (a provider of Root)').and.contain('add @Route() to the class and list it')
  })

  it('refuses to boot while a @Route() controller is listed in providers and in no module\'s controllers: its routes would be a silent 404 (newcomer16)', async () => {
    @injectable() class Orders { list() { return [] } }
    @Route('/orders') class OrdersController { constructor(readonly orders: Orders) {} @Get('/') get() { return this.orders.list() } }
    @Module({ providers: [Orders, OrdersController] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_UNLISTED_CONTROLLER')
    expect(error.message).to.contain('- OrdersController (a controller, with @Route(), listed in the providers of Root and in no module\'s controllers: move it to controllers)')
    // Listed as a controller somewhere in the tree (and injected elsewhere as a provider): served, so accepted.
    @Module({ controllers: [OrdersController], providers: [Orders] }) class Served {}
    @Module({ plugins: [Served], providers: [Orders, OrdersController] }) class Both {}
    const app = await createApp(Both)
    expect((await app.inject('/orders')).statusCode).to.equal(200)
    await app.close()
  })

  it('refuses to boot while a module class of the tree has route methods (modules hold no routes)', async () => {
    @Module() class Child { @Get('/c') c() { return {} } }
    @Module({ plugins: [Child] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_UNLISTED_CONTROLLER')
    expect(error.message).to.contain('- Child (a module: modules hold no routes')
  })

  it('boots while a complete controller is listed by no module yet (it may belong to another app)', async () => {
    @Route() class Elsewhere { @Get('/e') e() { return {} } }
    @Module() class Root {}
    const app = await createApp(Root)
    await app.close()
  })

  it('refuses a schemas entry without @Schema', async () => {
    class Plain {}
    @Module({ schemas: [Plain] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_NOT_A_SCHEMA')
    expect(error.message).to.contain('Root: schemas[0]').and.contain('@Schema(')
  })

  it('refuses a token provided twice in one module, or by a module and a module lifted into it', async () => {
    @injectable() class Service {}
    @Module({ providers: [Service, { provide: Service, useValue: {} }] }) class Twice {}
    expect((await bootError(Twice)).code).to.equal('ENC_ERR_MODULE_DUPLICATE_PROVIDER')

    @Module({ providers: [Service] }) class Lifted {}
    @Module({ providers: [Service], plugins: [lift(Lifted)] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DUPLICATE_PROVIDER')
    expect(error.message).to.contain('Root and by Root > lift(Lifted)').and.contain('lifted module provides into its parent')
  })

  it('refuses a dependency typed by an interface, naming the parameter', async () => {
    interface Clock { now(): number }
    @Route() class Ctl { constructor(readonly clock: Clock) {} @Get('/') x() { return {} } }
    @Module({ controllers: [Ctl] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(error.message).to.contain('controller Ctl in Root needs constructor parameter 0').and.contain('@inject(token)')
  })

  it('refuses an interface-typed dependency without @inject(), naming the symbol and string tokens the module can inject (not those it cannot see)', async () => {
    interface FileRepository { all(): string[] }
    const FILE_REPOSITORY = Symbol('FileRepository')
    const HIDDEN = Symbol('Hidden')
    @injectable() class MemoryFiles implements FileRepository { all() { return [] } }
    @Route() class Files { constructor(readonly repo: FileRepository) {} @Get('/') x() { return this.repo.all() } }
    @Module({ providers: [{ provide: HIDDEN, useValue: 1 }] }) class Sibling {}
    @Module({ providers: [{ provide: FILE_REPOSITORY, useClass: MemoryFiles }], controllers: [Files] }) class FilesModule {}
    @Module({ providers: [{ provide: 'CONFIG', useValue: {} }], plugins: [FilesModule, Sibling] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(error.message).to.contain('controller Files in Root > FilesModule needs constructor parameter 0')
      .and.contain("Tokens it can inject that are not classes: 'CONFIG', Symbol(FileRepository) (@inject(thatToken) on the parameter).")
      .and.not.contain('Hidden')
  })

  it('an interface-typed dependency\'s message names the first 10 injectable tokens and how many more, not all of a large app\'s', async () => {
    interface Repo { all(): string[] }
    const providers = Array.from({ length: 300 }, (_, i) => ({ provide: Symbol(`Token${i}`), useValue: i }))
    @Route() class Files { constructor(readonly repo: Repo) {} @Get('/') x() { return this.repo.all() } }
    @Module({ providers, controllers: [Files] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(error.message).to.contain('Symbol(Token0), Symbol(Token1)').and.contain('Symbol(Token9) and 290 more (@inject(thatToken)').and.not.contain('Token10')
    expect(error.message.length).to.be.below(800)
  })

  it('refuses a provider with constructor parameters but no type metadata', async () => {
    class Untyped { constructor(readonly x: unknown) {} }
    @Module({ providers: [Untyped] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(error.message).to.contain('provider Untyped in Root').and.contain('@injectable()')
  })

  it('wraps a provider constructor that throws', async () => {
    @injectable() class Exploding { constructor() { throw new Error('no database') } }
    @Module({ providers: [Exploding] }) class Child {}
    @Module({ plugins: [Child] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_INSTANTIATION')
    expect(error.message).to.contain('provider Exploding for Root > Child failed: no database')
    expect((error as Error).cause).to.be.instanceOf(Error)
  })

  it('refuses a handler that decorates some parameters but not all', async () => {
    @Route() class Ctl { @Get('/') x(_request: unknown, @Body() _body: unknown) { return {} } }
    @Module({ controllers: [Ctl] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_HANDLER_PARAMS')
    expect(error.message).to.contain('GET route Ctl.x in Root: parameter(s) 0')
  })

  it('passes the runtime\'s errors through with the scope path: a decorator redeclared in a child', async () => {
    @DecorateRequest('answer', 1) @Module() class Child {}
    @DecorateRequest('answer', 42) @Module({ plugins: [Child] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
    expect(error.message).to.contain('Root > Child')
  })

  it('names who declared the decorator already there: a module decorating request.user next to @fastify/jwt, which decorates it too', async () => {
    @DecorateRequest('user', null) @Module({ plugins: [[jwt, { secret: 'a-secret-of-32-characters-at-least' }]] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
    // The module's own decorators are declared before its plugins load: the plugin's call is the second.
    expect(error.message).to.contain("decorateRequest('user') by plugin fastifyJwt in Root").and.contain('declared by Root in this scope')
    @DecorateRequest('answer', 1) @Module() class Child {}
    @DecorateRequest('answer', 42) @Module({ plugins: [Child] }) class Parent {}
    expect((await bootError(Parent)).message).to.contain("decorateRequest('answer') by Parent > Child in Parent > Child").and.contain('declared by Parent in Parent.')
  })

  it('passes the runtime\'s errors through: an object as a request decorator value', async () => {
    @DecorateRequest('user', { name: 'shared' }) @Module() class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_DEC_REFERENCE_TYPE')
    expect(error.message).to.contain('factory')
  })

  it('passes the runtime\'s errors through: a $ref to a schema of another branch', async () => {
    @Schema({ $id: 'hidden', type: 'object' }) class Hidden {}
    @Module({ schemas: [Hidden] }) class Holder {}
    @Route() class Ctl { @Get('/', { schema: { querystring: { $ref: 'hidden#' } } }) x() { return {} } }
    @Module({ controllers: [Ctl] }) class User {}
    @Module({ plugins: [Holder, User] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.match(/^ENC_ERR_SCH/)
    expect(error.message).to.contain('Root > User')
  })
})
