import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { lift, type OpenApiDocument } from '../../src/runtime'
import type { App } from '../../src'
import { buildSampleApp } from '../../sample/sample-app'
import { buildNotesApp } from './notes-app'

// Ported from the removed pre-boot builder's tests (openApiDocument): the same behaviours, now of app.openapi().
describe('openapi() of the sample app: shared definitions, parameter classes, guarded routes (issue 14 §2)', () => {
  let app: App
  let doc: OpenApiDocument
  before(async () => {
    app = await buildSampleApp({ keys: ['k'], liftGrandchild: false })
    doc = app.openapi({ title: 'Sample', version: '1.2.3' })
  })
  after(async () => { await app.close() })

  it('takes the title and version given', () => {
    expect(doc.openapi).to.equal('3.1.0')
    expect(doc.info).to.deep.equal({ title: 'Sample', version: '1.2.3' })
  })

  it('makes a shared schema\'s nested definitions components of their own, referred to by pointer', () => {
    const names = Object.keys(doc.components.schemas)
    expect(names).to.include.members(['catalog', 'item', 'newItem', 'catalog.price', 'catalog.sku', 'catalog.tag'])
    expect(names.some((n) => /^def-\d+$/.test(n))).to.equal(false)
    const create = doc.paths['/items'].post
    expect(create.requestBody!.content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/newItem' })
    expect(create.responses['201'].content!['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/item' })
    const item = doc.components.schemas.item as { properties: Record<string, unknown> }
    expect(item.properties.price).to.deep.equal({ $ref: '#/components/schemas/catalog.price' })
    expect(item.properties.sku).to.deep.equal({ $ref: '#/components/schemas/catalog.sku' })
  })

  it('tags routes of nested modules with the module path', () => {
    expect(doc.tags.map((t) => t.name)).to.include.members(['AppModule > AuthenticatedModule', 'AppModule > CatalogModule > ItemsModule'])
    expect(doc.paths['/items'].post.tags).to.deep.equal(['AppModule > CatalogModule > ItemsModule'])
  })

  it('lists path and query parameters declared with parameter classes, in declaration order', () => {
    const find = doc.paths['/items/{id}'].get
    expect(find.parameters).to.deep.include({ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } })
    expect(doc.paths['/items'].get.parameters!.map((p) => `${p.in}:${p.name}`)).to.deep.equal(['query:tags', 'query:limit', 'query:offset'])
  })

  it('gives a route without schema or body no 400/413/415 (app.openapi() lists 404 on every route); bearer security and 401 only where bearerAuth guards', () => {
    expect(Object.keys(doc.paths['/two'].get.responses)).to.deep.equal(['200', '404', '500'])
    expect(doc.paths['/two'].get.security).to.equal(undefined)
    expect(doc.paths['/one'].get.security).to.deep.equal([{ bearerAuth: [] }])
    expect(doc.paths['/one'].get.responses).to.have.property('401')
  })

  it('is what the sample serves at GET /openapi.json', async () => {
    const res = await request(app.server).get('/openapi.json').expect(200)
    expect(res.body.info).to.deep.equal({ title: 'Enclave sample', version: '1.0.0' })
    expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(app.openapi({ title: 'Enclave sample', version: '1.0.0' }))))
  })
})

describe("openapi() and explain() of a lazy app (schemaCompilation: 'lazy'): route schemas recorded at boot", () => {
  it('show every route schema before any request compiled it, the same as an eager app', async () => {
    const lazy = await buildNotesApp({ lift: (m) => lift(m as never), server: { schemaCompilation: 'lazy' } })
    const eager = await buildNotesApp({ lift: (m) => lift(m as never) })
    try {
      const info = { title: 'Notes', version: '1' }
      const doc = lazy.openapi(info)
      expect(doc.paths['/notes'].post.requestBody).to.deep.equal({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/newNote' } } } })
      expect(doc).to.deep.equal(eager.openapi(info))
      const explained = lazy.explain('POST /notes', { json: true })
      expect(JSON.stringify(explained)).to.equal(JSON.stringify(eager.explain('POST /notes', { json: true })))
      expect(JSON.stringify(explained)).to.contain('newNote')
    } finally {
      await lazy.close()
      await eager.close()
    }
  })
})
