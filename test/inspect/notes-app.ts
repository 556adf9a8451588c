import 'reflect-metadata'
import { Body, DecorateRequest, Delete, ErrorHandler, Get, Hook, Module, Params, Post, Put, Reply, Route, Schema } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { bearerAuth, openapiRoute } from '../../src/plugins'
import { injectable } from 'tsyringe'
import type { Request, Scope, ServerOptions } from '../../src/runtime'

/**
 * A small notes service used by the introspection and OpenAPI tests: a root module with shared
 * schemas and a request decorator, a notes module (injected repository, module error handler
 * answering 422 with a declared schema), an admin module behind bearer auth, a lifted module
 * adding a hook to its parent's scope, and the document served by openapiRoute().
 */
@Schema({ $id: 'note', type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer' }, title: { type: 'string' }, body: { type: 'string', nullable: true } } })
export class NoteSchema {}

@Schema({ $id: 'newNote', type: 'object', required: ['title'], additionalProperties: false, properties: { title: { type: 'string', minLength: 1 }, body: { type: 'string' } } })
export class NewNoteSchema {}

@injectable()
export class NotesRepository {
  readonly #notes = new Map<number, { id: number; title: string; body?: string }>([[1, { id: 1, title: 'first' }]])
  add(note: { title: string; body?: string }) { const id = this.#notes.size + 1; const saved = { id, ...note }; this.#notes.set(id, saved); return saved }
  get(id: number) { return this.#notes.get(id) }
  list() { return [...this.#notes.values()] }
}

const problem = { type: 'object', required: ['statusCode', 'message'], properties: { statusCode: { type: 'integer', const: 422 }, message: { type: 'string' }, fields: { type: 'array', items: { type: 'string' } } } }

@Route('/')
export class NotesController {
  constructor(private readonly repository: NotesRepository) {}

  @Get('/', { schema: { summary: 'List notes', querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, description: 'at most this many' } } }, response: { 200: { type: 'array', items: { $ref: 'note#' } } } } })
  list(request: Request) { return this.repository.list().slice(0, (request.query.limit as number | undefined) ?? 100) }

  @Post('/', { schema: { body: { $ref: 'newNote#' }, response: { 201: { $ref: 'note#' } } } })
  create(@Body() note: { title: string; body?: string }, @Reply() reply: Reply) { reply.code(201); return this.repository.add(note) }

  @Put('/:id', { schema: { params: { id: { type: 'integer' } }, headers: { type: 'object', properties: { 'If-Match': { type: 'string' } } }, body: { $ref: 'newNote#' }, response: { 200: { $ref: 'note#' }, '4xx': { $ref: 'note#/properties/title' } } } })
  update(@Params('id') id: number, @Body() note: { title: string }) { return { id, ...note } }
}

@Module({ controllers: [NotesController], providers: [NotesRepository], prefix: '/notes' })
export class NotesModule {
  @ErrorHandler({ responses: { 422: problem } })
  onError(error: Error & { validation?: unknown }, _request: Request, reply: Reply) {
    if (error.validation === undefined) throw error
    reply.code(422).send({ statusCode: 422, message: error.message })
  }
}

@Route('/')
export class AdminController {
  @Get('/stats', { schema: { response: { 200: { type: 'object', properties: { notes: { type: 'integer' } } } } } })
  stats() { return { notes: 1 } }
  @Delete('/notes/:id') remove(request: Request) { return { removed: request.params.id } }
}

@Module({ plugins: [bearerAuth({ keys: ['secret'] })], controllers: [AdminController], prefix: '/admin' })
export class AdminModule {}

@Module({})
export class AuditModule {
  @Hook('onRequest') async audit(_request: Request) { /* records the call */ }
}

export const lifted = { AuditModule }

export async function buildNotesApp(options: { lift: (m: Function) => unknown; server?: ServerOptions }): Promise<Scope> {
  @DecorateRequest('tenant', 'public')
  @Module({ plugins: [options.lift(AuditModule) as never, NotesModule, AdminModule, openapiRoute({ path: '/openapi.json', ui: '/docs', info: { title: 'Notes', version: '2.0.0' } })], schemas: [NoteSchema, NewNoteSchema] })
  class AppModule {}
  return createApp(AppModule, options.server)
}
