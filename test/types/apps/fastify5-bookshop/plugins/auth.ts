import { lift } from '../../../../../src'
import jwt from '@fastify/jwt'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Request, Reply, FastifyInstanceDecorations, FastifyReplyDecorations, FastifyRequestDecorations } from '../../../../../src'

declare module '@fastify/jwt' {
  interface FastifyJWT { payload: { sub: string; role: 'admin' | 'reader' }; user: { sub: string; role: 'admin' | 'reader' } }
}
// Was: `declare module 'fastify' { interface FastifyInstance { authenticate: ...; requireAdmin: ... } }`;
// the @fastify/* plugins' own members (jwtVerify, user, unauthorized) are handed over whole.
declare module '../../../../../src' {
  interface RequestDecorations extends FastifyRequestDecorations<FastifyRequest> {}
  interface ReplyDecorations extends FastifyReplyDecorations<FastifyReply> {}
  interface ScopeDecorations extends FastifyInstanceDecorations<FastifyInstance> {
    authenticate: (request: Request, reply: Reply) => Promise<void>
    requireAdmin: (request: Request, reply: Reply) => Promise<void>
  }
}

// Was: `fp(async (app) => ...)`, and `FastifyRequest`/`FastifyReply` for the two parameters below.
export default lift(async (app) => {
  await app.register(jwt, { secret: app.config.JWT_SECRET })
  app.decorate('authenticate', async function (request: Request, reply: Reply) {
    try {
      await request.jwtVerify()
    } catch (err) {
      return reply.unauthorized('a valid bearer token is required')
    }
  })
  app.decorate('requireAdmin', async function (request: Request, reply: Reply) {
    if (request.user.role !== 'admin') return reply.forbidden('admins only')
  })
}, { name: 'auth', dependencies: ['config'] })
