import { expect } from 'chai'
import fastify5 from 'fastify5'
import { Format, Type, TypeBoxValidatorCompiler, registerAjvFormats, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { Compile } from 'typebox/compile'
import { Value } from 'typebox/value'
import { server } from '../support/servers'

// What a Fastify user's type-provider code does on Enclave at run time (the types it gives are in
// test/types/fixtures/fastify-type-provider-packages.ts): @fastify/type-provider-typebox 6 (typebox 1.x
// schemas it re-exports, its TypeBoxValidatorCompiler, registerAjvFormats) and
// @fastify/type-provider-json-schema-to-ts 5 (types only: its routes run on the default compilers).
// `withTypeProvider<P>()` is the same scope, typed; compared with Fastify 5 running the same code.
const NewItem = Type.Object({ name: Type.String({ minLength: 1 }), qty: Type.Integer({ minimum: 1 }), email: Type.Optional(Type.String({ format: 'email' })) })
const Item = Type.Object({ id: Type.Integer(), name: Type.String() })
const ById = Type.Object({ id: Type.Integer() })
const Paging = Type.Object({ limit: Type.Integer({ default: 10 }), tag: Type.Optional(Type.String()) })

interface Declarer { withTypeProvider(): Declarer; setValidatorCompiler(fn: unknown): Declarer; post: Function; get: Function }
/** The same routes on either framework, through withTypeProvider<TypeBoxTypeProvider>(), as the provider's README writes them. */
function declareItems(app: Declarer, compiler: boolean): void {
  if (compiler) app.setValidatorCompiler(TypeBoxValidatorCompiler)
  const typed = app.withTypeProvider()
  typed.post('/items/:id', { schema: { body: NewItem, params: ById, querystring: Paging, response: { 201: Item } } },
    async (request: { body: { name: string }; params: { id: number }; query: { limit: number } }, reply: { code(n: number): unknown }) => {
      reply.code(201)
      return { id: request.params.id, name: `${request.body.name}|${typeof request.params.id}|${request.query.limit}`, secret: 'not in the schema' }
    })
}

const cases: Array<[url: string, payload: unknown]> = [
  ['/items/1', { name: 'a', qty: 0 }],
  ['/items/1', { qty: 2 }],
  ['/items/x', { name: 'a', qty: 2 }],
  ['/items/1?limit=many', { name: 'a', qty: 2 }],
  ['/items/1', { name: '', qty: 2 }],
  ['/items/1', { name: 'a', qty: 2, email: 'not-an-email' }],
]

function both(compiler: boolean): { app: ReturnType<typeof server>; reference: ReturnType<typeof fastify5> } {
  const app = server()
  declareItems(app as unknown as Declarer, compiler)
  const reference = fastify5()
  declareItems(reference as unknown as Declarer, compiler)
  return { app, reference }
}

describe('@fastify/type-provider-typebox and -json-schema-to-ts in Enclave', () => {
  it('withTypeProvider<TypeBoxTypeProvider>() declares on the same scope: typebox 1 schemas validate (coerced params, defaults) and serialize (unknown fields dropped) as in Fastify 5', async () => {
    const { app, reference } = both(false)
    try {
      for (const [url, payload] of [['/items/7?tag=x', { name: 'pen', qty: 2 }], ['/items/7?limit=3', { name: 'pen', qty: 2 }]] as const) {
        const ours = await app.inject({ method: 'POST', url, payload })
        const theirs = await reference.inject({ method: 'POST', url, payload })
        expect([ours.statusCode, ours.json()], url).to.deep.equal([theirs.statusCode, theirs.json()])
      }
      expect((await app.inject({ method: 'POST', url: '/items/7', payload: { name: 'pen', qty: 2 } })).json()).to.deep.equal({ id: 7, name: 'pen|number|10' })
      // Refused where Fastify 5 refuses, on the same field, in ajv 6's wording (docs/fastify-compat.md:
      // "should be integer" where ajv 8 says "must be integer").
      for (const [url, payload] of cases.slice(0, 5)) {
        const ours = await app.inject({ method: 'POST', url, payload: payload as object })
        const theirs = await reference.inject({ method: 'POST', url, payload: payload as object })
        expect([ours.statusCode, theirs.statusCode], url).to.deep.equal([400, 400])
        expect(ours.json<any>().message.split(' ')[0], url).to.equal(theirs.json().message.split(' ')[0])
        expect(ours.json<any>().message, url).to.match(/ should /)
      }
    } finally { await reference.close() }
  })

  it('runs the provider\'s TypeBoxValidatorCompiler: the same 400 messages as Fastify 5 with it, in Enclave\'s shape (no code, as Fastify 3), and its conversions', async () => {
    const { app, reference } = both(true)
    try {
      for (const [url, payload] of cases.slice(0, 5)) {
        const ours = await app.inject({ method: 'POST', url, payload: payload as object })
        const theirs = await reference.inject({ method: 'POST', url, payload: payload as object })
        expect([ours.statusCode, theirs.statusCode], url).to.deep.equal([400, 400])
        const { code, ...rest } = theirs.json()
        expect(code).to.equal('FST_ERR_VALIDATION')
        expect(ours.json(), `${url} ${JSON.stringify(payload)}`).to.deep.equal(rest)
      }
      const ok = await app.inject({ method: 'POST', url: '/items/7?limit=4', payload: { name: 'pen', qty: 2 } })
      expect([ok.statusCode, ok.json()]).to.deep.equal([201, { id: 7, name: 'pen|number|4' }])
    } finally { await reference.close() }
  })

  it('hands a custom validatorCompiler the typebox 1 schema with its non-enumerable ~kind marks kept (and still non-enumerable), which TypeBox\'s Value.Convert reads', async () => {
    const seen: Array<Record<string, unknown>> = []
    const app = server()
    app.setValidatorCompiler(({ schema }) => { seen.push(schema as Record<string, unknown>); return () => true })
    app.get('/marks/:id', { schema: { params: Type.Object({ id: Type.Integer(), tag: Type.Optional(Type.String()) }) } }, async () => 'ok')
    await app.ready()
    const [params] = seen
    const id = (params.properties as Record<string, Record<string, unknown>>).id
    const tag = (params.properties as Record<string, Record<string, unknown>>).tag
    expect([params['~kind'], id['~kind'], tag['~kind'], tag['~optional']]).to.deep.equal(['Object', 'Integer', 'String', true])
    expect(Object.keys(params)).to.not.include('~kind')
    expect(JSON.stringify(params)).to.not.contain('~')
  })

  it('keeps a typebox 1 schema given to addSchema() with its ~kind/~optional marks: getSchema(s)() return it as added, so a compiler resolving `Type.Ref` through them coerces params (Fastify 5 clones it without the marks: a 400)', async () => {
    const ById = Type.Object({ id: Type.Integer(), tag: Type.Optional(Type.String()) }, { $id: 'ById' })
    // The provider's TypeBoxValidatorCompiler compiles each schema alone and cannot resolve a
    // `Type.Ref` (Fastify 5 too); a user's compiler hands TypeBox the scope's shared schemas as its context.
    const declare = (app: { addSchema: Function; register: Function; inject: Function }): void => {
      app.addSchema(ById)
      app.register(async (child: any) => {
        child.setValidatorCompiler(({ schema, httpPart }: { schema: any; httpPart?: string }) => {
          const context = child.getSchemas()
          const check = Compile(context, schema)
          return (value: unknown) => {
            const converted = httpPart === 'body' ? value : Value.Convert(context, schema, value)
            return check.Check(converted) ? { value: converted } : { error: [...check.Errors(converted)] }
          }
        })
        child.get('/ref/:id', { schema: { params: Type.Ref('ById') } }, async (request: { params: { id: unknown } }) => ({ type: typeof request.params.id, id: request.params.id }))
      })
    }
    const app = server()
    declare(app as never)
    await app.ready()
    const shared = app.getSchema('ById') as Record<string, any>
    expect(shared).to.equal(ById)
    expect([shared['~kind'], shared.properties.id['~kind'], shared.properties.tag['~optional']]).to.deep.equal(['Object', 'Integer', true])
    expect((app.getSchemas() as Record<string, unknown>).ById).to.equal(ById)
    const ours = await app.inject({ url: '/ref/7' })
    expect([ours.statusCode, ours.json()]).to.deep.equal([200, { type: 'number', id: 7 }])
    const bad = await app.inject({ url: '/ref/x' })
    expect([bad.statusCode, bad.json<any>().message]).to.deep.equal([400, 'params/id must be integer'])
    const reference = fastify5()
    try {
      declare(reference as never)
      const theirs = await reference.inject({ url: '/ref/7' })
      expect([theirs.statusCode, theirs.json().message]).to.deep.equal([400, 'params/id must be integer'])
    } finally { await reference.close() }
  })

  it('checks string formats with the compiler once registerAjvFormats() fills TypeBox\'s registry, and a Format.Set() of the app\'s own', async () => {
    registerAjvFormats()
    Format.Set('sku', (value) => /^[A-Z]{3}-\d{4}$/.test(value))
    const app = server()
    app.setValidatorCompiler(TypeBoxValidatorCompiler as never)
    app.withTypeProvider<TypeBoxTypeProvider>().post('/sku', { schema: { body: Type.Object({ sku: Type.String({ format: 'sku' }), email: Type.String({ format: 'email' }) }) } }, async (request) => request.body.sku)
    await app.ready()
    expect((await app.inject({ method: 'POST', url: '/sku', payload: { sku: 'ABC-1234', email: 'a@b.co' } })).body).to.equal('ABC-1234')
    const bad = await app.inject({ method: 'POST', url: '/sku', payload: { sku: 'abc', email: 'a@b.co' } })
    expect(bad.statusCode).to.equal(400)
    expect(bad.json<any>().message).to.match(/^body\/sku /)
    expect((await app.inject({ method: 'POST', url: '/sku', payload: { sku: 'ABC-1234', email: 'nope' } })).statusCode).to.equal(400)
  })

  it('withTypeProvider<JsonSchemaToTsProvider>() changes nothing at run time: `as const` schemas run on the default compilers', async () => {
    const app = server()
    const body = { type: 'object', properties: { x: { type: 'string' }, y: { type: 'number' } }, required: ['x', 'y'], additionalProperties: false } as const
    app.withTypeProvider<JsonSchemaToTsProvider>().post('/xy', { schema: { body } }, async (request) => ({ sum: `${request.body.x}${request.body.y + 1}` }))
    await app.ready()
    expect((await app.inject({ method: 'POST', url: '/xy', payload: { x: 'a', y: 1 } })).json()).to.deep.equal({ sum: 'a2' })
    const bad = await app.inject({ method: 'POST', url: '/xy', payload: { x: 'a' } })
    expect(bad.json()).to.deep.equal({ statusCode: 400, error: 'Bad Request', message: "body should have required property 'y'" })
  })
})
