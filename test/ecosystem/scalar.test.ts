import 'reflect-metadata'
import { expect } from 'chai'
import { z } from 'zod'
import swagger from '@fastify/swagger'
import scalar from '@scalar/fastify-api-reference'
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { Body, Module, Post, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { Scope } from '../../src/runtime'
import { server, track } from '../support/servers'

// @scalar/fastify-api-reference (an ES module, loaded here through Node's require of ESM) serves
// Scalar's API reference for @fastify/swagger's document: the page at `${routePrefix}/`, a 301
// from `${routePrefix}`, its script, and the document at `${routePrefix}/openapi.json`. Its routes
// carry `schema: { hide: true }`, an annotation Enclave accepts, so they stay out of the document.
const NewBook = z.object({ title: z.string().min(1) })
const Book = z.object({ id: z.number(), title: z.string() })

async function expectReference(app: Scope): Promise<void> {
  const redirect = await app.inject('/reference')
  expect([redirect.statusCode, redirect.headers.location]).to.deep.equal([301, '/reference/'])
  const page = await app.inject('/reference/')
  expect(page.statusCode).to.equal(200)
  expect(page.headers['content-type']).to.equal('text/html; charset=utf-8')
  expect(page.body).to.include('./openapi.json').and.include('js/scalar.js')
  const script = await app.inject('/reference/js/scalar.js')
  expect([script.statusCode, script.headers['content-type']]).to.deep.equal([200, 'application/javascript; charset=utf-8'])
  const document = (await app.inject('/reference/openapi.json')).json<{ info: { title: string }; paths: Record<string, any> }>()
  expect(document.info.title).to.equal('Books')
  expect(Object.keys(document.paths)).to.deep.equal(['/books'])
  expect(document.paths['/books'].post.requestBody.content['application/json'].schema).to.deep.equal({
    type: 'object', properties: { title: { type: 'string', minLength: 1 } }, required: ['title'],
  })
}

describe('@scalar/fastify-api-reference in Enclave (with @fastify/swagger and zod schemas)', () => {
  it('serves the reference page, its script and the OpenAPI document under routePrefix (createServer)', async () => {
    const app = server()
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
    await app.register(swagger, { openapi: { info: { title: 'Books', version: '1.0.0' } }, transform: jsonSchemaTransform })
    await app.register(scalar, { routePrefix: '/reference' })
    app.post('/books', { schema: { body: NewBook, response: { 200: Book } } }, async (request) => ({ id: 1, title: request.body.title }))
    await app.ready()
    await expectReference(app)
  })

  it('serves the same as module plugins (createApp)', async () => {
    @Route('/books')
    class BooksController {
      @Post('/', { schema: { body: NewBook, response: { 200: Book } } })
      create(@Body() book: z.output<typeof NewBook>) { return { id: 1, title: book.title } }
    }
    @Module({
      plugins: [[swagger, { openapi: { info: { title: 'Books', version: '1.0.0' } }, transform: jsonSchemaTransform }], [scalar, { routePrefix: '/reference' }]],
      controllers: [BooksController], validatorCompiler, serializerCompiler,
    })
    class AppModule {}
    const app = track(await createApp(AppModule))
    await expectReference(app)
  })
})
