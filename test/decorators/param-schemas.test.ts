import 'reflect-metadata'
import { expect } from 'chai'
import { Body, Delete, Get, Head, Headers, Module, Params, Patch, Post, Put, Query, Route } from '../../src/decorators'
import type { SchemaParam } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { bootError } from '../modules/helpers'
import { declarationError } from './helpers'

const messageOf = (res: { json(): unknown }) => (res.json() as { message: string }).message

describe('per-parameter schemas: @Query/@Params/@Headers(name, schema) (NestJS ParseIntPipe/DefaultValuePipe)', () => {
  @Route('/books')
  class BooksController {
    @Get('/:id')
    find(
      @Params('id', { type: 'integer' }) id: SchemaParam<number>,
      @Query('page', { type: 'integer', default: 1 }) page: SchemaParam<number>,
      @Query('q', { type: 'string' }, { optional: true }) q: SchemaParam<string | undefined>,
      @Headers('X-Tenant', { type: 'string', minLength: 1 }) tenant: SchemaParam<string>,
    ) { return { id, page, q: q ?? null, tenant } }
  }
  @Module({ controllers: [BooksController] }) class AppModule {}

  it('coerces and fills defaults as a route schema does: the URL string is an integer, a missing query with a default gets it', async () => {
    const app = await createApp(AppModule)
    try {
      const res = await app.inject({ url: '/books/7', headers: { 'x-tenant': 'acme' } })
      expect(res.json()).to.deep.equal({ id: 7, page: 1, q: null, tenant: 'acme' })
      expect((await app.inject({ url: '/books/7?page=3&q=dune', headers: { 'x-tenant': 'acme' } })).json()).to.deep.equal({ id: 7, page: 3, q: 'dune', tenant: 'acme' })
    } finally { await app.close() }
  })

  it('answers 400 with the route schema\'s messages (params/id should be integer), and requires a header without a default', async () => {
    const app = await createApp(AppModule)
    try {
      const id = await app.inject({ url: '/books/abc', headers: { 'x-tenant': 'acme' } })
      expect(id.statusCode).to.equal(400)
      expect(id.json()).to.include({ message: 'params/id should be integer' })
      expect((await app.inject({ url: '/books/1?page=x', headers: { 'x-tenant': 'acme' } })).json()).to.include({ message: 'querystring/page should be integer' })
      const tenant = await app.inject({ url: '/books/1' })
      expect(tenant.statusCode).to.equal(400)
      expect((tenant.json() as { message: string }).message).to.include("headers should have required property 'x-tenant'")
    } finally { await app.close() }
  })

  it('a query property with a schema is required unless it has a default or { optional: true } (ParseIntPipe refuses a missing value)', async () => {
    @Route('/') class C { @Get('/') list(@Query('limit', { type: 'integer' }) limit: SchemaParam<number>) { return { limit } } }
    @Module({ controllers: [C] }) class M {}
    const app = await createApp(M)
    try {
      const missing = await app.inject({ url: '/' })
      expect(missing.statusCode).to.equal(400)
      expect((missing.json() as { message: string }).message).to.equal("querystring should have required property 'limit'")
      expect((await app.inject({ url: '/?limit=5' })).json()).to.deep.equal({ limit: 5 })
    } finally { await app.close() }
  })

  it('lists the parameters in openapi(), as route schema properties', async () => {
    const app = await createApp(AppModule)
    try {
      const operation = (app.openapi({ title: 't', version: '1' }) as { paths: Record<string, Record<string, { parameters: Array<{ in: string; name: string; required?: boolean; schema: unknown }> }>> }).paths['/books/{id}'].get
      const byName = Object.fromEntries(operation.parameters.map((p) => [`${p.in}:${p.name}`, { required: p.required ?? false, schema: p.schema }]))
      expect(byName['path:id']).to.deep.equal({ required: true, schema: { type: 'integer' } })
      expect(byName['query:page']).to.deep.equal({ required: false, schema: { type: 'integer', default: 1 } })
      expect(byName['query:q']).to.deep.equal({ required: false, schema: { type: 'string' } })
      expect(byName['header:x-tenant']).to.deep.equal({ required: true, schema: { type: 'string', minLength: 1 } })
    } finally { await app.close() }
  })

  it('with createApp({ jsonShorthand: false }), merges into the route\'s part read as a complete schema (its required list is kept, not taken for a property)', async () => {
    @Route('/') class C {
      @Get('/', { schema: { querystring: { required: ['q'] } } })
      list(@Query('page', { type: 'integer', default: 1 }) page: SchemaParam<number>, @Query('q') q: string) { return { page, q } }
    }
    @Module({ controllers: [C] }) class M {}
    const app = await createApp(M, { jsonShorthand: false })
    try {
      expect((await app.inject({ url: '/?q=a&page=2' })).json()).to.deep.equal({ page: 2, q: 'a' })
      const missing = await app.inject({ url: '/?page=2' })
      expect(missing.statusCode).to.equal(400)
      expect(messageOf(missing)).to.include("querystring should have required property 'q'")
    } finally { await app.close() }
  })

  it('merges into the route\'s own part schema when compatible (the same property declared the same way is fine)', async () => {
    const querystring = { type: 'object', properties: { sort: { type: 'string', enum: ['asc', 'desc'] }, page: { type: 'integer', default: 1 } } } as const
    @Route('/') class C {
      @Get('/', { schema: { querystring } })
      list(@Query('page', { type: 'integer', default: 1 }) page: SchemaParam<number>, @Query('size', { type: 'integer', maximum: 50, default: 10 }) size: SchemaParam<number>, @Query('sort') sort: string | undefined) { return { page, size, sort: sort ?? null } }
    }
    @Module({ controllers: [C] }) class M {}
    const app = await createApp(M)
    try {
      expect((await app.inject({ url: '/?sort=asc' })).json()).to.deep.equal({ page: 1, size: 10, sort: 'asc' })
      expect((await app.inject({ url: '/?sort=up' })).statusCode).to.equal(400)
      expect(((await app.inject({ url: '/?size=51' })).json() as { message: string }).message).to.equal('querystring/size should be <= 50')
      expect(querystring.properties).to.have.keys('sort', 'page')
    } finally { await app.close() }
  })

  it('merges into a shorthand part schema (properties at the top level) as into its object schema', async () => {
    const querystring = { limit: { type: 'integer', maximum: 50, default: 20 }, type: { type: 'string' } } as const
    @Route('/') class C {
      @Get('/', { schema: { querystring } })
      list(@Query('page', { type: 'integer', default: 1 }) page: SchemaParam<number>, @Query('limit') limit: number, @Query('type') type: string | undefined) { return { page, limit, type: type ?? null } }
    }
    @Module({ controllers: [C] }) class M {}
    const app = await createApp(M)
    try {
      expect((await app.inject({ url: '/?type=a' })).json()).to.deep.equal({ page: 1, limit: 20, type: 'a' })
      expect(((await app.inject({ url: '/?limit=51' })).json() as { message: string }).message).to.equal('querystring/limit should be <= 50')
    } finally { await app.close() }
  })

  it('merges into a route schema that names the query part by its alias query', async () => {
    @Route('/') class C {
      @Get('/', { schema: { query: { type: 'object', properties: { limit: { type: 'integer', maximum: 5 } } } } })
      list(@Query('page', { type: 'integer', default: 1 }) page: SchemaParam<number>, @Query('limit') limit: number | undefined) { return { page, limit: limit ?? null } }
    }
    @Module({ controllers: [C] }) class M {}
    const app = await createApp(M)
    try {
      expect((await app.inject({ url: '/?limit=3' })).json()).to.deep.equal({ page: 1, limit: 3 })
      expect(((await app.inject({ url: '/?limit=9' })).json() as { message: string }).message).to.equal('querystring/limit should be <= 5')
      expect(((await app.inject({ url: '/?page=x' })).json() as { message: string }).message).to.equal('querystring/page should be integer')
    } finally { await app.close() }
  })

  it('fails at boot naming both declarations when the route schema declares the property differently (ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT)', async () => {
    @Route('/') class C {
      @Get('/', { schema: { querystring: { type: 'object', properties: { page: { type: 'string' } } } } })
      list(@Query('page', { type: 'integer' }) page: SchemaParam<number>) { return page }
    }
    @Module({ controllers: [C] }) class M {}
    const error = await bootError(M)
    expect(error.code).to.equal('ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT')
    expect(error.message).to.include('GET route C.list').and.include(`schema.querystring says {"type":"string"}`).and.include(`@Query('page', {"type":"integer"})`)
  })

  it('a header the route schema spells in another case is the same property: merged when declared the same, a conflict naming both when not', async () => {
    @Route('/') class C {
      @Get('/', { schema: { headers: { type: 'object', properties: { 'X-Tenant': { type: 'string' } }, required: ['X-Tenant'] } } })
      same(@Headers('X-Tenant', { type: 'string' }) tenant: SchemaParam<string>) { return { tenant } }
    }
    @Module({ controllers: [C] }) class M {}
    const app = await createApp(M)
    try {
      expect((await app.inject({ url: '/', headers: { 'x-tenant': 'acme' } })).json()).to.deep.equal({ tenant: 'acme' })
      expect(((await app.inject({ url: '/' })).json() as { message: string }).message).to.equal("headers should have required property 'x-tenant'")
    } finally { await app.close() }
    @Route('/') class D {
      @Get('/', { schema: { headers: { type: 'object', properties: { 'X-Tenant': { type: 'string' } } } } })
      other(@Headers('x-tenant', { type: 'integer' }) tenant: SchemaParam<number>) { return { tenant } }
    }
    @Module({ controllers: [D] }) class N {}
    const error = await bootError(N)
    expect(error.code).to.equal('ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT')
    expect(error.message).to.include(`headers property 'X-Tenant' is declared twice`).and.include(`@Headers('x-tenant', {"type":"integer"})`)
  })

  it('fails at boot when two parameters declare one property differently, or the route part is not a plain object schema', async () => {
    @Route('/') class C {
      @Get('/') list(@Query('page', { type: 'integer' }) a: SchemaParam<number>, @Query('page', { type: 'number' }) b: SchemaParam<number>) { return a + b }
    }
    @Module({ controllers: [C] }) class M {}
    expect((await bootError(M)).message).to.include("querystring property 'page' is declared twice")
    @Route('/') class D {
      @Get('/', { schema: { querystring: { $ref: 'Paging#' } } }) list(@Query('page', { type: 'integer' }) a: SchemaParam<number>) { return a }
    }
    @Module({ controllers: [D] }) class N {}
    const error = await bootError(N)
    expect(error.code).to.equal('ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT')
    expect(error.message).to.include("@Query('page', ...)").and.include('not a plain object schema')
  })

  it('@Body(\'name\', schema) validates, coerces and defaults one body property as @Query does; @Body(\'name\') without one reads the property unchecked', async () => {
    @Route('/orders') class OrdersController {
      @Post('/') create(
        @Body('item', { type: 'string', minLength: 2 }) item: SchemaParam<string>,
        @Body('count', { type: 'integer', default: 1 }) count: SchemaParam<number>,
        @Body('note') note: unknown,
      ) { return { item, count, note: note ?? null } }
      @Post('/plain') plain(@Body('item') item: unknown) { return { item: item ?? null } }
    }
    @Module({ controllers: [OrdersController] }) class OrdersModule {}
    const app = await createApp(OrdersModule)
    const post = (url: string, payload?: string) => app.inject({ method: 'POST', url, payload, headers: payload === undefined ? {} : { 'content-type': 'application/json' } })
    try {
      expect((await post('/orders', '{"item":"tea","count":"2","note":"x"}')).json()).to.deep.equal({ item: 'tea', count: 2, note: 'x' })
      expect((await post('/orders', '{"item":"tea"}')).json()).to.deep.equal({ item: 'tea', count: 1, note: null })
      const short = await post('/orders', '{"item":"t"}')
      expect([short.statusCode, messageOf(short)]).to.deep.equal([400, 'body/item should NOT be shorter than 2 characters'])
      expect(messageOf(await post('/orders', '{"count":2}'))).to.equal("body should have required property 'item'")
      expect(messageOf(await post('/orders', '[1]'))).to.equal('body should be object')
      expect((await post('/orders')).statusCode).to.equal(400)
      // Without a schema: the property as sent, and no body required.
      expect((await post('/orders/plain', '{"item":3}')).json()).to.deep.equal({ item: 3 })
      expect((await post('/orders/plain')).json()).to.deep.equal({ item: null })
      const body = (app.openapi() as unknown as { paths: Record<string, { post: { requestBody: unknown } }> }).paths['/orders'].post.requestBody
      expect(body).to.deep.include({ required: true })
    } finally { await app.close() }
  })

  it('@Body(\'name\', schema) on a GET or HEAD route fails boot (its body is never parsed, so every request would be a 400), and a route body schema of another type is named in the refusal', async () => {
    @Route('/') class Search { @Get('/') find(@Body('term', { type: 'string' }, { optional: true }) term: SchemaParam<string | undefined>) { return term } }
    @Module({ controllers: [Search] }) class SearchModule {}
    const error = await bootError(SearchModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_BODY_NOT_PARSED')
    expect(error.message).to.include("GET route Search.find in SearchModule: @Body('term') (parameter 0) reads the request body, but a GET or HEAD request's body is never parsed").and.include('with a schema, every request would be refused')
    // Refused when every route of the method is bodiless (@Get @Head), not only the first.
    @Route('/') class Both { @Get('/a') @Head('/b') both(@Body('term', { type: 'string' }, { optional: true }) term: SchemaParam<string | undefined>) { return { term: term ?? null } } }
    @Module({ controllers: [Both] }) class BothModule {}
    expect((await bootError(BothModule)).message).to.include("route Both.both in BothModule: @Body('term') (parameter 0)")
    @Route('/') class List { @Post('/', { schema: { body: { type: 'array' } } }) add(@Body('term', { type: 'string' }) term: SchemaParam<string>) { return term } }
    @Module({ controllers: [List] }) class ListModule {}
    expect((await bootError(ListModule)).message).to.include('a type other than object')
  })

  for (const [decorator, method] of [[Post, 'POST'], [Put, 'PUT'], [Patch, 'PATCH'], [Delete, 'DELETE']] as const) {
    it(`a method with @Get and @${method[0]}${method.slice(1).toLowerCase()} and @Body('name', schema) boots: the ${method} route validates the body property, the GET route has no body part (the value is undefined)`, async () => {
      @Route('/notes') class Notes {
        @Get('/') @decorator('/', { schema: { body: { type: 'object', properties: { tag: { type: 'string' } } } } })
        save(@Body('title', { type: 'string', minLength: 2 }) title: SchemaParam<string>) { return { title: title ?? null } }
      }
      @Module({ controllers: [Notes] }) class NotesModule {}
      const app = await createApp(NotesModule)
      try {
        expect((await app.inject({ url: '/notes' })).json()).to.deep.equal({ title: null })
        const bad = await app.inject({ method, url: '/notes', payload: { title: 'x' } })
        expect(bad.statusCode).to.equal(400)
        expect(messageOf(bad)).to.equal('body/title should NOT be shorter than 2 characters')
        expect(messageOf(await app.inject({ method, url: '/notes', payload: { tag: 'a' } }))).to.equal("body should have required property 'title'")
        expect((await app.inject({ method, url: '/notes', payload: { title: 'ok' } })).json()).to.deep.equal({ title: 'ok' })
        const paths = (app.openapi({ title: 't', version: '1' }) as { paths: Record<string, Record<string, { requestBody?: unknown }>> }).paths
        expect(paths['/notes'].get.requestBody).to.equal(undefined)
        expect(paths['/notes'][method.toLowerCase()].requestBody).to.not.equal(undefined)
      } finally { await app.close() }
    })
  }

  it('@Body(\'name\', schema) merges into the route\'s body schema, and a conflicting declaration fails boot naming both (ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT)', async () => {
    const body = { type: 'object', properties: { item: { type: 'string' }, size: { type: 'string' } }, required: ['size'] } as const
    @Route('/') class Merged { @Post('/', { schema: { body } }) create(@Body('item', { type: 'string' }) item: SchemaParam<string>, @Body('size') size: string) { return { item, size } } }
    @Module({ controllers: [Merged] }) class MergedModule {}
    const app = await createApp(MergedModule)
    try {
      expect(messageOf(await app.inject({ method: 'POST', url: '/', payload: { size: 'L' } }))).to.equal("body should have required property 'item'")
      expect((await app.inject({ method: 'POST', url: '/', payload: { size: 'L', item: 'tea' } })).json()).to.deep.equal({ item: 'tea', size: 'L' })
    } finally { await app.close() }
    @Route('/') class Clash { @Post('/', { schema: { body } }) create(@Body('item', { type: 'integer' }) item: SchemaParam<number>) { return item } }
    @Module({ controllers: [Clash] }) class ClashModule {}
    const err = await bootError(ClashModule)
    expect(err.code).to.equal('ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT')
    expect(err.message).to.include("body property 'item' is declared twice, differently: the route's schema.body says {\"type\":\"string\"}, and @Body('item', {\"type\":\"integer\"})")
  })

  it('a method with two routes (@Get(\'/\') @Get(\'/:id\')) gives @Params(\'id\', schema) to each: validated and coerced where the path has :id, absent (undefined) on the route without it', async () => {
    @Route('/items') class ItemsController {
      @Get('/') @Get('/:id') find(@Params('id', { type: 'integer' }) id: SchemaParam<number | undefined>) { return { id: id ?? null } }
    }
    @Module({ controllers: [ItemsController] }) class ItemsModule {}
    const app = await createApp(ItemsModule)
    try {
      expect((await app.inject({ url: '/items' })).json()).to.deep.equal({ id: null })
      expect((await app.inject({ url: '/items/3' })).json()).to.deep.equal({ id: 3 })
      expect(messageOf(await app.inject({ url: '/items/x' }))).to.equal('params/id should be integer')
    } finally { await app.close() }
  })

  it('a method with two routes whose own route schema declares the parameter differently fails boot naming that route (ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT)', async () => {
    const params = { type: 'object', properties: { id: { type: 'string' } } } as const
    @Route('/items') class ItemsController {
      @Get('/') @Get('/:id', { schema: { params } }) find(@Params('id', { type: 'integer' }) id: SchemaParam<number | undefined>) { return { id: id ?? null } }
    }
    @Module({ controllers: [ItemsController] }) class ItemsModule {}
    const err = await bootError(ItemsModule)
    expect(err.code).to.equal('ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT')
    expect(err.message).to.include("GET route ItemsController.find in ItemsModule: params property 'id' is declared twice, differently: the route's schema.params says {\"type\":\"string\"}")
  })

  it('refuses at declaration a schema that is not an object, or a schema without a property name', () => {
    const bad = declarationError(() => {
      class C { list(@Query('page', 'integer' as never) page: SchemaParam<number>) { return page } }
      return C
    })
    expect(bad.code).to.equal('ENC_ERR_DECL_ROUTE_OPTIONS')
    expect(bad.message).to.include("@Query('page', schema)").and.include('JSON Schema')
    const nameless = declarationError(() => {
      class C { list(@Query(undefined as never, { type: 'integer' }) page: SchemaParam<number>) { return page } }
      return C
    })
    expect(nameless.message).to.include('property name')
  })
})
