import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { Body, Get, Headers, Module, Params, Post, Query, Reply, Route, SchemaClass } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer, type Scope } from '../../src/runtime'
import { declarationError } from '../decorators/helpers'
import { bootError } from '../modules/helpers'

class NewNote extends SchemaClass({
  $id: 'newNote', type: 'object', required: ['title'], additionalProperties: false,
  properties: { title: { type: 'string', minLength: 1 }, tags: { type: 'array', items: { type: 'string' }, default: [] } },
}) {}
class Note extends SchemaClass({
  $id: 'note', type: 'object', required: ['id', 'title'],
  properties: { id: { type: 'integer' }, title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
}) {}
// No $id: inlined wherever it is used, never listed in schemas.
class NoteId extends SchemaClass({ type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } }) {}
class Paging extends SchemaClass({ type: 'object', properties: { limit: { type: 'integer', maximum: 50, default: 10 } } }) {}
class TenantHeaders extends SchemaClass({ type: 'object', required: ['x-tenant'], properties: { 'x-tenant': { type: 'string', pattern: '^t[0-9]+$' } } }) {}

async function boot(controllers: Function[], schemas: Function[] = [NewNote, Note]): Promise<Scope> {
  @Module({ controllers: controllers as never, schemas: schemas as never }) class Root {}
  return createApp(Root)
}


// A closed pet holding a closed owner: the runtime API's schema-class placement cases share it.
class ClosedOwner extends SchemaClass({ type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', minLength: 1 } } }) {}
class ClosedPet extends SchemaClass({ type: 'object', required: ['owner'], additionalProperties: false, properties: { owner: ClosedOwner } }) {}

/** POST /pets echoes the owner with an extra field: the nested class validates and strips it. */
async function expectPetsRoute(server: { inject: ReturnType<typeof createServer>['inject'] }): Promise<void> {
  const pet = await server.inject({ method: 'POST', url: '/pets', payload: { owner: { name: 'ada' } } })
  expect([pet.statusCode, pet.json()]).to.deep.equal([200, { owner: { name: 'ada' } }])
  const bad = await server.inject({ method: 'POST', url: '/pets', payload: { owner: { name: '' } } })
  expect([bad.statusCode, (bad.json() as { message: string }).message]).to.deep.equal([400, 'body/owner/name should NOT be shorter than 1 characters'])
}

describe('schema classes: one declaration is the schema and the type', () => {
  let app: Scope | undefined
  afterEach(async () => { await app?.close(); app = undefined })

  it('is a class whose static schema is the JSON Schema given, and whose instances copy their data', () => {
    expect(NewNote.schema.$id).to.equal('newNote')
    const note = new NewNote({ title: 'milk' })
    expect(note).to.be.instanceOf(NewNote)
    expect({ ...note }).to.deep.equal({ title: 'milk' })
  })

  it('validates the body from the @Body() parameter type, with no schema in the route options (spec §2.1)', async () => {
    @Route('/notes') class Notes {
      @Post('/') create(@Body() note: NewNote, @Reply() reply: Reply) { reply.code(201); return { title: note.title, tags: note.tags } }
    }
    app = await boot([Notes])
    await request(app.server).post('/notes').send({ title: 'milk' }).expect(201, { title: 'milk', tags: [] })
    const bad = await request(app.server).post('/notes').send({ title: '' }).expect(400)
    expect(bad.body).to.deep.equal({ statusCode: 400, error: 'Bad Request', message: 'body/title should NOT be shorter than 1 characters' })
    await request(app.server).post('/notes').send({ tags: [] }).expect(400, { statusCode: 400, error: 'Bad Request', message: "body should have required property 'title'" })
  })

  it('validates params, query and headers from @Params(), @Query() and @Headers() parameter types, coercing as ajv does (spec §2.7)', async () => {
    @Route('/things') class Things {
      @Get('/:id') find(@Params() params: NoteId, @Query() paging: Paging, @Headers() headers: TenantHeaders) {
        return { id: params.id, limit: paging.limit, tenant: headers['x-tenant'] }
      }
    }
    app = await boot([Things])
    await request(app.server).get('/things/7').set('x-tenant', 't1').expect(200, { id: 7, limit: 10, tenant: 't1' })
    await request(app.server).get('/things/0').set('x-tenant', 't1').expect(400, { statusCode: 400, error: 'Bad Request', message: 'params/id should be >= 1' })
    await request(app.server).get('/things/7?limit=99').set('x-tenant', 't1').expect(400, { statusCode: 400, error: 'Bad Request', message: 'querystring/limit should be <= 50' })
    await request(app.server).get('/things/7').set('x-tenant', 'nope').expect(400, { statusCode: 400, error: 'Bad Request', message: 'headers/x-tenant should match pattern "^t[0-9]+$"' })
  })

  it('serializes a response with a schema class given per status: properties outside the schema are left out (spec §3.2)', async () => {
    @Route('/notes') class Notes {
      @Get('/:id', { schema: { params: NoteId, response: { 200: Note } } })
      find(@Params('id') id: number) { return { id, title: 'milk', secret: 'not in the schema' } }
    }
    app = await boot([Notes])
    await request(app.server).get('/notes/3').expect(200, { id: 3, title: 'milk' })
  })

  it('is a shared schema when listed in a module: other schemas and routes refer to it by $id', async () => {
    class NoteList extends SchemaClass({ type: 'object', properties: { items: { type: 'array', items: { $ref: 'note#' } } } }, { references: [Note] }) {}
    @Route('/notes') class Notes {
      @Get('/', { schema: { response: { 200: NoteList } } })
      list() { return { items: [{ id: 1, title: 'a', hidden: true }] } }
      @Post('/check', { schema: { body: { $ref: 'newNote#' } } })
      check(@Body() note: NewNote) { return { ok: note.title } }
    }
    app = await boot([Notes])
    await request(app.server).get('/notes').expect(200, { items: [{ id: 1, title: 'a' }] })
    await request(app.server).post('/notes/check').send({ title: 'x' }).expect(200, { ok: 'x' })
  })

  it('accepts a schema class nested in a route schema (items: Note, properties: { owner: NoteId }): a $ref to its $id, else its schema inlined, as NestJS nests DTO classes', async () => {
    @Route('/notes') class Notes {
      @Get('/', { schema: { response: { 200: { type: 'array', items: Note } as const } } })
      list() { return [{ id: 1, title: 'a', hidden: true }] }
      @Post('/', { schema: { body: { type: 'object', required: ['owner'], properties: { owner: NoteId } } as const } })
      create(@Body() body: { owner: { id: number } }) { return { owner: body.owner.id } }
    }
    app = await boot([Notes])
    await request(app.server).get('/notes').expect(200, [{ id: 1, title: 'a' }])
    await request(app.server).post('/notes').send({ owner: { id: 4 } }).expect(200, { owner: 4 })
    await request(app.server).post('/notes').send({ owner: { id: 0 } }).expect(400, { statusCode: 400, error: 'Bad Request', message: 'body/owner/id should be >= 1' })
  })

  it('accepts a schema class nested in another schema class and in a shared schema, placed the same way', async () => {
    // The types refuse a class inside SchemaClass() (write NoteId.schema there); JavaScript callers get it placed.
    class Board extends SchemaClass({ $id: 'board', type: 'object', required: ['pinned'], properties: { pinned: NoteId, notes: { type: 'array', items: Note } } } as unknown as { type: 'object' }) {}
    @Route('/boards') class Boards {
      @Get('/', { schema: { response: { 200: { $ref: 'board#' } } } })
      one() { return { pinned: { id: 2, extra: 1 }, notes: [{ id: 1, title: 'a', hidden: true }] } }
      @Post('/') create(@Body() board: Board) { return board }
    }
    app = await boot([Boards], [Note, Board])
    await request(app.server).get('/boards').expect(200, { pinned: { id: 2 }, notes: [{ id: 1, title: 'a' }] })
    await request(app.server).post('/boards').send({ pinned: { id: 0 } }).expect(400, { statusCode: 400, error: 'Bad Request', message: 'body/pinned/id should be >= 1' })
  })

  it('the runtime API places a schema class nested in a route schema, and in a class\'s .schema (owner: Owner), as the decorator layer does (they type so; boot refused them: "should be object,boolean")', async () => {
    const server = createServer()
    server.post('/pets', { schema: { body: ClosedPet.schema, response: { 200: ClosedPet.schema } } }, async (request) => ({ owner: { ...request.body.owner, secret: 1 } }))
    server.post('/lists', { schema: { body: { type: 'object', properties: { pets: { type: 'array', items: ClosedPet } } } as const } }, async (request) => request.body.pets?.length ?? 0)
    try {
      await server.ready()
      await expectPetsRoute(server)
      const list = await server.inject({ method: 'POST', url: '/lists', payload: { pets: [{ owner: {} }] } })
      expect([list.statusCode, (list.json() as { message: string }).message]).to.deep.equal([400, "body/pets/0/owner should have required property 'name'"])
    } finally { await server.close() }
  })

  it('the runtime API\'s addSchema(Pet.schema) places the schema class nested in it (owner: Owner) too', async () => {
    class Owner extends SchemaClass({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) {}
    class Pet extends SchemaClass({ $id: 'runtimePet', type: 'object', required: ['owner'], properties: { owner: Owner } }) {}
    const server = createServer()
    server.addSchema(Pet.schema)
    server.register(async (child) => {
      child.addSchema(Pet.schema)   // the very same schema again in a descendant: already visible, not a duplicate
      child.post('/pets', { schema: { body: { $ref: 'runtimePet#' } } }, async (request) => request.body)
    })
    try {
      await server.ready()
      const bad = await server.inject({ method: 'POST', url: '/pets', payload: { owner: {} } })
      expect([bad.statusCode, (bad.json() as { message: string }).message]).to.deep.equal([400, "body/owner should have required property 'name'"])
    } finally { await server.close() }
  })

  it('the runtime API takes a schema class as a part and as a response (body: Pet, response: { 200: Pet }), placed as a nested one: inlined, or a $ref to its $id', async () => {
    class Tag extends SchemaClass({ $id: 'runtimeTag', type: 'object', required: ['label'], properties: { label: { type: 'string' } } }) {}
    const server = createServer()
    server.addSchema(Tag.schema)
    server.post('/pets', { schema: { body: ClosedPet, response: { 200: ClosedPet } } }, async (request) => ({ owner: { ...request.body.owner, secret: 1 } }))
    server.post('/tags', { schema: { body: Tag, response: { 200: Tag } } }, async (request) => ({ label: request.body.label, extra: 1 }))
    try {
      await server.ready()
      await expectPetsRoute(server)
      const tag = await server.inject({ method: 'POST', url: '/tags', payload: { label: 'x' } })
      expect([tag.statusCode, tag.json()]).to.deep.equal([200, { label: 'x' }])
      const badTag = await server.inject({ method: 'POST', url: '/tags', payload: {} })
      expect([badTag.statusCode, (badTag.json() as { message: string }).message]).to.deep.equal([400, "body should have required property 'label'"])
    } finally { await server.close() }
  })

  it('the runtime API still refuses a function that is no schema class as a part (ENC_ERR_SCH_NOT_OBJECT)', async () => {
    const server = createServer()
    server.post('/x', { schema: { body: (() => ({})) as never } }, async () => 'x')
    try {
      const failure = await server.ready().then(() => null, (error: Error & { code?: string }) => error)
      expect(failure?.code).to.equal('ENC_ERR_SCH_NOT_OBJECT')
    } finally { await server.close() }
  })

  it('fails at boot, naming the schema, when a class with $id is used but no module lists it', async () => {
    @Route('/notes') class Notes { @Post('/') create(@Body() note: NewNote) { return note } }
    @Module({ controllers: [Notes] }) class Root {}
    const failure = await bootError(Root)
    // In module terms (the user wrote no $ref and no addSchema()): list the class in @Module({ schemas }).
    expect(failure.code).to.equal('ENC_ERR_MODULE_SCHEMA_NOT_LISTED')
    expect(failure.message).to.include('newNote').and.include('List NewNote in @Module({ schemas }) of Root or an ancestor')
  })

  it('fails at boot, naming the schema, when a class with $id nested in a route schema is not listed by any module', async () => {
    @Route('/notes') class Notes { @Get('/', { schema: { response: { 200: { type: 'array', items: Note } as const } } }) list() { return [] } }
    @Module({ controllers: [Notes] }) class Root {}
    const failure = await bootError(Root)
    expect(failure.code).to.equal('ENC_ERR_MODULE_SCHEMA_NOT_LISTED')
    expect(failure.message).to.include('List Note in @Module({ schemas }) of Root or an ancestor')
  })

  it('refuses, at declaration, an explicit route schema that disagrees with the parameter class (ENC_ERR_DECL_SCHEMA_CONFLICT)', () => {
    const error = declarationError(() => {
      class C { @Post('/', { schema: { body: Note } }) create(@Body() _note: NewNote) { return {} } }
      return C
    })
    expect(error.code).to.equal('ENC_ERR_DECL_SCHEMA_CONFLICT')
    expect(error.message).to.include('C.create').and.include('NewNote').and.include('schema.body')
    const alias = declarationError(() => {
      class D { @Get('/', { schema: { query: { type: 'object' } } }) list(@Query() _q: Paging) { return {} } }
      return D
    })
    expect(alias.code).to.equal('ENC_ERR_DECL_SCHEMA_CONFLICT')
    expect(alias.message).to.include('schema.query')
  })

  it('refuses, at declaration, a named query/params/headers parameter typed number or boolean when that part has no schema and only a class of another part types it (ENC_ERR_DECL_PARAM_TYPE)', () => {
    const query = declarationError(() => {
      class C { @Post('/b/:id') b(@Body() _book: Note, @Query('n') _n: number) { return {} } }
      return C
    })
    expect(query.code).to.equal('ENC_ERR_DECL_PARAM_TYPE')
    expect(query.message).to.include('C.b').and.include("parameter 1 is @Query('n') typed number").and.include('the querystring has no schema')
    const params = declarationError(() => {
      class D { @Post('/b/:id') b(@Body() _book: Note, @Params('id') _id: number) { return {} } }
      return D
    })
    expect(params.code).to.equal('ENC_ERR_DECL_PARAM_TYPE')
    expect(() => {
      class SamePart {
        @Get('/:id') a(@Params() _p: NoteId, @Params('id') _id: number) { return {} }
        @Post('/q', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }) q(@Body() _b: Note, @Query('n') _n: number) { return {} }
        @Post('/s/:id') s(@Body() _b: NewNote, @Params('id') _id: string) { return {} }
      }
      return SamePart
    }).not.to.throw()
  })

  it('refuses, at declaration, a @Headers() schema class that names a header with capital letters: the typed key would always be undefined (ENC_ERR_DECL_HEADER_NAME)', () => {
    class VersionHeaders extends SchemaClass({ type: 'object', required: ['X-Api-Version'], properties: { 'X-Api-Version': { type: 'integer' } } }) {}
    const error = declarationError(() => {
      class C { @Get('/') h(@Headers() _h: VersionHeaders) { return {} } }
      return C
    })
    expect(error.code).to.equal('ENC_ERR_DECL_HEADER_NAME')
    expect(error.message).to.include('C.h').and.include('parameter 0 is @Headers() typed VersionHeaders')
      .and.include("'X-Api-Version'").and.include("Write 'x-api-version' in VersionHeaders's schema")
    class OnlyRequired extends SchemaClass({ type: 'object', required: ['X-Tenant'] }) {}
    expect(declarationError(() => {
      class D { @Get('/') h(@Headers() _h: OnlyRequired) { return {} } }
      return D
    }).code).to.equal('ENC_ERR_DECL_HEADER_NAME')
  })

  it('refuses, at declaration, a whole-part parameter typed by a schema class that declares methods or accessors: the handler gets the validated plain object, not an instance (ENC_ERR_DECL_PARAM_CLASS_MEMBERS, newcomer16)', async () => {
    class OrderLine extends SchemaClass({ type: 'object', required: ['quantity', 'price'], properties: { quantity: { type: 'integer' }, price: { type: 'number' } } } as const) {
      total(): number { return this.quantity * this.price }     // a NestJS DTO habit (ValidationPipe({ transform: true }) makes instances)
      get expensive(): boolean { return this.total() > 100 }
    }
    const error = declarationError(() => {
      class C { @Post('/lines') add(@Body() line: OrderLine) { return { total: line.total() } } }
      return C
    })
    expect(error.code).to.equal('ENC_ERR_DECL_PARAM_CLASS_MEMBERS')
    expect(error.message).to.include('C.add').and.include('parameter 0 is @Body() typed OrderLine, which declares total(), get expensive')
      .and.include('The handler receives the validated plain object').and.include('(total(orderLine: OrderLine))').and.include('new OrderLine(data)')
    // Inherited members count (a subclass of a DTO with methods); a query class is checked the same way.
    class Paged extends SchemaClass({ type: 'object', properties: { page: { type: 'integer', default: 1 } } } as const) { offset(): number { return (this.page - 1) * 10 } }
    class NamedPaged extends Paged {}
    expect(declarationError(() => {
      class D { @Get('/p') p(@Query() q: NamedPaged) { return { o: q.page } } }
      return D
    }).message).to.include('@Query() typed NamedPaged, which declares offset()').and.include('(offset(namedPaged: NamedPaged))')
    // A schema class without members, a subclass that only renames one, and the class used in a response or built by hand stay fine.
    class Plain extends SchemaClass({ type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } as const) {}
    class Renamed extends Plain {}
    @Route('/m') class M {
      @Post('/', { schema: { response: { 200: OrderLine } } }) add(@Body() p: Renamed) { return new OrderLine({ quantity: p.n, price: 2 }) }
    }
    app = await boot([M], [])
    await request(app.server).post('/m').send({ n: 3 }).expect(200, { quantity: 3, price: 2 })
    expect(new OrderLine({ quantity: 2, price: 60 }).expensive).to.equal(true)
  })

  it('refuses, at declaration, a whole-part parameter typed by a schema class with instance fields that would not survive as a plain object: arrow-function fields, and initializers the schema neither requires nor defaults (ENC_ERR_DECL_PARAM_CLASS_MEMBERS, typed17)', async () => {
    const lineSchema = { type: 'object', required: ['quantity', 'price'], properties: { quantity: { type: 'integer' }, price: { type: 'number' }, note: { type: 'string' }, currency: { type: 'string', default: 'EUR' } } } as const
    class ArrowLine extends SchemaClass(lineSchema) { total = (): number => this.quantity * this.price }
    const arrow = declarationError(() => {
      class C { @Post('/lines') add(@Body() line: ArrowLine) { return { total: line.total() } } }
      return C
    })
    expect(arrow.code).to.equal('ENC_ERR_DECL_PARAM_CLASS_MEMBERS')
    expect(arrow.message).to.include('C.add').and.include('parameter 0 is @Body() typed ArrowLine, which declares total = () => …')
      .and.include('(total(arrowLine: ArrowLine))').and.not.include('initializer runs only in a constructor')
    // A data field the schema does not declare, or declares optional without a default: the plain object lacks it.
    class CountedLine extends SchemaClass(lineSchema) { discount = 0; note = 'none' }
    const counted = declarationError(() => {
      class D { @Post('/lines') add(@Body() line: CountedLine) { return { d: line.discount } } }
      return D
    })
    expect(counted.code).to.equal('ENC_ERR_DECL_PARAM_CLASS_MEMBERS')
    expect(counted.message).to.include('typed CountedLine, which declares discount = 0, note = "none"')
      .and.include('give that property a `default` in the schema')
    // Inherited fields count; a query class is checked the same way.
    class Paged extends SchemaClass({ type: 'object', properties: { page: { type: 'integer' } } } as const) { size = 10 }
    class NamedPaged extends Paged {}
    expect(declarationError(() => {
      class E { @Get('/p') p(@Query() q: NamedPaged) { return { s: q.size } } }
      return E
    }).message).to.include('@Query() typed NamedPaged, which declares size = 10')
    // A BigInt initializer is named as written (JSON.stringify throws on one: a TypeError at declaration).
    class Big extends SchemaClass({ type: 'object', properties: { page: { type: 'integer' } } } as const) { big = 10n }
    expect(declarationError(() => {
      class G { @Get('/b') b(@Query() q: Big) { return { b: String(q.big) } } }
      return G
    }).message).to.include('@Query() typed Big, which declares big = 10n')
    // Fields the validated object always has (required, or with a schema default) survive; so does a
    // field without initializer, and a class whose constructor refuses to run without data is let be.
    class Survives extends SchemaClass(lineSchema) { quantity = 1; currency = 'EUR'; declare note?: string }
    class Strict extends SchemaClass(lineSchema) { constructor(data: { quantity: number; price: number }) { super(data); if (data === undefined) throw new Error('data needed') } }
    @Route('/f') class F {
      @Post('/') add(@Body() line: Survives) { return { quantity: line.quantity, currency: line.currency } }
      @Post('/strict') strict(@Body() line: Strict) { return { price: line.price } }
    }
    app = await boot([F], [])
    await request(app.server).post('/f').send({ quantity: 3, price: 2 }).expect(200, { quantity: 3, currency: 'EUR' })
    await request(app.server).post('/f/strict').send({ quantity: 3, price: 2 }).expect(200, { price: 2 })
  })

  it('hands a @Headers() schema class parameter its lowercase header names as the request sent them capitalised', async () => {
    class VersionHeaders extends SchemaClass({ type: 'object', required: ['x-api-version'], properties: { 'x-api-version': { type: 'integer' } } }) {}
    @Route('/v') class V { @Get('/') v(@Headers() h: VersionHeaders) { return { v: h['x-api-version'] } } }
    app = await boot([V], [])
    await request(app.server).get('/v').set('X-Api-Version', '2').expect(200, { v: 2 })
  })

  it('accepts an explicit schema that is the parameter class, its schema object or a $ref to its $id', () => {
    expect(() => {
      class Agree {
        @Post('/a', { schema: { body: NewNote } }) a(@Body() _n: NewNote) { return {} }
        @Post('/b', { schema: { body: NewNote.schema } }) b(@Body() _n: NewNote) { return {} }
        @Post('/c', { schema: { body: { $ref: 'newNote#' } } }) c(@Body() _n: NewNote) { return {} }
      }
      return Agree
    }).to.not.throw()
  })

  it('refuses a schema class without $id in a module\'s schemas list, with the fix (ENC_ERR_MODULE_NOT_A_SCHEMA)', async () => {
    @Module({ schemas: [NoteId] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_NOT_A_SCHEMA')
    expect(error.message).to.include('NoteId').and.include('$id')
  })

  it('refuses something other than a schema object (ENC_ERR_DECL_SCHEMA_CLASS)', () => {
    const error = declarationError(() => SchemaClass('note' as never))
    expect(error.code).to.equal('ENC_ERR_DECL_SCHEMA_CLASS')
  })
})
