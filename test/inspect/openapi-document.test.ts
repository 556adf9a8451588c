import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { Validator } from '@seriousme/openapi-schema-validator'
import { createServer, describeSecurity, lift, type OpenApiDocument, type Scope } from '../../src/runtime'
import { buildNotesApp } from './notes-app'

async function validate(document: unknown): Promise<{ valid: boolean; errors?: unknown }> {
  return new Validator().validate(document as never) as Promise<{ valid: boolean; errors?: unknown }>
}

describe('openapi(): an OpenAPI 3.1 document of the booted app (issue 14 §2)', () => {
  let app: Scope
  let doc: OpenApiDocument
  before(async () => {
    app = await buildNotesApp({ lift: (m) => lift(m as never) })
    doc = app.openapi({ title: 'Notes', version: '2.0.0', servers: [{ url: 'http://127.0.0.1:3000' }] })
  })
  after(async () => { await app.close() })

  it('is valid for a real OpenAPI 3.1 validator (@seriousme/openapi-schema-validator), which refuses a broken one', async () => {
    expect(await validate(doc)).to.deep.equal({ valid: true })
    const broken = JSON.parse(JSON.stringify(doc))
    delete broken.paths['/notes'].post.responses['201'].description
    expect((await validate(broken)).valid).to.equal(false)
  })

  it('lists every route method with its parameters, body and responses, leaving out implicit HEAD and its own routes', () => {
    expect(Object.keys(doc.paths)).to.deep.equal(['/notes', '/notes/{id}', '/admin/stats', '/admin/notes/{id}'])
    expect(Object.keys(doc.paths['/notes'])).to.deep.equal(['get', 'post'])
    const put = doc.paths['/notes/{id}'].put
    expect(put.operationId).to.equal('putNotesById')
    expect(put.parameters).to.deep.equal([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
      { name: 'if-match', in: 'header', required: false, schema: { type: 'string' } },
    ])
    expect(put.requestBody).to.deep.equal({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/newNote' } } } })
    const list = doc.paths['/notes'].get
    expect(list.summary).to.equal('List notes')
    expect(list.parameters).to.deep.equal([{ name: 'limit', in: 'query', required: false, description: 'at most this many', schema: { type: 'integer', minimum: 1, description: 'at most this many' } }])
    expect(list.requestBody).to.equal(undefined)
    // An undeclared path parameter is still listed (as a string), or the document would be invalid.
    expect(doc.paths['/admin/notes/{id}'].delete.parameters).to.deep.equal([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }])
  })

  it('names shared schemas by $id in components/schemas and points $ref there, fragments kept (never def-0)', () => {
    expect(Object.keys(doc.components.schemas)).to.deep.equal(['note', 'newNote', 'EnclaveError'])
    expect(doc.paths['/notes'].post.responses['201'].content!['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/note' })
    expect(doc.paths['/notes/{id}'].put.responses['4XX'].content!['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/note/properties/title' })
    expect(JSON.stringify(doc)).to.not.match(/def-\d|"\$id"/)
    // ajv's nullable: true is written as a null type (JSON Schema 2020-12 has no nullable).
    expect((doc.components.schemas.note.properties as Record<string, unknown>).body).to.deep.equal({ type: ['string', 'null'] })
  })

  it('tags each operation with the module that declared it (its path in the tree)', () => {
    expect(doc.tags.map((t) => t.name)).to.deep.equal(['AppModule > NotesModule', 'AppModule > AdminModule'])
    expect(doc.paths['/admin/stats'].get.tags).to.deep.equal(['AppModule > AdminModule'])
  })

  it('puts the bearer scheme and its 401 on the routes bearerAuth guards, and only there', () => {
    expect(doc.components.securitySchemes).to.deep.equal({ bearerAuth: { type: 'http', scheme: 'bearer' } })
    for (const op of [doc.paths['/admin/stats'].get, doc.paths['/admin/notes/{id}'].delete]) {
      expect(op.security).to.deep.equal([{ bearerAuth: [] }])
      expect(op.responses['401'].content!['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/EnclaveError' })
    }
    expect(doc.paths['/notes'].get.security).to.equal(undefined)
    expect(doc.paths['/notes'].get.responses['401']).to.equal(undefined)
  })

  it('documents the error contract: the statuses the framework answers on each route, and the module error handler schema', () => {
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses)
    expect(statuses('/notes', 'post')).to.deep.equal(['201', '400', '404', '413', '415', '422', '500'])
    expect(statuses('/notes', 'get')).to.deep.equal(['200', '400', '404', '422', '500'])
    // No schema and no body: nothing to validate, so no 400; the admin module has no 422 handler.
    expect(statuses('/admin/notes/{id}', 'delete')).to.deep.equal(['200', '401', '404', '500'])
    const problem = doc.paths['/notes'].post.responses['422'].content!['application/json'].schema
    expect(problem).to.have.nested.property('properties.statusCode.const', 422)
    expect(doc.components.schemas.EnclaveError).to.deep.include({ required: ['statusCode', 'error', 'message'] })
  })

  it('matches what the server really answers for the documented error statuses', async () => {
    const invalid = await request(app.server).post('/notes').send({ title: '' }).expect(422)
    expect(invalid.body).to.have.keys('statusCode', 'message')
    const unauthorized = await request(app.server).get('/admin/stats').expect(401)
    expect(unauthorized.body).to.include.keys('statusCode', 'error', 'message')
    const unsupported = await request(app.server).post('/notes').set('content-type', 'application/xml').send('<a/>').expect(415)
    expect(unsupported.body).to.include.keys('statusCode', 'error', 'message')
  })

  it('gives sibling scopes that declare the same $id differently one component each, with stable names', async () => {
    const server = createServer()
    server.register(async function cats(scope) {
      scope.addSchema({ $id: 'pet', type: 'object', properties: { meows: { type: 'boolean' } } })
      scope.get('/cat', { schema: { response: { 200: { $ref: 'pet#' } } } }, async () => ({ meows: true }))
    })
    server.register(async function dogs(scope) {
      scope.addSchema({ $id: 'pet', type: 'object', properties: { barks: { type: 'boolean' } } })
      scope.get('/dog', { schema: { response: { 200: { $ref: 'pet#' } } } }, async () => ({ barks: true }))
    })
    await server.ready()
    const document = server.openapi()
    expect(Object.keys(document.components.schemas)).to.deep.equal(['pet_cats', 'pet_dogs', 'EnclaveError'])
    expect(document.paths['/dog'].get.responses['200'].content!['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/pet_dogs' })
    expect(document.tags.map((t) => t.name)).to.deep.equal(['root > cats', 'root > dogs'])
    expect(await validate(document)).to.deep.equal({ valid: true })
    await server.close()
  })

  it('rewrites local references: into the component for shared schemas, inlined for route schemas', async () => {
    const server = createServer()
    server.addSchema({ $id: 'tree', type: 'object', definitions: { leaf: { type: 'string' } }, properties: { leaf: { $ref: '#/definitions/leaf' }, child: { $ref: '#' } } })
    server.post('/t', {
      schema: { body: { type: 'object', definitions: { n: { type: 'integer' } }, properties: { n: { $ref: '#/definitions/n' }, tree: { $ref: 'tree#' } } } },
    }, async () => ({}))
    await server.ready()
    const document = server.openapi()
    // definitions become components of their own (client generators cannot follow a pointer into them).
    expect(document.components.schemas.tree.properties).to.deep.equal({ leaf: { $ref: '#/components/schemas/tree.leaf' }, child: { $ref: '#/components/schemas/tree' } })
    expect(document.components.schemas['tree.leaf']).to.deep.equal({ type: 'string' })
    expect(document.components.schemas.tree).to.not.have.property('definitions')
    expect(document.paths['/t'].post.requestBody!.content['application/json'].schema.properties)
      .to.deep.equal({ n: { type: 'integer' }, tree: { $ref: '#/components/schemas/tree' } })
    expect(await validate(document)).to.deep.equal({ valid: true })
    await server.close()
  })

  it('turns draft-07 plain-name anchors ($id: \'#sku\', spec §2.3) into JSON pointers, in components and route parts', async () => {
    const server = createServer()
    server.addSchema({ $id: 'catalog', type: 'object', definitions: { sku: { $id: '#sku', type: 'string', pattern: '^[A-Z]{3}$' } }, properties: { own: { $ref: '#sku' } } })
    server.get('/items', {
      schema: {
        querystring: { type: 'object', properties: { count: { $id: '#count', type: 'integer' }, offset: { $ref: '#count' }, sku: { $ref: 'catalog#sku' } } },
        response: { 200: { type: 'object', properties: { sku: { $ref: 'catalog#sku' } } } },
      },
    }, async () => ({}))
    await server.ready()
    const document = server.openapi()
    expect(document.components.schemas.catalog.properties).to.deep.equal({ own: { $ref: '#/components/schemas/catalog.sku' } })
    expect(document.paths['/items'].get.parameters!.map((p) => [p.name, p.schema])).to.deep.equal([
      ['count', { type: 'integer' }], ['offset', { type: 'integer' }], ['sku', { $ref: '#/components/schemas/catalog.sku' }],
    ])
    expect(await validate(document)).to.deep.equal({ valid: true })
    await server.close()
  })

  it('documents any guard hook marked with describeSecurity(), with its status, following encapsulation', async () => {
    const server = createServer()
    const guard = describeSecurity(async function apiKey() {}, { name: 'apiKey', scheme: { type: 'apiKey', in: 'header', name: 'x-api-key' }, status: 403 })
    server.register(async (scope) => {
      scope.addHook('preHandler', guard)
      scope.get('/guarded', async () => ({}))
    }, { prefix: '/in' })
    server.get('/open', async () => ({}))
    await server.ready()
    const document = server.openapi()
    expect(document.components.securitySchemes).to.deep.equal({ apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } })
    expect(document.paths['/in/guarded'].get.security).to.deep.equal([{ apiKey: [] }])
    expect(document.paths['/in/guarded'].get.responses).to.have.property('403')
    expect(document.paths['/open'].get.security).to.equal(undefined)
    await server.close()
  })
  it('leaves out routes whose schema says hide: true (@fastify/swagger\'s rule), such as @fastify/cors\'s OPTIONS * catch-all (dx2 item 9)', async () => {
    const cors = (await import('@fastify/cors')).default
    const server = createServer()
    server.register(cors as never, { origin: 'https://a.example' })
    server.get('/orders', async () => [])
    server.get('/internal', { schema: { hide: true } }, async () => ({}))
    await server.ready()
    try {
      const document = server.openapi()
      expect(Object.keys(document.paths)).to.deep.equal(['/orders'])
      expect(server.inspect().routes.some((r) => r.method === 'OPTIONS' && r.url === '/*' && r.docs.hide === true)).to.equal(true)
      // The route is still served: hide is about the document only.
      expect((await server.inject({ method: 'OPTIONS', url: '/orders', headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' } })).statusCode).to.equal(204)
    } finally { await server.close() }
  })

  it('documents a form route\'s request body under the media types its schema\'s consumes names (@fastify/formbody), and produces for its responses, still a valid document', async () => {
    const formbody = (await import('@fastify/formbody')).default
    const server = createServer()
    server.register(formbody)
    const form = { type: 'object', required: ['customer'], properties: { customer: { type: 'string' }, amount_cents: { type: 'integer' } } } as const
    server.post('/legacy/invoices', { schema: { consumes: ['application/x-www-form-urlencoded'], body: form } }, async (request) => request.body)
    server.get('/invoices.csv', { schema: { produces: ['text/csv'], response: { 200: { type: 'string' } } } }, async () => 'id\n')
    server.post('/invoices', { schema: { body: form } }, async (request) => request.body)
    await server.ready()
    try {
      const document = server.openapi()
      expect(document.paths['/legacy/invoices'].post.requestBody).to.deep.equal({ required: true, content: { 'application/x-www-form-urlencoded': { schema: form } } })
      expect(Object.keys(document.paths['/invoices.csv'].get.responses['200'].content ?? {})).to.deep.equal(['text/csv'])
      // Without consumes it stays JSON, and the error contract stays JSON either way.
      expect(Object.keys(document.paths['/invoices'].post.requestBody?.content ?? {})).to.deep.equal(['application/json'])
      expect(Object.keys(document.paths['/legacy/invoices'].post.responses['400'].content ?? {})).to.deep.equal(['application/json'])
      expect(await validate(document)).to.deep.equal({ valid: true })
      const served = await server.inject({ method: 'POST', url: '/legacy/invoices', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'customer=Road&amount_cents=150' })
      expect(served.json()).to.deep.equal({ customer: 'Road', amount_cents: 150 })
    } finally { await server.close() }
  })
  it('documents an upload route (@fastify/multipart) by its consumes: the media type without invented fields when it has no body schema, its body schema when it has one; still a valid document', async () => {
    const multipart = (await import('@fastify/multipart')).default
    const server = createServer()
    server.register(multipart)
    // request.file() reads the upload: no body schema, only the media type the route takes.
    server.post('/files', { schema: { consumes: ['multipart/form-data'] } }, async (request) => {
      const file = await (request as unknown as { file(): Promise<{ filename: string; toBuffer(): Promise<Buffer> }> }).file()
      return { name: file.filename, size: (await file.toBuffer()).length }
    })
    const described = { type: 'object', properties: { title: { type: 'string' }, file: { type: 'string', contentEncoding: 'binary' } } } as const
    server.put('/files/:id', { schema: { consumes: ['multipart/form-data'], body: described } }, async () => ({}))
    server.post('/raw', { schema: { consumes: ['application/octet-stream'] } }, async () => ({}))
    server.get('/files', { schema: { consumes: ['multipart/form-data'] } }, async () => [])
    server.post('/plain', async () => ({}))
    await server.ready()
    try {
      const document = server.openapi()
      expect(document.paths['/files'].post.requestBody).to.deep.equal({ required: false, content: { 'multipart/form-data': { schema: { type: 'object' } } } })
      expect(document.paths['/files/{id}'].put.requestBody).to.deep.equal({ required: true, content: { 'multipart/form-data': { schema: described } } })
      expect(document.paths['/raw'].post.requestBody).to.deep.equal({ required: false, content: { 'application/octet-stream': { schema: {} } } })
      // A GET sends no body, and a route that names no media type and has no body schema documents none.
      expect(document.paths['/files'].get.requestBody).to.equal(undefined)
      expect(document.paths['/plain'].post.requestBody).to.equal(undefined)
      expect(await validate(document)).to.deep.equal({ valid: true })
      const payload = '--XyZ\r\nContent-Disposition: form-data; name="doc"; filename="a.txt"\r\n\r\nhello\r\n--XyZ--\r\n'
      const served = await server.inject({ method: 'POST', url: '/files', headers: { 'content-type': 'multipart/form-data; boundary=XyZ' }, payload })
      expect(served.json()).to.deep.equal({ name: 'a.txt', size: 5 })
    } finally { await server.close() }
  })
  it('documents a required query or header property that has a default as not required: the validator fills it in, so a client may leave it out (TypeBox marks every non-Optional property required)', async () => {
    const { Type } = await import('@sinclair/typebox')
    const server = createServer()
    const querystring = Type.Object({ page: Type.Integer({ minimum: 1, default: 1 }), q: Type.String() })
    const headers = Type.Object({ 'x-region': Type.String({ default: 'eu' }), 'x-tenant': Type.String() })
    server.get('/orders', { schema: { querystring, headers } }, async (request) => ({ page: request.query.page, region: request.headers['x-region'] }))
    await server.ready()
    try {
      const parameters = server.openapi().paths['/orders'].get.parameters
      expect(parameters?.map((p) => [p.name, p.in, p.required])).to.deep.equal([
        ['page', 'query', false], ['q', 'query', true], ['x-region', 'header', false], ['x-tenant', 'header', true],
      ])
      // What the document promises: a request without the defaulted ones is served, with their defaults.
      const served = await server.inject({ url: '/orders?q=x', headers: { 'x-tenant': 't' } })
      expect(served.json()).to.deep.equal({ page: 1, region: 'eu' })
      expect((await server.inject({ url: '/orders', headers: { 'x-tenant': 't' } })).statusCode).to.equal(400)
    } finally { await server.close() }
  })
  it('documents a query property whose schema is a boolean (`any: true`) as a parameter, required as listed, without throwing', async () => {
    const server = createServer()
    server.get('/any', { schema: { querystring: { type: 'object', properties: { any: true, q: { type: 'string' } }, required: ['any'] } } }, async () => 'x')
    await server.ready()
    try {
      const parameters = server.openapi().paths['/any'].get.parameters
      expect(parameters?.map((p) => [p.name, p.in, p.required])).to.deep.equal([['any', 'query', true], ['q', 'query', false]])
    } finally { await server.close() }
  })
})
