import 'reflect-metadata'
import { expect } from 'chai'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Delete, Get, HttpCode, Module, Params, Post, Reply, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer, type Reply as ReplyType } from '../../src/runtime'
import { declarationError } from '../decorators/helpers'
import { bootError } from '../modules/helpers'

async function validate(document: unknown): Promise<{ valid: boolean; errors?: unknown }> {
  return new Validator().validate(document as never) as Promise<{ valid: boolean; errors?: unknown }>
}

const successKeys = (responses: Record<string, unknown>) => Object.keys(responses).filter((k) => /^[123]/.test(k))

describe('@HttpCode and the documented success status (leftovers §1)', () => {
  @Route('/items')
  class ItemsController {
    @HttpCode(204) @Delete('/:id') remove(@Params('id') _id: string) { /* deleted */ }
    @HttpCode(201) @Post('/') create() { return { created: true } }
    @HttpCode(202) @Post('/overridden') overridden() { return { accepted: false } }
    @Get('/') list() { return [] }
  }
  @Module({ controllers: [ItemsController] }) class AppModule {}

  it('answers the declared status when the method sets none: 204 with no body, 201 with the returned payload', async () => {
    const app = await createApp(AppModule)
    try {
      const removed = await app.inject({ method: 'DELETE', url: '/items/1' })
      expect(removed.statusCode).to.equal(204)
      expect(removed.body).to.equal('')
      const created = await app.inject({ method: 'POST', url: '/items' })
      expect(created.statusCode).to.equal(201)
      expect(created.json()).to.deep.equal({ created: true })
      expect((await app.inject({ url: '/items' })).statusCode).to.equal(200)
    } finally { await app.close() }
  })

  it('lets reply.code() in the method win over the declared status, and an error keep its own', async () => {
    @Route('/x') class C {
      @HttpCode(201) @Get('/') get(@Reply() reply: ReplyType) { reply.code(200); return {} }
      @HttpCode(201) @Get('/gone') gone() { return Promise.reject(Object.assign(new Error('gone'), { statusCode: 410 })) }
    }
    @Module({ controllers: [C] }) class M {}
    const app = await createApp(M)
    try {
      expect((await app.inject({ url: '/x' })).statusCode).to.equal(200)
      expect((await app.inject({ url: '/x/gone' })).statusCode).to.equal(410)
    } finally { await app.close() }
  })

  it('documents a route\'s @HttpCode status as its success response (204 without content), a valid OpenAPI 3.1 document', async () => {
    const app = await createApp(AppModule)
    try {
      const doc = app.openapi()
      const remove = doc.paths['/items/{id}'].delete.responses as Record<string, { description: string; content?: unknown }>
      expect(successKeys(remove)).to.deep.equal(['204'])
      expect(remove['204']).to.deep.equal({ description: 'No Content (@HttpCode; no response schema declared)' })
      expect(successKeys(doc.paths['/items'].post.responses as Record<string, unknown>)).to.deep.equal(['201'])
      expect(await validate(doc)).to.deep.equal({ valid: true })
    } finally { await app.close() }
  })

  it('keeps @fastify/swagger\'s convention, a bare 200, when nothing says which status the route answers', async () => {
    const app = await createApp(AppModule)
    try {
      const list = app.openapi().paths['/items'].get.responses as Record<string, unknown>
      expect(successKeys(list)).to.deep.equal(['200'])
      expect(list['200']).to.deep.equal({ description: 'OK (no response schema declared)' })
    } finally { await app.close() }
  })

  it('documents a runtime route whose only response schema is 204 as 204, without content (no 200 added)', async () => {
    const server = createServer()
    server.delete('/things/:id', { schema: { response: { 204: { type: 'null' } } } }, async (_request, reply) => { reply.code(204) })
    await server.ready()
    try {
      const doc = server.openapi()
      const responses = doc.paths['/things/{id}'].delete.responses as Record<string, unknown>
      expect(successKeys(responses)).to.deep.equal(['204'])
      expect(responses['204']).to.deep.equal({ description: 'No Content' })
      expect(await validate(doc)).to.deep.equal({ valid: true })
      expect((await server.inject({ method: 'DELETE', url: '/things/1' })).statusCode).to.equal(204)
    } finally { await server.close() }
  })

  it('does not add the @HttpCode status beside a response schema that already covers it (its own key or its range)', async () => {
    @Route('/r') class R {
      @HttpCode(201) @Post('/', { schema: { response: { '2xx': { type: 'object', properties: { id: { type: 'string' } } } } } }) create() { return { id: 'a' } }
    }
    @Module({ controllers: [R] }) class M {}
    const app = await createApp(M)
    try {
      expect(successKeys(app.openapi().paths['/r'].post.responses as Record<string, unknown>)).to.deep.equal(['2XX'])
    } finally { await app.close() }
  })

  it('refuses a value that is not an HTTP status at declaration, and @HttpCode on a method that declares no route at boot (coded)', async () => {
    const bad = declarationError(() => { class C { @HttpCode(99) m() { return 1 } } return C })
    expect(bad.code).to.equal('ENC_ERR_DECL_ROUTE_OPTIONS')
    expect(bad.message).to.equal('@HttpCode() on C.m: takes a final HTTP status, an integer from 200 to 599, got 99.')
    // A 1xx is no final response: a client sent one would wait for the real one.
    const informational = declarationError(() => { class C { @HttpCode(101) m() { return 1 } } return C })
    expect(informational.message).to.equal('@HttpCode() on C.m: takes a final HTTP status, an integer from 200 to 599, got 101.')
    @Route('/n') class N { @Get('/') route() { return {} } @HttpCode(204) helper() { return 1 } }
    @Module({ controllers: [N] }) class M {}
    const error = await bootError(M)
    expect(error.code).to.equal('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED')
    expect(error.message).to.include('N.helper (listed in M) carries @HttpCode but declares no route')
  })

  it('refuses at boot an @HttpCode status that the route\'s response schemas do not cover, since its answers would skip their filtering (coded)', async () => {
    @Route('/users') class U {
      @HttpCode(201) @Post('/', { schema: { response: { 200: { type: 'object', properties: { id: { type: 'number' } } } } } })
      create() { return { id: 1, passwordHash: 'secret' } }
    }
    @Module({ controllers: [U] }) class M {}
    const error = await bootError(M)
    expect(error.code).to.equal('ENC_ERR_MODULE_HTTP_CODE_UNCOVERED')
    expect(error.message).to.include('@HttpCode(201) on POST route U.create in M').and.include("'200'").and.include("under 201 (or '2xx')")
  })

  it('accepts an @HttpCode status beside response schemas for errors only: no success schema was skipped', async () => {
    @Route('/notes') class N {
      @HttpCode(204) @Delete('/:id', { schema: { response: { 404: { type: 'object', properties: { message: { type: 'string' } } } } } })
      remove() { return undefined }
    }
    @Module({ controllers: [N] }) class M {}
    const app = await createApp(M)
    try {
      expect((await app.inject({ method: 'DELETE', url: '/notes/1' })).statusCode).to.equal(204)
    } finally { await app.close() }
  })
})
