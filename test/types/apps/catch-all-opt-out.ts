// Type app (a program of its own; checked by ../type-fixtures.test.ts). Never run.
// The opt-out: an app that relies on undeclared decorations (the catch-all index Request, Reply
// and Scope had before) gets it back with one index signature per interface. A typed route's parts
// stay typed from its schema.
import { createServer } from '../../../src'

declare module '../../../src' {
  interface RequestDecorations { [name: string]: unknown }
  interface ReplyDecorations { [name: string]: unknown }
  interface ScopeDecorations { [name: string]: unknown }
}

const app = createServer()
// With the catch-all every name is declared: any name decorates, with any value.
app.decorateRequest('anything', 1).decorateReply('marked', false).decorate('cache', new Map())
const cache: unknown = app.cache
void cache
app.addHook('preHandler', async (request, reply) => {
  request.anything = 1
  reply.marked = true
})
app.get('/plain', (request, reply) => ({ anything: request.anything, marked: reply.marked }))

const body = { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } as const
app.post('/notes', { schema: { body } }, (request) => {
  const title: string = request.body.title
  // @ts-expect-error [TS2322] Type 'string' is not assignable to type 'number'
  const wrong: number = request.body.title
  // @ts-expect-error [TS18046] 'request.anything' is of type 'unknown'
  return { title, wrong, length: request.anything.length }
})
