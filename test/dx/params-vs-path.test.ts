import 'reflect-metadata'
import { expect } from 'chai'
import findMyWay from 'find-my-way'
import { Get, Module, Params, Route, SchemaClass, routePath } from '../../src/decorators'
import { lift, type SchemaParam, type Scope } from '../../src'
import { createApp } from '../../src/modules'
import { pathParamNames } from '../../src/runtime/internal'
import { bootError } from '../modules/helpers'
import { server, thrown } from '../runtime/helpers'

class BookId extends SchemaClass({ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }) {}
class SharedBookId extends SchemaClass({ $id: 'sharedBookId', type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }) {}

describe('path parameters checked against what the route reads (newcomer finding 3)', () => {
  it('reads path parameter names as find-my-way does: named, several per segment, regex, escaped colon, wildcard', () => {
    expect(pathParamNames('/a/:id')).to.deep.equal(['id'])
    expect(pathParamNames('/near/:lat-:lng/radius/:r')).to.deep.equal(['lat', 'lng', 'r'])
    expect(pathParamNames('/at/:hour(^\\d{2}):minute(^\\d{2})m')).to.deep.equal(['hour', 'minute'])
    expect(pathParamNames('/file/:name.:ext')).to.deep.equal(['name', 'ext'])
    expect(pathParamNames('/time::now/*')).to.deep.equal(['*'])
    expect(pathParamNames('/static')).to.deep.equal([])
  })

  it("@Params('idd') on a route whose path has no :idd is a boot error naming the route, the parameter index and the path's parameters, with did you mean", async () => {
    @Route('/p') class P { @Get('/b/:id') b(@Params('idd') idd: string) { return { idd } } }
    @Module({ controllers: [P] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_PARAM_NOT_IN_PATH')
    expect(error.message).to.contain('P.b').and.contain('parameter 0').and.contain("@Params('idd')")
      .and.contain("'/p/b/:id'").and.contain(':id').and.contain("did you mean 'id'")
  })

  it("routePath('/:id'): its params('id') reads the parameter as @Params('id') does, with or without a schema, prefix included (docs/controllers.md)", async () => {
    const org = routePath('/orgs/:org')
    const item = routePath('/:id/tags/:tag')
    @Route(org.path) class P {
      @Get(item.path) find(@org.params('org') o: string, @item.params('id', { type: 'integer' }) id: SchemaParam<number>, @item.params('tag') tag: string) { return { o, id, tag } }
    }
    @Module({ controllers: [P] }) class Root {}
    const app = await createApp(Root)
    try {
      expect((await app.inject({ url: '/orgs/acme/7/tags/red' })).json()).to.deep.equal({ o: 'acme', id: 7, tag: 'red' })
      expect((await app.inject({ url: '/orgs/acme/x/tags/red' })).statusCode).to.equal(400)
    } finally { await app.close() }
    expect(Object.isFrozen(item)).to.equal(true)
  })

  it("routePath() over a path that is no literal still has its names checked at boot: ENC_ERR_MODULE_PARAM_NOT_IN_PATH, and params(name, undefined) is refused as @Params's is", async () => {
    const dynamic: string = ['/', ':id'].join('')
    const item = routePath(dynamic)
    @Route('/p') class P { @Get(item.path) b(@item.params('idd') idd: string) { return { idd } } }
    @Module({ controllers: [P] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_PARAM_NOT_IN_PATH')
    expect(error.message).to.contain("@Params('idd')").and.contain("did you mean 'id'")
    expect(thrown(() => item.params('id', undefined as never)(P.prototype, 'b', 1))).to.include({ code: 'ENC_ERR_DECL_ROUTE_OPTIONS' })
  })

  it("@Params('name') may name a parameter of a module prefix, a wildcard or a regex parameter", async () => {
    @Route('/') class P {
      @Get('/files/*') files(@Params('*') rest: string) { return { rest } }
      @Get('/n/:num(^\\d+)') n(@Params('num') num: string, @Params('tenant') tenant: string) { return { num, tenant } }
    }
    @Module({ prefix: '/:tenant', controllers: [P] }) class Child {}
    @Module({ plugins: [Child] }) class Root {}
    const app = await createApp(Root)
    try {
      expect((await app.inject({ url: '/t1/files/a/b' })).json()).to.deep.equal({ rest: 'a/b' })
      expect((await app.inject({ url: '/t1/n/42' })).json()).to.deep.equal({ num: '42', tenant: 't1' })
    } finally { await app.close() }
  })

  it('a params schema class requiring a property the path does not have is a boot error (every request would be a 400)', async () => {
    @Route('/p') class P { @Get('/a/:bookId') a(@Params() { id }: BookId) { return { id } } }
    @Module({ controllers: [P] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error.message).to.contain('P.a').and.contain("requires 'id'").and.contain("'/p/a/:bookId'").and.contain(':bookId').and.contain('400')
  })

  it('a shared params schema class (with $id) listed in the module is checked too', async () => {
    @Route('/p') class P { @Get('/a/:bookId', { schema: { params: SharedBookId } }) a() { return {} } }
    @Module({ controllers: [P], schemas: [SharedBookId] }) class Root {}
    expect((await bootError(Root)).message).to.contain("requires 'id'")
  })

  it('the runtime API refuses a params schema whose required names are not path parameters, and accepts one that matches', async () => {
    const app = server()
    const error = thrown(() => app.get('/x/:bookId', { schema: { params: { type: 'object', required: ['bookid'], properties: { bookid: { type: 'string' } } } } }, async () => ({})))
    expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error.message).to.contain("requires 'bookid' (did you mean 'bookId'?)")
    app.get('/y/:id/*', { schema: { params: { type: 'object', required: ['id', '*'], properties: { id: { type: 'string' } } } } }, async () => ({}))
    await app.ready()
  })

  it('reads parameter names exactly as find-my-way 9 registers them (optional :id?, a colon inside a name, static parts, regex)', () => {
    const paths = ['/o/:id?', '/o/:id?/', '/x/:a:b', '/:a-:b', '/:a.:b', '/:a-b:c', '/r/:id(^\\d+)-:x', '/f/*', '/a::b/:c',
      '/at/:hour(^\\d{2}):minute(^\\d{2})m', '/near/:lat-:lng/radius/:r', '/static', '/t/:t(a:b)/:u',
      // Regexes with groups of their own (the type PathParamNames reads these too: test/types/fixtures/path-param-names.ts).
      '/n/:code(^(\\d{3}|new)$)/items/:item', '/n/:id(^((a|b)(c|d))+$)-:rev', '/n/:id(^\\(\\d+\\)$)/:n']
    for (const path of paths) {
      const router = findMyWay()
      router.on('GET', path, () => undefined)
      const expected = [...new Set((router as unknown as { routes: Array<{ params: string[] }> }).routes.flatMap((route) => route.params))]
      expect(pathParamNames(path), path).to.deep.equal(expected)
    }
  })

  it("a method with two route decorators (@Get('/') @Get('/:id')) may read @Params('id'): one of its routes has it", async () => {
    @Route('/r') class C { @Get('/') @Get('/:id') f(@Params('id') id: string | undefined) { return { id: id ?? null } } }
    @Module({ controllers: [C] }) class Root {}
    const app = await createApp(Root)
    try {
      expect((await app.inject({ url: '/r' })).json()).to.deep.equal({ id: null })
      expect((await app.inject({ url: '/r/5' })).json()).to.deep.equal({ id: '5' })
    } finally { await app.close() }
  })

  it('a method with two route decorators is refused when none of its routes has the name, listing each path', async () => {
    @Route('/r') class C { @Get('/') @Get('/:id') f(@Params('idd') id: string | undefined) { return { id } } }
    @Module({ controllers: [C] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_PARAM_NOT_IN_PATH')
    expect(error.message).to.contain('none of its paths has it').and.contain("'/r' has no parameters").and.contain("'/r/:id' has :id").and.contain("did you mean 'id'")
  })

  it("an optional path parameter (/:id?) may be read with @Params('id'); the runtime API accepts a params schema naming it, and refuses one that requires it (a request without it would be a 400)", async () => {
    @Route('/o') class C { @Get('/:id?') f(@Params('id') id: string | undefined) { return { id: id ?? null } } }
    @Module({ controllers: [C] }) class Root {}
    const app = await createApp(Root)
    try {
      expect((await app.inject({ url: '/o/5' })).json()).to.deep.equal({ id: '5' })
      expect((await app.inject({ url: '/o' })).json()).to.deep.equal({ id: null })
    } finally { await app.close() }
    const raw = server()
    raw.get('/p/:id?', { schema: { params: { type: 'object', properties: { id: { type: 'string' } } } } }, async () => ({}))
    await raw.ready()
    const error = thrown(() => server().get('/q/:id?', { schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } } }, async () => ({})))
    expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error.message).to.contain("requires 'id'").and.contain('makes it optional (:id?)').and.not.contain('did you mean')
  })

  it("a path parameter added by a plugin's onRoute hook (url rewritten) may be read with @Params: the check reads the final url", async () => {
    const i18n = lift(async (scope: Scope) => { scope.addHook('onRoute', (route) => { route.url = '/:lang' + String(route.url) }) })
    @Route('/') class C { @Get('/hello') f(@Params('lang') lang: string) { return { lang } } }
    @Module({ plugins: [i18n], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    try {
      expect((await app.inject({ url: '/en/hello' })).json()).to.deep.equal({ lang: 'en' })
    } finally { await app.close() }
  })
})
