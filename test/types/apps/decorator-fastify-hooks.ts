// Type app (a program of its own; checked by ../type-fixtures.test.ts). Never run.
// The hook decorators take hooks typed for Fastify with no cast, as a route's options do
// (./fastify-typed-hooks.ts): @OnRequest/@PreValidation/@PreHandler take @fastify/passport's
// `authenticate()`, @fastify/auth's `app.auth([...])`, @fastify/basic-auth's `app.basicAuth`,
// @fastify/rate-limit's `app.rateLimit()`, @fastify/csrf-protection's `app.csrfProtection` and a
// hook written `(request: FastifyRequest, reply: FastifyReply, done)`, several different ones in
// one decorator, beside Enclave's own hooks and guard classes; @OnResponse/@OnTimeout,
// @PreSerialization/@OnSend and @OnError take Fastify's hook of their stage. A hook of neither
// shape, or one of another stage's shape, still does not compile (src/runtime/fastify-typed-hook.ts).
import 'reflect-metadata'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { Authenticator } from '@fastify/passport'
import auth from '@fastify/auth'
import basicAuth from '@fastify/basic-auth'
import rateLimit from '@fastify/rate-limit'
import csrf from '@fastify/csrf-protection'
import {
  Get, Module, OnError, OnRequest, OnResponse, OnSend, OnTimeout, PreHandler, PreSerialization, PreValidation, Route, createServer, injectable,
  type FastifyInstanceDecorations, type FastifyReplyDecorations, type FastifyRequestDecorations, type Reply, type Request,
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
app.register(rateLimit, { global: false })
app.register(csrf)

// Hooks written for Fastify by hand, one per stage shape.
function denyFlagged(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.headers['x-deny'] !== undefined) reply.code(403)
  done()
}
const needsId = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => { if (request.params.id === '0') await reply.code(404).send() }
const logTime = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => { request.log.info({ ms: reply.elapsedTime }); done() }
const wrap = async (_request: FastifyRequest, _reply: FastifyReply, payload: unknown) => ({ data: payload })
const tag = (_request: FastifyRequest, reply: FastifyReply, payload: string, done: (error: FastifyError | null, payload?: string) => void) => { reply.header('x-len', payload.length); done(null, payload) }
const report = async (request: FastifyRequest, _reply: FastifyReply, error: FastifyError) => { request.log.warn({ code: error.code, status: error.statusCode }) }

@injectable() class ApiKeyGuard { handle(request: Request): boolean { return request.headers['x-key'] === 'k1' } }

@OnRequest(app.rateLimit({ max: 10, timeWindow: '1 minute' }))
@Route('/account')
export class AccountController {
  @PreValidation(passport.authenticate('local')) @Get('/login') login() { return 'unreached' }
  // Two different Fastify-typed hooks in one decorator, beside Enclave's own hook and a guard class.
  @PreHandler(app.basicAuth, denyFlagged, async (request: Request, reply: Reply) => { if (request.headers['x-no'] !== undefined) return reply.code(401).send() }, ApiKeyGuard)
  @Get('/keys') keys() { return [] }
  @OnRequest(app.auth([app.basicAuth, app.csrfProtection], { relation: 'and' }), app.csrfProtection, needsId) @Get('/keys/:id') key() { return {} }
  // An inline hook is still typed as Enclave's, in a decorator of its own beside the Fastify-typed
  // one (request.user from passport's declarations); in one call with them too (./mixed-hook-lists.ts).
  @PreValidation(passport.authenticate('session')) @PreValidation(async (request, reply) => { if (request.user === undefined) return reply.code(401).send() })
  @Get('/me') me() { return {} }
  @OnResponse(logTime) @OnResponse(async (request, reply) => { request.log.info({ ms: reply.getResponseTime() }) })
  @OnTimeout(logTime)
  @PreSerialization(wrap) @PreSerialization(async (_request, _reply, payload) => ({ data: payload }))
  @OnSend(tag)
  @OnError(report) @OnError(async (_request, _reply, error) => { void error.message })
  @Get('/staged') staged() { return [] }
}
@OnRequest(denyFlagged, passport.authenticate('session'))
@Module({ providers: [ApiKeyGuard], controllers: [AccountController] })
export class AccountModule {}

// Still refused: a hook of neither shape, one wanting more arguments than its stage gives, request
// and reply swapped, another stage's shape, a class with no handle(), and an inline hook reading
// a member no plugin declares.
class Auth { check() { return true } }
@Route('/wrong')
export class WrongController {
  // @ts-expect-error [TS2345] is not assignable to parameter of type '[(request: number) => number] & [NotAFastifyHook]'
  @OnRequest((request: number) => request) @Get('/1') w1() { return 1 }
  // @ts-expect-error [TS2345] is not assignable to type 'NotAFastifyHook'
  @PreValidation(passport.authenticate('local'), (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, extra: string) => done()) @Get('/2') w2() { return 1 }
  // @ts-expect-error [TS2345] is not assignable to type 'NotAFastifyHook'
  @PreHandler((reply: FastifyReply, request: FastifyRequest) => reply.send(request.id)) @Get('/3') w3() { return 1 }
  // @ts-expect-error [TS2345] is not assignable to type 'NotAFastifyPayloadHook'
  @OnSend((request: FastifyRequest, reply: string, payload: unknown) => payload) @Get('/4') w4() { return 1 }
  // @ts-expect-error [TS2345] is not assignable to type 'NotAFastifyErrorHook'
  @OnError((request: FastifyRequest, reply: FastifyReply, error: string) => error) @Get('/5') w5() { return 1 }
  // @ts-expect-error [TS2345] is not assignable to type 'NotAFastifyHook'
  @OnResponse((request: FastifyRequest, reply: FastifyReply, payload: unknown, done: HookHandlerDoneFunction) => done()) @Get('/6') w6() { return 1 }
  // @ts-expect-error [TS2345] Argument of type 'typeof Auth' is not assignable to parameter of type
  @OnRequest(Auth) @Get('/7') w7() { return 1 }
  // @ts-expect-error [TS2339] Property 'nope' does not exist on type
  @PreHandler(async (request) => request.nope) @Get('/8') w8() { return 1 }
  // @ts-expect-error [TS2339] Property 'nope' does not exist on type
  @OnSend(async (request) => request.nope) @Get('/9') w9() { return 1 }
}
