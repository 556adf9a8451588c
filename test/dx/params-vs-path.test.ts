import 'reflect-metadata'
import { expect } from 'chai'
import { Get, Module, Params, Route, SchemaClass } from '../../src/decorators'
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
})
