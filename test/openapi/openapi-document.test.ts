import { expect } from 'chai'
import { openApiDocument, type OpenApiDocument } from '../../src'
import request from 'supertest'
import { buildSampleApp, sampleRootModule } from '../../sample/sample-app'

type Operation = { operationId: string; tags: string[]; parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: unknown[] }

// The validator is ESM-only: loaded through a real dynamic import (TypeScript would turn import() into require()).
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<any>

describe('OpenAPI 3.1 document of the module tree (issue 14 §2)', function () {
  this.timeout(30_000)
  let document: OpenApiDocument
  const op = (path: string, method: string) => (document.paths[path] as Record<string, Operation>)[method]
  before(() => { document = openApiDocument(sampleRootModule({ keys: ['k'], liftGrandchild: false }), { title: 'Sample', version: '1.2.3' }) })

  it('is a valid OpenAPI 3.1 document whose every $ref resolves (@seriousme/openapi-schema-validator)', async () => {
    const { Validator } = await importEsm('@seriousme/openapi-schema-validator')
    const validator = new Validator()
    const result = await validator.validate(JSON.parse(JSON.stringify(document)))
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).to.deep.equal([])
    expect(result.valid).to.equal(true)
    expect(() => validator.resolveRefs()).to.not.throw()
    expect(validator.version).to.equal('3.1')
  })

  it('names shared schemas by their $id as components (never def-0), and refers to them by pointer', () => {
    const names = Object.keys((document.components as { schemas: Record<string, unknown> }).schemas)
    expect(names).to.include.members(['catalog', 'item', 'newItem', 'EnclaveErrorReply'])
    expect(names.some((n) => /^def-\d+$/.test(n))).to.equal(false)
    const create = op('/items', 'post')
    expect(create.requestBody!.content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/newItem' })
    expect(create.responses['201'].content!['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/item' })
    const item = (document.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas.item
    // Nested definitions become components of their own (tools such as openapi-typescript read components).
    expect(item.properties.price).to.deep.equal({ $ref: '#/components/schemas/catalog.price' })
    expect(item.properties.sku).to.deep.equal({ $ref: '#/components/schemas/catalog.sku' })
    expect(names).to.include.members(['catalog.price', 'catalog.sku', 'catalog.tag'])
  })

  it('gives each module one tag (its path in the tree) and each route its module\'s tag', () => {
    const tags = (document.tags as Array<{ name: string }>).map((t) => t.name)
    expect(tags).to.include.members(['AppModule > AuthenticatedModule', 'AppModule > CatalogModule > ItemsModule'])
    expect(op('/items', 'post').tags).to.deep.equal(['AppModule > CatalogModule > ItemsModule'])
  })

  it('lists path, query and header parameters from the route schemas (parameter classes included)', () => {
    const find = op('/items/{id}', 'get')
    expect(find.parameters).to.deep.include({ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } })
    const list = op('/items', 'get')
    expect(list.parameters!.map((p) => `${p.in}:${p.name}`)).to.deep.equal(['query:tags', 'query:limit', 'query:offset'])
  })

  it('documents the answers the framework gives: 400 with a request schema, 413/415 with a body, 500 always, the error shape', () => {
    const create = op('/items', 'post')
    expect(Object.keys(create.responses)).to.include.members(['201', '400', '413', '415', '500'])
    expect(create.responses['400'].content!['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/EnclaveErrorReply' })
    expect(Object.keys(op('/two', 'get').responses)).to.deep.equal(['200', '500'])
  })

  it('puts the bearer security scheme and a 401 on the routes bearerAuth guards, and only there', () => {
    expect((document.components as { securitySchemes?: unknown }).securitySchemes).to.deep.equal({ bearerAuth: { type: 'http', scheme: 'bearer' } })
    expect(op('/one', 'get').security).to.deep.equal([{ bearerAuth: [] }])
    expect(op('/one', 'get').responses).to.have.property('401')
    expect(op('/two', 'get').security).to.equal(undefined)
    expect(op('/two', 'get').responses).to.not.have.property('401')
  })

  it('is served by the sample at GET /openapi.json', async () => {
    const app = await buildSampleApp({ keys: ['k'], liftGrandchild: false })
    try {
      const res = await request(app.server).get('/openapi.json').expect(200)
      expect(res.body.openapi).to.equal('3.1.0')
      expect(res.body.paths).to.have.property('/items/{id}')
      expect(res.body.info).to.deep.equal({ title: 'Enclave sample', version: '1.0.0' })
      // app.openapi(): the same document from the booted app.
      expect(app.openapi({ title: 'Enclave sample', version: '1.0.0' })).to.deep.equal(res.body)
    } finally {
      await app.close()
    }
  })

  it('takes the title and version given', () => {
    expect(document.openapi).to.equal('3.1.0')
    expect(document.info).to.deep.equal({ title: 'Sample', version: '1.2.3' })
  })
})
