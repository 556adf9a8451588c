// Type app (a program of its own; checked by ../type-fixtures.test.ts). Never run.
// Plugin methods declared `this: FastifyRequest` are called on Enclave's request with no cast once
// the app hands over the plugins' declarations (src/runtime/fastify-decorations.ts):
// @fastify/passport's `request.isAuthenticated()` and both `request.logIn()` overloads, beside
// @fastify/jwt's `request.jwtVerify()` and @fastify/cookie's `reply.setCookie()` (no `this` declared),
// in an inline handler, in a hook and in a controller method; `request.logIn<User>(user)` checks the
// user against the type argument. Still refused: a misspelt member,
// a wrong arity, a wrong result type, a method called detached from its request.
import 'reflect-metadata'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Authenticator } from '@fastify/passport'
import cookie from '@fastify/cookie'
import jwt from '@fastify/jwt'
import {
  Get, Module, Post, Reply, Req, Route, createServer,
  type FastifyInstanceDecorations, type FastifyReplyDecorations, type FastifyRequestDecorations, type Request, type Reply as ReplyType,
} from '../../../src'

declare module '../../../src' {
  interface RequestDecorations extends FastifyRequestDecorations<FastifyRequest> {}
  interface ReplyDecorations extends FastifyReplyDecorations<FastifyReply> {}
  interface ScopeDecorations extends FastifyInstanceDecorations<FastifyInstance> {}
}

const passport = new Authenticator()
const app = createServer()
app.register(cookie)
app.register(jwt, { secret: 'a-long-enough-secret-for-the-tests' })
app.register(passport.initialize())
app.register(passport.secureSession())

app.addHook('preHandler', async (request, reply) => {
  if (request.url.startsWith('/private') && !request.isAuthenticated()) return reply.code(401).send()
})
app.post('/login', async (request, reply) => {
  await request.logIn({ id: 1 })
  await request.logIn({ id: 1 }, { session: true, keepSessionInfo: false })
  const claims = await request.jwtVerify()
  reply.setCookie('seen', '1', { httpOnly: true })
  return { claims, authenticated: request.isAuthenticated(), anonymous: request.isUnauthenticated() }
})
app.post('/logout', async (request) => { await request.logOut(); return { out: true } })

@Route('/account')
export class AccountController {
  @Get('/') async me(@Req() request: Request, @Reply() reply: ReplyType) {
    if (!request.isAuthenticated()) return reply.code(401).send()
    reply.setCookie('seen', '1')
    return request.user
  }
  @Post('/login') async login(@Req() request: Request) { await request.logIn({ id: 2 }, { session: false }); return { ok: true } }
}
@Module({ controllers: [AccountController] })
export class AccountModule {}

declare const request: Request
// @ts-expect-error [TS2551] Property 'isAuthenticatd' does not exist on type
request.isAuthenticatd()
// @ts-expect-error [TS2554] Expected 1-2 arguments, but got 0.
void request.logIn()
// @ts-expect-error [TS2322] Type 'boolean' is not assignable to type 'string'.
const authenticated: string = request.isAuthenticated()
// passport's logIn<T>(user: T): a type argument states the user's type, and the user is checked against it.
interface User { id: number; name: string }
void request.logIn<User>({ id: 3, name: 'ada' })
void request.logIn<User>({ id: 3, name: 'ada' }, { session: false })
// @ts-expect-error [TS2322] Type 'string' is not assignable to type 'number'.
void request.logIn<User>({ id: '3', name: 'ada' })
// @ts-expect-error [TS2561] Object literal may only specify known properties, but 'nme' does not exist in type 'User'.
void request.logIn<User>({ id: 3, nme: 'ada' }, { session: true })
// @ts-expect-error [TS2561] Object literal may only specify known properties, but 'sesion' does not exist in type
void request.logIn<User>({ id: 3, name: 'ada' }, { sesion: true })
const detached = request.isAuthenticated
// @ts-expect-error [TS2684] The 'this' context of type 'void' is not assignable to method's 'this' of type 'RequestBase'.
detached()
void authenticated
