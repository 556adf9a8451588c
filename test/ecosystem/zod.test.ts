import 'reflect-metadata'
import { expect } from 'chai'
import { Writable } from 'node:stream'
import { z } from 'zod'
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import swagger from '@fastify/swagger'
import fastify5 from 'fastify5'
import { Body, Module, Params, Post, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { Scope } from '../../src/runtime'
import { bootError, declaredOnBoth, server, track } from '../support/servers'

// fastify-type-provider-zod 7 (the provider's README: setValidatorCompiler(validatorCompiler),
// setSerializerCompiler(serializerCompiler), zod schemas in `schema`, @fastify/swagger's
// `transform: jsonSchemaTransform`) in Enclave, compared with Fastify 5 running the same provider.
// The handler types it gives are in test/types/fixtures/zod.ts.
const NewBook = z.object({ title: z.string().min(1), year: z.number().int().optional(), tags: z.array(z.string()).default([]) })
const Book = z.object({ id: z.number(), title: z.string() })
const ById = z.object({ id: z.coerce.number().int() })
const Dry = z.object({ dry: z.enum(['yes', 'no']).optional() })
const Tenant = z.object({ 'x-tenant': z.string().min(2) })

interface Declarer { setValidatorCompiler(fn: unknown): unknown; setSerializerCompiler(fn: unknown): unknown; post: Function; get: Function }
function declareBooks(app: Declarer): void {
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.post('/books/:id', { schema: { body: NewBook, params: ById, querystring: Dry, headers: Tenant, response: { 201: Book } } },
    async (request: { body: z.output<typeof NewBook>; params: { id: number } }, reply: { code(n: number): unknown }) => {
      reply.code(201)
      return { id: request.params.id, title: `${request.body.title}|${request.body.tags.length}|${typeof request.params.id}`, internal: 'not for clients' }
    })
  app.get('/broken', { schema: { response: { 200: Book } } }, async () => ({ id: 'one', title: 'x' }))
}

const invalid: Array<[url: string, payload: unknown, headers: Record<string, string>]> = [
  ['/books/1', { title: 5 }, { 'x-tenant': 'ab' }],
  ['/books/1', {}, { 'x-tenant': 'ab' }],
  ['/books/x', { title: 'a' }, { 'x-tenant': 'ab' }],
  ['/books/1?dry=maybe', { title: 'a' }, { 'x-tenant': 'ab' }],
  ['/books/1', { title: 'a' }, {}],
  ['/books/1', { title: '', year: 1.5 }, { 'x-tenant': 'ab' }],
]

function capture(): { stream: Writable; lines: () => Array<Record<string, any>> } {
  const chunks: string[] = []
  const stream = new Writable({ write(chunk, _encoding, done) { chunks.push(String(chunk)); done() } })
  return { stream, lines: () => chunks.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)) }
}

/** The books routes declared on Enclave and, as the reference, on Fastify 5 with the provider. */
const booksOnBoth = () => declaredOnBoth(declareBooks, fastify5())

describe('zod with fastify-type-provider-zod in Enclave', () => {
  it('validates body, params, querystring and headers with the provider\'s compilers: the same 400 messages as Fastify 5 with the provider, in Enclave\'s shape (no code, as Fastify 3)', async () => {
    const { app, reference } = booksOnBoth()
    try {
      for (const [url, payload, headers] of invalid) {
        const ours = await app.inject({ method: 'POST', url, payload: payload as object, headers })
        const theirs = await reference.inject({ method: 'POST', url, payload: payload as object, headers })
        expect([ours.statusCode, theirs.statusCode], url).to.deep.equal([400, 400])
        const { code, ...rest } = theirs.json()
        expect(code).to.equal('FST_ERR_VALIDATION')
        expect(ours.json(), `${url} ${JSON.stringify(payload)}`).to.deep.equal(rest)
      }
      const first = await app.inject({ method: 'POST', url: '/books/1', payload: { title: 5 }, headers: { 'x-tenant': 'ab' } })
      expect(first.json()).to.deep.equal({ statusCode: 400, error: 'Bad Request', message: 'body/title Invalid input: expected string, received number' })
    } finally { await reference.close() }
  })

  it('hands the handler zod\'s output (coerced params, defaults filled) and serializes the answer through the zod schema: unknown fields stripped, as Fastify 5', async () => {
    const { app, reference } = booksOnBoth()
    try {
      const request = { method: 'POST' as const, url: '/books/42?dry=yes', payload: { title: 'Dune' }, headers: { 'x-tenant': 'ab' } }
      const ours = await app.inject(request)
      expect(ours.statusCode).to.equal(201)
      expect(ours.json()).to.deep.equal({ id: 42, title: 'Dune|0|number' })
      expect(ours.body).to.equal((await reference.inject(request)).body)
    } finally { await reference.close() }
  })

  it('answers a response that fails its zod schema with a 500, its cause in the log only (with the failing field): Enclave hides a 5xx message, where Fastify 5 sends it', async () => {
    const { stream, lines } = capture()
    const app = server({ logger: { level: 'error', stream } })
    declareBooks(app as unknown as Declarer)
    const res = await app.inject('/broken')
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    const logged = lines().find((line) => line.err !== undefined)
    expect(logged?.err.code).to.equal('ENC_ERR_REPLY_SERIALIZATION')
    // The provider's message, and the zod issues it keeps only in its error's cause: which field failed.
    expect(logged?.err.message).to.equal("GET /broken: the 200 response could not be serialized: Response doesn't match the schema (/id Invalid input: expected number, received string)")
  })

  it('refuses at boot, naming the route and the fix, a zod schema that only the JSON Schema compilers would read (ENC_ERR_SCH_FOREIGN_SCHEMA), a request part and a response alike', async () => {
    const body = server()
    body.post('/books', { schema: { body: NewBook } }, async () => 'x')
    const error = await bootError(body)
    expect(error.code).to.equal('ENC_ERR_SCH_FOREIGN_SCHEMA')
    expect(error.message).to.include('The body schema of route POST /books in scope root is a zod schema')
    expect(error.message).to.include('setValidatorCompiler(validatorCompiler)')
    const response = server()
    response.setValidatorCompiler(validatorCompiler)
    response.get('/books', { schema: { response: { 200: Book } } }, async () => ({ id: 1, title: 'x' }))
    const refused = await bootError(response)
    expect(refused.code).to.equal('ENC_ERR_SCH_FOREIGN_SCHEMA')
    expect(refused.message).to.include('The response 200 schema of route GET /books in scope root is a zod schema')
    // Nested in a JSON Schema: named where it sits.
    const nested = server()
    nested.post('/nested', { schema: { body: { type: 'object', properties: { book: NewBook as never } } } }, async () => 'x')
    expect((await bootError(nested)).message).to.include("is a zod schema at '/properties/book'")
  })

  it('the conversion ENC_ERR_SCH_FOREIGN_SCHEMA advises (z.toJSONSchema with draft-7) boots under the JSON Schema compilers and validates', async () => {
    const refused = server()
    refused.post('/books', { schema: { body: NewBook } }, async () => 'x')
    const message = (await bootError(refused)).message
    expect(message).to.include("z.toJSONSchema(schema, { target: 'draft-7' })")
    // zod 4's default target declares draft 2020-12, which ajv 6 cannot resolve: the advice names the target for that reason.
    const app = server()
    app.post('/books', { schema: { body: z.toJSONSchema(NewBook, { target: 'draft-7' }) as never } }, async () => 'ok')
    await app.ready()
    expect((await app.inject({ method: 'POST', url: '/books', payload: {} })).statusCode).to.equal(400)
    await app.close()
  })

  it('takes the compilers from an enclosing scope, and as route options', async () => {
    const app = server()
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
    await app.register(async (child: Scope) => {
      child.post('/child', { schema: { body: Book, response: { 200: Book } } }, async (request) => ({ ...request.body, extra: 1 }))
    })
    const other = server()
    other.post('/route', { schema: { body: Book }, validatorCompiler }, async (request) => request.body.title)
    expect((await app.inject({ method: 'POST', url: '/child', payload: { id: 1, title: 't' } })).body).to.equal('{"id":1,"title":"t"}')
    expect((await other.inject({ method: 'POST', url: '/route', payload: { id: 1 } })).json<{ message: string }>().message).to.equal('body/title Invalid input: expected string, received undefined')
  })

  it('works in the decorator layer: the module options take the compilers, a route option a zod schema, @Body() its output', async () => {
    @Route('/books')
    class BooksController {
      @Post('/:id', { schema: { body: NewBook, params: ById, response: { 200: Book } } })
      create(@Body() book: z.output<typeof NewBook>, @Params('id') id: number) { return { id, title: `${book.title}|${book.tags.length}`, extra: true } }
    }
    @Module({ controllers: [BooksController], validatorCompiler, serializerCompiler })
    class BooksModule {}
    const app = track(await createApp(BooksModule))
    const ok = await app.inject({ method: 'POST', url: '/books/3', payload: { title: 'Emma' } })
    expect([ok.statusCode, ok.body]).to.deep.equal([200, '{"id":3,"title":"Emma|0"}'])
    const bad = await app.inject({ method: 'POST', url: '/books/3', payload: { title: '' } })
    expect(bad.json()).to.deep.equal({ statusCode: 400, error: 'Bad Request', message: 'body/title Too small: expected string to have >=1 characters' })
  })

  it('documents zod parts in app.openapi() through their Standard JSON Schema: the input form for the request (a default is optional), the output form for a response; one with no JSON Schema form is undescribed, never zod\'s internals', async () => {
    const app = server()
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
    const Page = z.object({ limit: z.coerce.number().default(20) })
    app.post('/books/:id', { schema: { body: NewBook, params: ById, querystring: Page, response: { 201: Book, 202: z.string().transform((text) => text.length) } } }, async () => ({ id: 1, title: 't' }))
    await app.ready()
    const operation = app.openapi().paths['/books/{id}'].post as any
    expect(operation.parameters).to.deep.equal([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } },
      { name: 'limit', in: 'query', required: false, schema: { default: 20, type: 'number' } },
    ])
    expect(operation.requestBody.content['application/json'].schema).to.deep.equal({
      type: 'object', required: ['title'],
      properties: { title: { type: 'string', minLength: 1 }, year: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, tags: { type: 'array', items: { type: 'string' }, default: [] } },
    })
    expect(operation.responses['201'].content['application/json'].schema).to.deep.equal({
      type: 'object', properties: { id: { type: 'number' }, title: { type: 'string' } }, required: ['id', 'title'], additionalProperties: false,
    })
    expect(operation.responses['202'].content['application/json'].schema).to.deep.equal({ description: 'A zod schema with no JSON Schema form.' })
  })

  it('documents the zod schemas through @fastify/swagger\'s transform: jsonSchemaTransform, as Fastify 5 does', async () => {
    const build = async (app: any): Promise<any> => {
      await app.register(swagger, { openapi: { info: { title: 'Books', version: '1.0.0' } }, transform: jsonSchemaTransform })
      declareBooks(app)
      await app.ready()
      return app.swagger()
    }
    const reference = fastify5()
    try {
      const ours = await build(server())
      const theirs = await build(reference)
      expect(ours.paths['/books/{id}']).to.deep.equal(theirs.paths['/books/{id}'])
      const post = ours.paths['/books/{id}'].post
      expect(post.requestBody.content['application/json'].schema.required).to.deep.equal(['title'])
      expect(post.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`)).to.have.members(['query:dry', 'path:id', 'header:x-tenant'])
      expect(post.responses['201'].content['application/json'].schema.properties).to.have.keys('id', 'title')
    } finally { await reference.close() }
  })
})
