// The server side of a contract: implement() (runtime API) and @Implements() (decorators) serve its
// routes as any route (validation, serialization, OpenAPI), and at boot every route of a contract
// must be implemented exactly once (a coded error naming the missing or duplicate one).
import { expect } from 'chai'
import { Body, Implements, Module, Params, Route, createApp, createClient, createServer, defineContract, implement, isFrameworkError, type Request } from '../../src'

const Note = { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string' }, title: { type: 'string' } } } as const
const api = defineContract({
  getNote: { method: 'GET', url: '/notes/:id', schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[0-9]+$' } } }, response: { 200: Note } } },
  createNote: { method: 'POST', url: '/notes', schema: { summary: 'Create a note', body: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } }, response: { 201: Note } } },
})

function codeOf(error: unknown): string | undefined {
  return isFrameworkError(error) ? error.code : undefined
}

describe('contracts on the server: implement(scope, api, handlers)', () => {
  it('serves each route with the contract\'s method, url and schema: params validated (400), response serialized by its schema', async () => {
    const app = createServer()
    implement(app, api, {
      getNote: async (request) => ({ id: request.params.id, title: 'x', extra: 'dropped' }),
      createNote: async (request, reply) => { reply.code(201); return { id: '9', title: request.body.title } },
    })
    expect((await app.inject('/notes/12')).json()).to.deep.equal({ id: '12', title: 'x' })
    expect((await app.inject('/notes/abc')).statusCode).to.equal(400)
    const created = await app.inject({ method: 'POST', url: '/notes', payload: { title: 't' } })
    expect(created.statusCode).to.equal(201)
    await app.close()
  })

  it('takes a handler with route options of its own (a preHandler), the contract\'s method, url and schema kept', async () => {
    const app = createServer()
    implement(app, api, {
      getNote: { preHandler: async (_request, reply) => { reply.header('x-checked', 'yes') }, handler: async (request) => ({ id: request.params.id, title: 'x' }) },
      createNote: async (_request, reply) => reply.code(201).send({ id: '1', title: 't' }),
    })
    const res = await app.inject('/notes/1')
    expect(res.headers['x-checked']).to.equal('yes')
    await app.close()
  })

  it('a route left without a handler fails at once with ENC_ERR_CONTRACT_UNIMPLEMENTED naming it', () => {
    const error = (() => { try { implement(createServer(), api, { getNote: async () => ({ id: '1', title: 'x' }) } as never) } catch (e) { return e } })()
    expect(codeOf(error)).to.equal('ENC_ERR_CONTRACT_UNIMPLEMENTED')
    expect((error as Error).message).to.include('createNote')
  })

  it('a handler under a name the contract lacks fails with ENC_ERR_CONTRACT_UNKNOWN_ROUTE naming it and the contract\'s routes', () => {
    const error = (() => { try { implement(createServer(), api, { getNote: async () => null, createNote: async () => null, deleteNote: async () => null } as never) } catch (e) { return e } })()
    expect(codeOf(error)).to.equal('ENC_ERR_CONTRACT_UNKNOWN_ROUTE')
    expect((error as Error).message).to.include('deleteNote').and.include('getNote, createNote')
  })

  it('the contract implemented twice on one scope fails at boot (the router\'s duplicate route error)', async () => {
    const app = createServer()
    const handlers = { getNote: async () => ({ id: '1', title: 'x' }), createNote: async () => ({ id: '1', title: 'x' }) }
    const error = await (async () => { implement(app, api, handlers); implement(app, api, handlers); await app.ready() })().then(() => null, (e: unknown) => e)
    expect(error).to.be.instanceOf(Error)
    expect((error as Error).message).to.match(/GET.*\/notes\/:id|\/notes\/:id.*GET/)
    await app.close()
  })

  it('app.openapi() lists contract routes as any route (path, method, summary, responses)', async () => {
    const app = createServer()
    implement(app, api, { getNote: async () => ({ id: '1', title: 'x' }), createNote: async () => ({ id: '1', title: 'x' }) })
    await app.ready()
    const doc = app.openapi() as { paths: Record<string, Record<string, { summary?: string; responses: Record<string, unknown> }>> }
    expect(Object.keys(doc.paths)).to.include.members(['/notes/{id}', '/notes'])
    expect(doc.paths['/notes'].post.summary).to.equal('Create a note')
    expect(Object.keys(doc.paths['/notes/{id}'].get.responses)).to.include('200')
    await app.close()
  })

  it('app.openapi() names each contract route\'s operation by its name in the contract (what a generated client calls), unless its schema names one', async () => {
    const named = defineContract({ getNote: { method: 'GET', url: '/notes/:id', schema: { operationId: 'readNote' } }, listNotes: { method: 'GET', url: '/notes' } })
    const app = createServer()
    implement(app, api, { getNote: async () => ({ id: '1', title: 'x' }), createNote: async () => ({ id: '1', title: 'x' }) })
    app.register(async (scope) => { implement(scope, named, { getNote: async () => ({}), listNotes: async () => [] }) }, { prefix: '/v2' })
    await app.ready()
    const doc = app.openapi() as { paths: Record<string, Record<string, { operationId: string }>> }
    expect(doc.paths['/notes/{id}'].get.operationId).to.equal('getNote')
    expect(doc.paths['/notes'].post.operationId).to.equal('createNote')
    expect(doc.paths['/v2/notes/{id}'].get.operationId).to.equal('readNote')
    expect(doc.paths['/v2/notes'].get.operationId).to.equal('listNotes')
    await app.close()
  })

  it('defineContract() refuses a route with a bad method or url (ENC_ERR_CONTRACT_INVALID naming it)', () => {
    expect(() => defineContract({ bad: { method: 'get' as 'GET', url: '/x' } })).to.throw(/route bad has method "get"/)
    expect(() => defineContract({ worse: { method: 'GET', url: 'x' } })).to.throw(/route worse has url "x"/)
    expect(() => defineContract({ frozen: Object.freeze({ method: 'GET', url: '/x' }) })).to.throw(/route frozen is frozen/)
  })
})

describe('contracts on the server: @Implements(api.route) on controller methods', () => {
  @Route()
  class NotesController {
    @Implements(api.getNote)
    get(@Params('id') id: string) { return { id, title: `note ${id}` } }

    @Implements(api.createNote)
    create(@Body() body: { title: string }) { return { id: '7', title: body.title } }
  }

  it('serves the contract with the contract\'s schema; the typed client calls it through inject', async () => {
    @Module({ controllers: [NotesController] })
    class AppModule {}
    const app = await createApp(AppModule)
    const client = createClient(api, { app })
    expect(await client.getNote({ params: { id: '3' } })).to.deep.include({ status: 200, body: { id: '3', title: 'note 3' } })
    expect((await client.getNote({ params: { id: 'x' } })).status).to.equal(400)
    // No @HttpCode(201) on create(): it answers 200, which the 201-only contract does not declare; the client reads it as an undeclared status.
    const created = await client.createNote({ body: { title: 'n' } })
    expect(created.status).to.equal(200)
    await app.close()
  })

  it('app.openapi() names each @Implements() operation by its contract route\'s name', async () => {
    @Module({ controllers: [NotesController] })
    class AppModule {}
    const app = await createApp(AppModule)
    const doc = app.openapi() as { paths: Record<string, Record<string, { operationId: string }>> }
    expect([doc.paths['/notes/{id}'].get.operationId, doc.paths['/notes'].post.operationId]).to.deep.equal(['getNote', 'createNote'])
    await app.close()
  })

  it('a contract route no controller implements fails createApp() with ENC_ERR_CONTRACT_UNIMPLEMENTED naming it', async () => {
    @Route()
    class Half {
      @Implements(api.getNote)
      get(@Params('id') id: string) { return { id, title: '' } }
    }
    @Module({ controllers: [Half] })
    class HalfModule {}
    const error = await createApp(HalfModule).then(() => null, (e: unknown) => e)
    expect(codeOf(error)).to.equal('ENC_ERR_CONTRACT_UNIMPLEMENTED')
    expect((error as Error).message).to.include('createNote').and.include('Half.get')
  })

  it('a contract route implemented by two methods fails createApp() with ENC_ERR_CONTRACT_DUPLICATE naming both', async () => {
    @Route('/v2')
    class Again {
      @Implements(api.getNote)
      other(@Params('id') id: string) { return { id, title: '' } }
    }
    @Module({ controllers: [NotesController, Again] })
    class TwiceModule {}
    const error = await createApp(TwiceModule).then(() => null, (e: unknown) => e)
    expect(codeOf(error)).to.equal('ENC_ERR_CONTRACT_DUPLICATE')
    expect((error as Error).message).to.include('getNote').and.include('NotesController.get').and.include('Again.other')
  })

  it('one method may implement two contract routes (two @Implements): both served, neither reported missing', async () => {
    const legacy = defineContract({
      getNote: { method: 'GET', url: '/notes/:id', schema: api.getNote.schema },
      getLegacyNote: { method: 'GET', url: '/legacy/notes/:id', schema: api.getNote.schema },
    })
    @Route()
    class Both {
      @Implements(legacy.getNote)
      @Implements(legacy.getLegacyNote)
      get(@Params('id') id: string) { return { id, title: 'both' } }
    }
    @Module({ controllers: [Both] })
    class BothModule {}
    const app = await createApp(BothModule)
    expect((await app.inject('/notes/4')).json()).to.deep.equal({ id: '4', title: 'both' })
    expect((await app.inject('/legacy/notes/5')).json()).to.deep.equal({ id: '5', title: 'both' })
    await app.close()
  })

  it('@Implements() of an object defineContract() did not declare fails when the class loads (ENC_ERR_CONTRACT_UNKNOWN_ROUTE)', () => {
    expect(() => {
      class Stray {
        @Implements({ method: 'GET', url: '/x' })
        x() { return null }
      }
      return Stray
    }).to.throw(/Stray\.x.*GET \/x \(an object not declared with defineContract\(\)\)/)
  })
})

describe('contracts on the server: @Implements(api) on a controller class (the whole contract, a method per route by name)', () => {
  it('serves every route of the contract by the method of its name, with the contract\'s method, url and schema; other methods stay the class\'s own', async () => {
    @Route('/v1') @Implements(api)
    class NotesController {
      getNote(@Params('id') id: string) { return { id, title: this.prefix(id) } }
      createNote(@Body() body: { title: string }) { return { id: '7', title: body.title } }
      prefix(id: string) { return `note ${id}` }
    }
    @Module({ controllers: [NotesController] })
    class AppModule {}
    const app = await createApp(AppModule)
    const client = createClient(api, { app, baseUrl: '/v1' })
    expect(await client.getNote({ params: { id: '3' } })).to.deep.include({ status: 200, body: { id: '3', title: 'note 3' } })
    expect((await client.getNote({ params: { id: 'x' } })).status, 'the contract\'s params schema validates').to.equal(400)
    expect((await client.createNote({ body: { title: 'n' } })).body).to.deep.equal({ id: '7', title: 'n' })
    expect((await app.inject({ method: 'POST', url: '/v1/notes', payload: {} })).statusCode, 'its body schema too').to.equal(400)
    expect((await app.inject('/v1/prefix')).statusCode, 'a helper is no route').to.equal(404)
    const doc = app.openapi() as { paths: Record<string, Record<string, { operationId: string }>> }
    expect([doc.paths['/v1/notes/{id}'].get.operationId, doc.paths['/v1/notes'].post.operationId]).to.deep.equal(['getNote', 'createNote'])
    await app.close()
  })

  it('an inherited method implements its route too (one without parameter decorators: those are recorded on the base class, which declares no route)', async () => {
    class Base { getNote(request: Request) { return { id: (request.params as { id: string }).id, title: 'from the base' } } }
    @Route() @Implements(api)
    class Child extends Base { createNote() { return { id: '1', title: '' } } }
    @Module({ controllers: [Child] })
    class AppModule {}
    const app = await createApp(AppModule)
    expect((await app.inject('/notes/2')).json()).to.deep.equal({ id: '2', title: 'from the base' })
    await app.close()
  })

  it('a route without a method of its name fails when the class loads with ENC_ERR_CONTRACT_UNIMPLEMENTED naming the route and the class (JavaScript, or a cast)', () => {
    let error: unknown
    try {
      const decorate = Implements(api) as unknown as (target: Function) => void
      class Half { getNote() { return null } }
      decorate(Half)
    } catch (e) { error = e }
    expect(codeOf(error)).to.equal('ENC_ERR_CONTRACT_UNIMPLEMENTED')
    expect((error as Error).message).to.include('@Implements(contract) on class Half').and.include('createNote (no method createNote() on the class)')
    expect((error as Error).message).not.to.include('getNote')
  })

  it('a class implementing the contract beside a method implementing one of its routes fails createApp() with ENC_ERR_CONTRACT_DUPLICATE', async () => {
    @Route() @Implements(api)
    class Whole {
      getNote(@Params('id') id: string) { return { id, title: '' } }
      createNote() { return { id: '1', title: '' } }
    }
    @Route('/v2')
    class One {
      @Implements(api.getNote)
      other(@Params('id') id: string) { return { id, title: '' } }
    }
    @Module({ controllers: [Whole, One] })
    class TwiceModule {}
    const error = await createApp(TwiceModule).then(() => null, (e: unknown) => e)
    expect(codeOf(error)).to.equal('ENC_ERR_CONTRACT_DUPLICATE')
    expect((error as Error).message).to.include('Whole.getNote').and.include('One.other')
  })
})
