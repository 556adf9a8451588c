// Type app (a program of its own; checked by ../type-fixtures.test.ts). Never run.
// Hooks typed for Fastify, as the auth plugins hand them out, go into a route's onRequest,
// preValidation and preHandler with no cast: @fastify/passport's `authenticate()`, @fastify/auth's
// `app.auth([...])`, @fastify/basic-auth's `app.basicAuth`, @fastify/bearer-auth's
// `app.verifyBearerAuth`, and a hook written `(request: FastifyRequest, reply: FastifyReply, done)`.
// A hook that fits neither Enclave's nor Fastify's shape still does not compile
// (src/runtime/fastify-typed-hook.ts); inline hooks keep their typing beside them.
// The scope's members come from the plugins' own declarations (docs/plugins.md), hence an app of its own.
import 'reflect-metadata'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { Authenticator } from '@fastify/passport'
import auth from '@fastify/auth'
import basicAuth from '@fastify/basic-auth'
import bearerAuth from '@fastify/bearer-auth'
import {
  Get, Module, Post, Route, createServer, lift, type,
  type FastifyInstanceDecorations, type FastifyReplyDecorations, type FastifyRequestDecorations, type Scope,
} from '../../../src'

declare module '../../../src' {
  interface RequestDecorations extends FastifyRequestDecorations<FastifyRequest> {}
  interface ReplyDecorations extends FastifyReplyDecorations<FastifyReply> {}
  interface ScopeDecorations extends FastifyInstanceDecorations<FastifyInstance> {}
}

const passport = new Authenticator()
const app = createServer()
app.register(auth)
app.register(basicAuth, { validate: async (username, password) => { if (username !== password) throw new Error('no') } })
app.register(bearerAuth, { keys: ['a-key'], addHook: false })

// The runtime API: shortcuts, options with a handler, route(); one hook or several, with Enclave's own.
app.post('/login', { preValidation: passport.authenticate('local', { successRedirect: '/me' }) }, async () => 'unreached')
app.post('/login2', { preValidation: passport.authenticate(['admin', 'local']), handler: async (request) => request.user })
app.route({ method: 'POST', url: '/login3', preValidation: passport.authenticate('local'), handler: async (request) => request.user })
app.get('/either', { preHandler: app.auth([app.basicAuth, app.verifyBearerAuth!]) }, async () => ({ ok: true }))
app.get('/both', { onRequest: app.auth([app.basicAuth, app.verifyBearerAuth!], { relation: 'and' }) }, async () => ({ ok: true }))
app.get('/basic', { onRequest: app.basicAuth, preHandler: [app.basicAuth] }, async () => ({ ok: true }))
app.get('/bearer', { onRequest: app.verifyBearerAuth! }, async () => ({ ok: true }))
// Beside an inline hook, which is still typed as Enclave's (request.user from passport's declarations).
app.get('/me', {
  preValidation: [passport.authenticate('session'), async (request, reply) => { if (request.user === undefined) return reply.code(401).send() }],
}, async (request) => request.user)
// A hook written for Fastify by hand, in each of its forms.
function fastifyHook(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.headers['x-deny'] !== undefined) reply.code(403)
  done()
}
const asyncFastifyHook = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => { if (request.params.id === '0') await reply.code(404).send() }
app.get('/by-hand/:id', { onRequest: fastifyHook, preValidation: asyncFastifyHook, preHandler: [fastifyHook, fastifyHook] }, async (request) => request.params.id)

// A typed scope (lift with provides): the inline hook still reads its decorations.
const tenant = lift(async (scope) => { scope.decorateRequest('tenantId', '') }, { name: 'tenant', provides: { request: { tenantId: type<string>() } } })
app.register(tenant).get('/t', { preValidation: [passport.authenticate('local'), async (request) => { request.tenantId.trim() }] }, async (request) => request.tenantId)

// The decorator layer: the route decorators' options take them the same way.
@Route('/account')
export class AccountController {
  @Post('/login', { preValidation: passport.authenticate('local') }) login() { return 'unreached' }
  @Get('/keys', { onRequest: fastifyHook, preHandler: asyncFastifyHook }) keys() { return [] }
  @Route({ method: 'POST', path: '/logout', preValidation: passport.authenticate('session') }) logout() { return { out: true } }
}
@Module({ plugins: [auth], controllers: [AccountController] })
export class AccountModule {}
void lift(async (scope: Scope) => { scope.post('/scoped', { preValidation: passport.authenticate('local') }, async () => 'unreached') })

// Still refused: a hook whose parameters are neither Enclave's nor Fastify's, one wanting a
// fourth argument, request and reply swapped, a reply that is not one.
// @ts-expect-error [TS2322] is not assignable to type 'NotAFastifyHook | TypedRequestHook<{}, {}>
app.get('/w1', { preValidation: (request: number) => request }, async () => 1)
// @ts-expect-error [TS2322] is not assignable to type 'NotAFastifyHook | TypedRequestHook<{}, {}>
app.get('/w2', { onRequest: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, extra: string) => done() }, async () => 1)
// @ts-expect-error [TS2322] is not assignable to type 'NotAFastifyHook | TypedRequestHook<{}, {}>
app.get('/w3', { preHandler: (reply: FastifyReply, request: FastifyRequest) => reply.send(request.id) }, async () => 1)
// @ts-expect-error [TS2322] is not assignable to type 'NotAFastifyHook | TypedRequestHook<{}, {}>
app.route({ method: 'GET', url: '/w4', preHandler: (request: FastifyRequest, reply: string) => reply, handler: async () => 1 })
// @ts-expect-error [TS2322] is not assignable to type 'NotAFastifyHook | TypedRequestHook<{}, {}>
app.get('/w5', { preValidation: [passport.authenticate('local'), (request: { id: number }) => request.id] }, async () => 1)
@Route('/wrong')
export class WrongController {
  // @ts-expect-error [TS2322] is not assignable to type 'NotAFastifyHook | TypedRequestHook<{}, {}>
  @Post('/', { preValidation: (request: FastifyReply) => request }) post() { return 1 }
}
// An inline hook is typed as ever: a member no plugin declares does not compile.
// @ts-expect-error [TS2339] Property 'nope' does not exist on type
app.get('/w6', { preValidation: [passport.authenticate('local'), async (request) => request.nope] }, async () => 1)
// preParsing (and the later stages) take Enclave's hooks only, as before.
// @ts-expect-error [TS2322] is not assignable to type 'TypedRequestHook<{}, {}> | TypedRequestHook<{}, {}>[]
app.get('/w7', { preParsing: passport.authenticate('local') }, async () => 1)
