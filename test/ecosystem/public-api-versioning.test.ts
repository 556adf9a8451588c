// A public developer API's URL versions (docs/recipes-public-api.md, "Versions"): `/v1` and `/v2` are
// modules with prefixes whose controllers share one service but answer different schemas; v1 is
// deprecated (RFC 9745 Deprecation, RFC 8594 Sunset, a successor Link on every v1 answer, errors
// included; `deprecated: true` in the document); each version module serves its own OpenAPI document
// (`openapiRoute({ routes: 'scope' })`), which a real OpenAPI 3.1 validator accepts and which holds
// only that version's paths and schemas. Dated header versions: test/ecosystem/versioning.test.ts.
import 'reflect-metadata'
import { expect } from 'chai'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Get, Hook, HttpError, Module, Params, Route, createServer, injectable, openapiRoute, type OpenApiDocument, type Reply, type Request } from '../../src'
import { createApp } from '../../src/modules'

@injectable()
class Customers {
  private readonly rows = new Map([['cus_1', { id: 'cus_1', name: 'Ada Lovelace', email: 'ada@example.com', created: new Date('2026-01-02T03:04:05Z') }]])
  find(id: string) {
    const row = this.rows.get(id)
    if (row === undefined) throw new HttpError(404, `No customer ${id}`, { code: 'CUSTOMER_NOT_FOUND' })
    return row
  }
}

// v1 wrote `created` as epoch seconds and the name flat; v2 writes an ISO date and splits the name.
const CustomerV1 = { $id: 'CustomerV1', type: 'object', required: ['id', 'name', 'created'], additionalProperties: false,
  properties: { id: { type: 'string' }, name: { type: 'string' }, created: { type: 'integer' } } } as const
const CustomerV2 = { $id: 'CustomerV2', type: 'object', required: ['id', 'name', 'created'], additionalProperties: false,
  properties: { id: { type: 'string' }, name: { type: 'object', required: ['given', 'family'], properties: { given: { type: 'string' }, family: { type: 'string' } } }, created: { type: 'string', format: 'date-time' } } } as const

@Route('/customers')
class CustomersV1Controller {
  constructor(private readonly customers: Customers) {}
  @Get('/:id', { schema: { deprecated: true, summary: 'Retrieve a customer (deprecated: use /v2)', response: { 200: { $ref: 'CustomerV1#' } } } })
  find(@Params('id') id: string) {
    const { name, created } = this.customers.find(id)
    return { id, name, created: Math.floor(created.getTime() / 1000) }
  }
}

@Route('/customers')
class CustomersV2Controller {
  constructor(private readonly customers: Customers) {}
  @Get('/:id', { schema: { summary: 'Retrieve a customer', response: { 200: { $ref: 'CustomerV2#' } } } })
  find(@Params('id') id: string) {
    const { name, created } = this.customers.find(id)
    const [given, ...family] = name.split(' ')
    return { id, name: { given, family: family.join(' ') }, created }
  }
}

const SUNSET = 'Wed, 01 Jul 2026 00:00:00 GMT'

@Module({ prefix: '/v1', controllers: [CustomersV1Controller], schemas: [CustomerV1],
  plugins: [openapiRoute({ path: '/openapi.json', routes: 'scope', info: { title: 'Example API', version: 'v1' } })] })
class V1Module {
  // onSend: on every v1 answer, the 404s and 400s too (a client reading only errors still learns of the sunset).
  @Hook('onSend') async deprecation(_request: Request, reply: Reply) {
    reply.header('deprecation', '@1767225600').header('sunset', SUNSET).header('link', '</v2/customers>; rel="successor-version"')
  }
}

@Module({ prefix: '/v2', controllers: [CustomersV2Controller], schemas: [CustomerV2],
  plugins: [openapiRoute({ path: '/openapi.json', routes: 'scope', info: { title: 'Example API', version: 'v2' } })] })
class V2Module {}

@Module({ providers: [Customers], plugins: [V1Module, V2Module] })
class AppModule {}

describe('public API: URL versions as modules, v1 deprecated, one OpenAPI document per version (docs/recipes-public-api.md)', function () {
  this.timeout(10_000)
  let app: Awaited<ReturnType<typeof createApp>>
  before(async () => { app = await createApp(AppModule) })
  after(async () => { await app.close() })

  it('serves one service through two schemas: v1 epoch seconds and a flat name, v2 an ISO date and a split name', async () => {
    expect((await app.inject('/v1/customers/cus_1')).json()).to.deep.equal({ id: 'cus_1', name: 'Ada Lovelace', created: 1767323045 })
    expect((await app.inject('/v2/customers/cus_1')).json()).to.deep.equal({ id: 'cus_1', name: { given: 'Ada', family: 'Lovelace' }, created: '2026-01-02T03:04:05.000Z' })
  })

  it('sends Deprecation, Sunset and the successor Link on every v1 answer, its errors included, and none on v2', async () => {
    for (const url of ['/v1/customers/cus_1', '/v1/customers/cus_9']) {
      const res = await app.inject(url)
      expect([res.headers.deprecation, res.headers.sunset, res.headers.link], url).to.deep.equal(['@1767225600', SUNSET, '</v2/customers>; rel="successor-version"'])
    }
    expect((await app.inject('/v1/customers/cus_9')).statusCode).to.equal(404)
    expect((await app.inject('/v2/customers/cus_1')).headers).to.not.have.any.keys('deprecation', 'sunset')
  })

  it("serves each version's own document: only its paths and its schemas, v1's operation deprecated, both valid OpenAPI 3.1", async () => {
    const v1 = (await app.inject('/v1/openapi.json')).json() as OpenApiDocument
    const v2 = (await app.inject('/v2/openapi.json')).json() as OpenApiDocument
    expect([v1.info.version, Object.keys(v1.paths)]).to.deep.equal(['v1', ['/v1/customers/{id}']])
    expect([v2.info.version, Object.keys(v2.paths)]).to.deep.equal(['v2', ['/v2/customers/{id}']])
    expect(Object.keys(v1.components.schemas)).to.include('CustomerV1').and.not.include('CustomerV2')
    expect(Object.keys(v2.components.schemas)).to.include('CustomerV2').and.not.include('CustomerV1')
    expect(v1.paths['/v1/customers/{id}'].get.deprecated).to.equal(true)
    expect(v2.paths['/v2/customers/{id}'].get).to.not.have.property('deprecated')
    for (const doc of [v1, v2]) {
      const result = await new Validator().validate(doc as never)
      expect(result.valid, JSON.stringify(result.errors)).to.equal(true)
    }
  })

  it("keeps app.openapi() the whole server's document, and narrows it with { routes: 'scope' } on a scope", async () => {
    expect(Object.keys(app.openapi().paths)).to.have.members(['/v1/customers/{id}', '/v2/customers/{id}'])
    expect(Object.keys(app.openapi({}, { routes: 'scope' }).paths)).to.have.members(['/v1/customers/{id}', '/v2/customers/{id}'])
  })

  it("refuses a routes option other than 'all' or 'scope', in openapi() and at openapiRoute()'s declaration", async () => {
    const server = createServer()
    server.get('/x', async () => ({}))
    await server.ready()
    // @ts-expect-error `routes` is 'all' or 'scope'
    expect(() => server.openapi({}, { routes: 'v1' })).to.throw(/openapi\(\) on .*routes is 'all' .* or 'scope'/).with.property('code', 'ENC_ERR_INSPECT_INVALID_OPTIONS')
    // @ts-expect-error `routes` is 'all' or 'scope'
    expect(() => openapiRoute({ routes: 'module' })).to.throw(/routes is 'all'/).with.property('code', 'ENC_ERR_OPENAPI_INVALID_OPTIONS')
    await server.close()
  })
})
