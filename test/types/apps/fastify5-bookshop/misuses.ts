// What a Fastify 5 team's typos and wrong values do after the move: they still fail to compile,
// checked against the same plugin types Fastify 5 checks them with.
import rateLimit from '@fastify/rate-limit'
import { Type } from '@fastify/type-provider-typebox'
import { createServer } from '../../../../src'
import './plugins/auth'
import './plugins/store'
import './plugins/config'

const app = createServer()
// @ts-expect-error [TS2345] Types of property 'max' are incompatible.
app.register(rateLimit, { max: '3' })
app.get('/me', { onRequest: [app.authenticate] }, async (request, reply) => {
  // @ts-expect-error [TS2367] This comparison appears to be unintentional because the types '"admin" | "reader"' and '"owner"' have no overlap.
  if (request.user.role === 'owner') return reply.forbidden()
  // @ts-expect-error [TS2345] Argument of type 'number' is not assignable to parameter of type 'string'.
  return reply.notFound(404)
})
app.post('/books', { schema: { body: Type.Object({ title: Type.String() }) } }, async (request) => {
  // @ts-expect-error [TS2339] Property 'isbn' does not exist on type
  return { isbn: request.body.isbn }
})
// @ts-expect-error [TS2345] 'undeclaredThing' is not declared
app.decorate('undeclaredThing', 1)
// @ts-expect-error [TS2551] Property 'conifg' does not exist on type 'Scope'. Did you mean 'config'?
app.conifg.JWT_SECRET
