import 'reflect-metadata'
import { expect } from 'chai'
import type { FastifyError, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { Get, Module, OnError, OnRequest, OnResponse, OnSend, PreHandler, PreSerialization, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { HttpError } from '../../src/runtime'

// Hooks written for Fastify (FastifyRequest, FastifyReply, FastifyError), given to the hook
// decorators with no cast (the types: test/types/apps/decorator-fastify-hooks.ts). At run time
// Enclave calls them with its own request and reply, and each stage does what Fastify's would.
const events: string[] = []
function denyFlagged(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.headers['x-deny'] !== undefined) { void reply.code(403).send('denied'); return }
  done()
}
const tagRequest = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => { reply.header('x-seen-id', request.params.id ?? 'none') }
const wrap = async (_request: FastifyRequest, _reply: FastifyReply, payload: unknown) => ({ data: payload })
const measure = (_request: FastifyRequest, reply: FastifyReply, payload: string, done: (error: FastifyError | null, payload?: string) => void) => {
  reply.header('x-body-length', String(payload.length))
  done(null, payload)
}
const report = async (request: FastifyRequest, _reply: FastifyReply, error: FastifyError) => { events.push(`error ${request.url} ${error.statusCode}`) }
const logged = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => { events.push(`response ${request.url} ${reply.statusCode}`); done() }

@OnRequest(denyFlagged)
@Route('/books')
class BooksController {
  @PreHandler(tagRequest) @PreSerialization(wrap) @OnSend(measure) @OnResponse(logged)
  @Get('/:id') one() { return { title: 'Dune' } }
  @OnError(report) @OnResponse(logged)
  @Get('/:id/fail') fail() { throw new HttpError(409, 'taken') }
}
@Module({ controllers: [BooksController] })
class AppModule {}

describe('hook decorators take hooks typed for Fastify: they run with Enclave\'s request and reply at every stage', () => {
  it('@OnRequest, @PreHandler, @PreSerialization, @OnSend, @OnResponse and @OnError run Fastify-typed hooks as their stage does', async () => {
    events.length = 0
    const app = await createApp(AppModule)
    try {
      const denied = await app.inject({ url: '/books/1', headers: { 'x-deny': '1' } })
      expect(denied.statusCode).to.equal(403)
      expect(denied.body).to.equal('denied')

      const ok = await app.inject({ url: '/books/7' })
      expect(ok.statusCode).to.equal(200)
      expect(ok.json()).to.deep.equal({ data: { title: 'Dune' } })
      expect(ok.headers['x-seen-id']).to.equal('7')
      expect(ok.headers['x-body-length']).to.equal(String(ok.body.length))

      const failed = await app.inject({ url: '/books/7/fail' })
      expect(failed.statusCode).to.equal(409)
      expect(events).to.include.members(['response /books/7 200', 'error /books/7/fail 409', 'response /books/7/fail 409'])
    } finally { await app.close() }
  })
})
