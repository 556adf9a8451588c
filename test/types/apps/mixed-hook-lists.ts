// Type app (a program of its own; checked by ../type-fixtures.test.ts). Never run.
// Hook lists as a passport user writes them: several different hooks typed for Fastify in one
// route option's list (`onRequest: [passport.authenticate('jwt'), app.basicAuth, needsId]`), as
// Fastify's own types and Enclave's runtime take them (an array per stage; SPEC's route hooks), and
// an unannotated inline hook in the same list or decorator call as a Fastify-typed hook, a guard
// class or both, typed as Enclave's hook (a member nothing declares does not compile, so its
// parameters are not `any`). Also: a `declare module 'fastify' { interface PassportUser }`
// augmentation reaches `request.user` in controllers, inline hooks and guards, and passport's
// `this: FastifyRequest` helpers (`request.logIn(user)`) are callable on Enclave's request.
import 'reflect-metadata'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { Authenticator } from '@fastify/passport'
import auth from '@fastify/auth'
import basicAuth from '@fastify/basic-auth'
import csrf from '@fastify/csrf-protection'
import {
  Get, Module, OnRequest, PreHandler, PreValidation, Post, Req, Route, createServer, injectable,
  type FastifyInstanceDecorations, type FastifyReplyDecorations, type FastifyRequestDecorations, type Request,
} from '../../../src'

declare module 'fastify' {
  interface PassportUser { id: string; roles: string[] }
}
declare module '../../../src' {
  interface RequestDecorations extends FastifyRequestDecorations<FastifyRequest> {}
  interface ReplyDecorations extends FastifyReplyDecorations<FastifyReply> {}
  interface ScopeDecorations extends FastifyInstanceDecorations<FastifyInstance> {}
}

const passport = new Authenticator()
const app = createServer()
app.register(auth)
app.register(basicAuth, { validate: async (username, password) => { if (username !== password) throw new Error('no') } })
app.register(csrf)

function denyFlagged(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.headers['x-deny'] !== undefined) reply.code(403)
  done()
}
const needsId = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => { if (request.params.id === '0') await reply.code(404).send() }
@injectable() class AdminGuard { handle(request: Request): boolean { return request.user?.roles.includes('admin') === true } }

// Several different Fastify-typed hooks in one list, at each stage that takes them, with Enclave's own beside them.
app.get('/a/:id', { onRequest: [passport.authenticate('session'), app.basicAuth, denyFlagged, needsId] }, async () => 1)
app.get('/b', { preValidation: [needsId, denyFlagged, async (request) => { void request.user?.roles }], preHandler: [app.csrfProtection, app.basicAuth] }, async () => 1)
app.route({ method: 'POST', url: '/c', preHandler: [app.csrfProtection, passport.authenticate('local'), async (request, reply) => { if (request.user === undefined) return reply.code(401).send() }], handler: async (request) => request.user?.id })

@Route('/account')
export class AccountController {
  @Get('/me', { onRequest: [passport.authenticate('session'), app.basicAuth, denyFlagged] })
  me(@Req() request: Request) { const id: string | undefined = request.user?.id; return { id, roles: request.user?.roles ?? [] } }
  @Post('/login', { preValidation: [passport.authenticate('local'), needsId, async (request) => { await request.logIn({ id: 'u1', roles: [] }) }] }) login() { return { ok: true } }
  // An inline hook in one decorator call with a Fastify-typed hook, a guard class, or both.
  @PreValidation(passport.authenticate('session'), async (request, reply) => { if (request.user === undefined) return reply.code(401).send() })
  @PreHandler(app.basicAuth, needsId, AdminGuard, async (request) => { void request.user?.roles })
  @OnRequest(AdminGuard, (request, reply, done) => { void reply.statusCode; done(request.user === undefined ? new Error('no user') : undefined) })
  @Get('/admin') admin() { return [] }
}
@Module({ plugins: [auth], providers: [AdminGuard], controllers: [AccountController] })
export class AccountModule {}

// Still typed, still refused: an inline hook's unknown member, in a list or a decorator call beside
// Fastify-typed hooks and guards; a hook of neither shape in a list of good ones; PassportUser's members as declared.
// @ts-expect-error [TS2339] Property 'nope' does not exist on type
app.get('/w1', { preValidation: [passport.authenticate('session'), needsId, async (request) => request.nope] }, async () => 1)
// @ts-expect-error [TS2322] is not assignable to type 'NotAFastifyHook | TypedRequestHook<{}, {}>
app.get('/w2', { onRequest: [app.basicAuth, denyFlagged, (request: { id: number }) => request.id] }, async () => 1)
// @ts-expect-error [TS2339] Property 'nope' does not exist on type 'PassportUser'
app.get('/w3', { onRequest: [app.basicAuth, async (request) => request.user?.nope] }, async () => 1)
@Route('/wrong')
export class WrongController {
  // @ts-expect-error [TS2339] Property 'nope' does not exist on type
  @PreHandler(app.basicAuth, AdminGuard, async (request) => request.nope) @Get('/1') w1() { return 1 }
  // @ts-expect-error [TS2339] Property 'nope' does not exist on type
  @Get('/2', { preHandler: [passport.authenticate('session'), app.basicAuth, async (request) => request.nope] }) w2() { return 1 }
  // @ts-expect-error [TS2322] Type 'string' is not assignable to type 'number'
  @Get('/3') w3(@Req() request: Request) { const id: number | undefined = request.user?.id; return id }
}
// A generic `this: FastifyRequest` helper keeps a type parameter over its first parameter (docs/plugins.md):
// `request.logIn(user)` takes any user, `request.logIn<AppUser>(user)` checks it against AppUser.
interface AppUser { id: string; roles: string[] }
export async function logInAs(request: Request, user: AppUser): Promise<void> {
  await request.logIn(user)
  await request.logIn(user, { session: true })
  await request.logIn<AppUser>(user)
  // @ts-expect-error [TS2345] Argument of type '{ id: string; }' is not assignable to parameter of type 'AppUser'.
  await request.logIn<AppUser>({ id: user.id })
}
