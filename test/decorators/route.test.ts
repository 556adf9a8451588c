import 'reflect-metadata'
import { expect } from 'chai'
import { container, injectable } from 'tsyringe'
import { Delete, Get, Head, Module, Options, Params, Patch, Post, Put, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { getControllerMeta, getOwnRoutes } from '../../src/decorators/internal'
import { declarationError } from './helpers'

describe('@Route and the method shortcuts', () => {
  it('on a class records the controller prefix (trailing slash dropped)', () => {
    @Route('/users/') class Users {}
    @Route() class Root {}
    expect(getControllerMeta(Users)).to.deep.equal({ prefix: '/users' })
    expect(getControllerMeta(Root)).to.deep.equal({ prefix: '' })
  })

  it('a controller\'s route list grows in place as its methods are decorated, in source order (no copy per route)', () => {
    class Grow { a(): void {} b(): void {} }
    const decorate = (path: string, key: 'a' | 'b'): void => { Get(path)(Grow.prototype, key, Object.getOwnPropertyDescriptor(Grow.prototype, key)!) }
    decorate('/a', 'a')
    const first = getOwnRoutes(Grow)
    decorate('/b', 'b')
    expect(getOwnRoutes(Grow)).to.equal(first)
    expect(first.map((r) => r.path)).to.deep.equal(['/a', '/b'])
  })

  it('a route method without parameter decorators is declared without reading its parameter types', () => {
    const read: unknown[] = []
    const original = Reflect.getMetadata
    Reflect.getMetadata = ((key: unknown, target: unknown, property?: unknown) => {
      if (property !== undefined) read.push(`${String(key)} ${String(property)}`)
      return (original as (...a: unknown[]) => unknown)(key, target, property)
    }) as typeof Reflect.getMetadata
    try {
      @Route('/p') class Plain { @Post('/', { schema: { body: { type: 'object' } } }) create(): void {} }
      expect(getOwnRoutes(Plain)).to.have.length(1)
    } finally {
      Reflect.getMetadata = original
    }
    expect(read).to.not.include('design:paramtypes create')
  })

  it('on a method records method, path and route options; shortcuts record their method', () => {
    const schema = { body: { type: 'object' } }
    @Route('/x')
    class X {
      @Route({ method: ['get', 'POST'], path: '/a', schema, attachValidation: true }) a() {}
      @Get('/g') g() {}
      @Head('/h') h() {}
      @Post() p() {}
      @Put('/u') u() {}
      @Patch('/pa') pa() {}
      @Delete('/d', { config: { audit: true } }) d() {}
      @Options('/o') o() {}
    }
    const routes = getOwnRoutes(X)
    expect(routes.map((r) => [r.propertyKey, r.methods, r.path])).to.deep.equal([
      ['a', ['GET', 'POST'], '/a'], ['g', ['GET'], '/g'], ['h', ['HEAD'], '/h'], ['p', ['POST'], ''],
      ['u', ['PUT'], '/u'], ['pa', ['PATCH'], '/pa'], ['d', ['DELETE'], '/d'], ['o', ['OPTIONS'], '/o'],
    ])
    expect(routes[0].options).to.deep.equal({ schema, attachValidation: true })
    expect(routes[6].options).to.deep.equal({ config: { audit: true } })
  })

  it('stacks: one method may serve several routes', () => {
    class Twice { @Get('/a') @Get('/b') both() {} }
    expect(getOwnRoutes(Twice).map((r) => r.path).sort()).to.deep.equal(['/a', '/b'])
  })

  it('makes a controller constructor-injectable with no second decorator', () => {
    @injectable() class Repo { name = 'repo' }
    @Route() class WithDeps { constructor(readonly repo: Repo) {} }
    const child = container.createChildContainer()
    child.register(Repo, { useValue: new Repo() })
    expect(child.resolve(WithDeps).repo.name).to.equal('repo')
  })

  it('refuses a misspelt route option at boot, naming the route, the method and the option it resembles', async () => {
    @Route() class Typo { @Get('/a', { shema: {} } as never) a() { return {} } }
    @Module({ controllers: [Typo] }) class Root {}
    const error = await createApp(Root).then(() => null, (e: unknown) => e as Error & { code?: string })
    expect(error?.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error?.message).to.contain('GET /a (handler Typo.a)').and.contain("'shema'").and.contain("did you mean 'schema'")
  })

  it('refuses an unknown HTTP method and a path that is not a string', () => {
    expect(declarationError(() => { class M { @Route({ method: 'FETCH' as never, path: '/' }) m() {} } return M }).message)
      .to.contain("unknown HTTP method 'FETCH'")
    expect(declarationError(() => { class P { @Get(42 as never) m() {} } return P }).code).to.equal('ENC_ERR_DECL_ROUTE_OPTIONS')
  })

  it('accepts NestJS-style paths without a leading slash (controller, route and module prefix) and serves them at /api/books/:id', async () => {
    @Route('books') class Books {
      @Get(':id') one(@Params('id') id: string) { return { id } }
      @Route({ method: 'GET', path: 'all' }) all() { return [] }
    }
    @Module({ prefix: 'api', controllers: [Books] }) class Api {}
    @Module({ plugins: [Api] }) class Root {}
    const app = await createApp(Root)
    try {
      expect((await app.inject({ url: '/api/books/7' })).json()).to.deep.equal({ id: '7' })
      expect((await app.inject({ url: '/api/books/all' })).json()).to.deep.equal([])
    } finally { await app.close() }
  })

  it('refuses a static route method', () => {
    const error = declarationError(() => { class S { @Get('/s') static s() {} } return S })
    expect(error.code).to.equal('ENC_ERR_DECL_STATIC_MEMBER')
  })

  it('refuses @Route with a string on a method and with options on a class', () => {
    const onMethod = declarationError(() => { class A { @(Route('/a') as unknown as MethodDecorator) a() {} } return A })
    expect(onMethod.code).to.equal('ENC_ERR_DECL_TARGET')
    expect(onMethod.message).to.contain("@Get('/path')")
    const onClass = declarationError(() => (Route({ method: 'GET', path: '/' }) as unknown as ClassDecorator)(class B {}))
    expect(onClass.code).to.equal('ENC_ERR_DECL_TARGET')
  })

  it('refuses a route decorator on an accessor', () => {
    const error = declarationError(() => {
      class G { @(Get('/g') as unknown as (t: object, k: string, d: PropertyDescriptor) => void) get g() { return 1 } }
      return G
    })
    expect(error.code).to.equal('ENC_ERR_DECL_TARGET')
  })
})
