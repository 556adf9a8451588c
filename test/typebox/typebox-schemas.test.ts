import 'reflect-metadata'
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Type as Type0 } from '@sinclair/typebox'
import { Type as Type1 } from 'typebox'
import { Body, Module, Post, Route, Schema, SchemaClass } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { InjectOptions, Scope, ServerOptions, SharedSchema } from '../../src'
import { server, track } from '../support/servers'

// TypeBox schemas are JSON Schema plus type-level and non-enumerable or symbol-keyed metadata
// (0.x: Symbol(TypeBox.Kind), Symbol(TypeBox.Optional); 1.x: non-enumerable '~kind', '~optional').
// At run time a TypeBox app must be the app of the same schemas as plain JSON: same answers,
// same OpenAPI document, same schema-cache keys. The plain twin is the TypeBox schema's own JSON
// text, so the comparison covers exactly the metadata and nothing else.

type TypeBuilder = typeof Type0 | typeof Type1
const builders: ReadonlyArray<readonly [string, TypeBuilder]> = [['@sinclair/typebox 0.34', Type0], ['typebox 1.x', Type1]]

interface Schemas { shared: object[]; route: Record<string, unknown> }

function typeboxSchemas(T: TypeBuilder): Schemas {
  const t = T as typeof Type0 // both lines share these builders' names and JSON output
  const author = t.Object({ name: t.String({ minLength: 2 }) }, { $id: 'author' })
  const body = t.Object({
    title: t.String({ minLength: 1 }),
    kind: t.Union([t.Literal('todo'), t.Literal('memo')]),
    tags: t.Array(t.String(), { default: [] }),
    scores: t.Optional(t.Record(t.String(), t.Number())),
    author: t.Optional(t.Ref('author')),
    done: t.Optional(t.Boolean()),
  }, { additionalProperties: false })
  return {
    shared: [author],
    route: {
      body,
      querystring: t.Object({ limit: t.Integer({ default: 20, maximum: 50 }), q: t.Optional(t.String()) }),
      params: t.Object({ id: t.Integer({ minimum: 1 }) }),
      headers: t.Object({ 'x-tenant': t.Optional(t.String({ pattern: '^t[0-9]+$' })) }),
      response: {
        200: t.Object({ id: t.Integer(), title: t.String(), kind: t.String(), tags: t.Array(t.String()), limit: t.Integer(), author: t.Optional(t.Ref('author')) }),
        400: t.Object({ message: t.String() }),
      },
    },
  }
}

const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

function app(schemas: Schemas, options: ServerOptions = {}): Scope {
  const scope = server(options)
  for (const shared of schemas.shared) scope.addSchema(shared as SharedSchema)
  scope.post('/notes/:id', { schema: schemas.route as never }, (request) => {
    const body = request.body as Record<string, unknown>
    return { ...body, id: (request.params as { id: number }).id, limit: (request.query as { limit: number }).limit, secret: 'not serialized' }
  })
  return scope
}

const post = (url: string, payload: unknown, headers: Record<string, string> = {}): InjectOptions =>
  ({ method: 'POST', url, payload: payload as never, headers: { 'content-type': 'application/json', ...headers } })
const requests: readonly InjectOptions[] = [
  post('/notes/7', { title: 'milk', kind: 'todo' }),
  post('/notes/7?limit=5', { title: 'milk', kind: 'memo', tags: ['a'], scores: { a: 1.5 }, author: { name: 'Ada' }, done: true }, { 'x-tenant': 't1' }),
  post('/notes/7', { title: 'milk', kind: 'other' }),
  post('/notes/7', { title: '', kind: 'todo' }),
  post('/notes/7', { title: 'milk', kind: 'todo', extra: 1 }),
  post('/notes/7', { title: 'milk', kind: 'todo', scores: { a: 'high' } }),
  post('/notes/7', { title: 'milk', kind: 'todo', author: { name: 'A' } }),
  post('/notes/7?limit=51', { title: 'milk', kind: 'todo' }),
  post('/notes/7?limit=ten', { title: 'milk', kind: 'todo' }),
  post('/notes/0', { title: 'milk', kind: 'todo' }),
  post('/notes/x', { title: 'milk', kind: 'todo' }),
  post('/notes/7', { title: 'milk', kind: 'todo' }, { 'x-tenant': 'nope' }),
]

async function answers(scope: Scope): Promise<unknown[]> {
  await scope.ready()
  const out: unknown[] = []
  for (const request of requests) {
    const answer = await scope.inject(request)
    out.push({ status: answer.statusCode, body: answer.body })
  }
  return out
}

describe('TypeBox schemas: a TypeBox app behaves as the app of the same schemas in plain JSON', () => {
  const directories: string[] = []
  afterEach(() => { for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true }) })

  for (const [name, T] of builders) {
    describe(name, () => {
      it('boots with Optional, Union, Literal, Array, Record, Ref/$id, defaults and Integer in every part: no unknown-keyword error for its metadata', async () => {
        const scope = app(typeboxSchemas(T))
        await scope.ready()
        expect(scope.printRoutes()).to.include(':id')
      })

      it('validates, coerces, fills defaults and serializes exactly as the equivalent JSON Schema app (ajv 6 messages included)', async () => {
        const typebox = await answers(app(typeboxSchemas(T)))
        const plain = await answers(app(asJson(typeboxSchemas(T))))
        expect(typebox).to.deep.equal(plain)
        // Spot checks that the comparison compares something: a default filled, a Literal union refused, a Ref followed.
        expect(typebox[0]).to.deep.equal({ status: 200, body: '{"id":7,"title":"milk","kind":"todo","tags":[],"limit":20}' })
        expect((typebox[2] as { status: number }).status).to.equal(400)
        expect((typebox[6] as { body: string }).body).to.include('body/author/name should NOT be shorter than 2 characters')
      })

      it('gives the same openapi() document as the equivalent JSON Schema app', async () => {
        const typebox = app(typeboxSchemas(T))
        const plain = app(asJson(typeboxSchemas(T)))
        await Promise.all([typebox.ready(), plain.ready()])
        expect(JSON.stringify(typebox.openapi())).to.equal(JSON.stringify(plain.openapi()))
        expect(JSON.stringify(typebox.openapi())).to.include('"todo"')
      })

      it('gets the same schema-cache keys as the equivalent JSON Schema app: a cache written by one is all hits for the other', async () => {
        const directory = mkdtempSync(join(tmpdir(), 'enclave-typebox-cache-'))
        directories.push(directory)
        const plain = app(asJson(typeboxSchemas(T)), { schemaCache: { directory } })
        await plain.ready()
        const cold = plain.bootProfile().schemaCache!
        expect(cold.misses).to.be.greaterThan(0)
        const typebox = app(typeboxSchemas(T), { schemaCache: { directory } })
        await typebox.ready()
        expect(typebox.bootProfile().schemaCache).to.include({ hits: cold.misses, misses: 0, notCacheable: cold.notCacheable })
        expect(await answers(typebox)).to.deep.equal(await answers(app(asJson(typeboxSchemas(T)))))
      })
    })
  }

  it('the decorator layer: a TypeBox schema in route options, in SchemaClass() as a parameter type, and in @Schema() shared by $id', async () => {
    const Author = Type0.Object({ name: Type0.String({ minLength: 2 }) }, { $id: 'author' })
    @Schema(Author) class AuthorSchema {}
    class NewNote extends SchemaClass(Type0.Object({ title: Type0.String({ minLength: 1 }), author: Type0.Ref(Author) })) {}
    const Created = Type0.Object({ title: Type0.String(), by: Type0.String() })
    @Route('/notes') class Notes {
      @Post('/', { schema: { response: { 200: Created } } })
      create(@Body() note: NewNote) { return { title: note.title, by: note.author.name, secret: 1 } }

      @Post('/raw', { schema: { body: Type0.Object({ n: Type0.Integer() }) } })
      raw(@Body('n') n: number) { return { n: n + 1 } }
    }
    @Module({ controllers: [Notes], schemas: [AuthorSchema] }) class Root {}
    const scope = track(await createApp(Root))
    const created = await scope.inject(post('/notes', { title: 'milk', author: { name: 'Ada' } }))
    expect(created.body).to.equal('{"title":"milk","by":"Ada"}')
    const refused = await scope.inject(post('/notes', { title: 'milk', author: { name: 'A' } }))
    expect(refused.statusCode).to.equal(400)
    expect(JSON.parse(refused.body).message).to.equal('body/author/name should NOT be shorter than 2 characters')
    expect((await scope.inject(post('/notes/raw', { n: '41' }))).body).to.equal('{"n":42}')
  })
})
