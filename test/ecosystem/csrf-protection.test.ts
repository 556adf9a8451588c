import { expect } from 'chai'
import request from 'supertest'
import cookie from '@fastify/cookie'
import csrf from '@fastify/csrf-protection'
import formbody from '@fastify/formbody'
import session from '@fastify/session'
import 'reflect-metadata'
import { lift, type Reply, type Request, type Scope } from '../../src/runtime'
import { Get, Module, OnRequest, Post, Reply as ReplyParam, Route, injectable } from '../../src'
import { createApp } from '../../src/modules'
import { modes, topology } from './helpers'

type CsrfScope = Scope & { csrfProtection?: (...args: unknown[]) => unknown }
type CsrfReply = Reply & { generateCsrf(opts?: Record<string, unknown>): string }

/** The README's setup: @fastify/cookie, then @fastify/csrf-protection (and formbody for the form post). */
function cookieAndCsrf(options: Record<string, unknown> = {}) {
  return lift(async (scope: Scope) => {
    await scope.register(cookie as never, { secret: 'a-cookie-secret-long-enough' })
    await scope.register(formbody as never)
    await scope.register(csrf, options)
  })
}

/** The README's other setup: the secret in a @fastify/session session instead of a cookie of its own. */
const sessionAndCsrf = lift(async (scope: Scope) => {
  await scope.register(cookie as never)
  await scope.register(session, { secret: 'a-secret-with-at-least-32-characters!!', cookie: { secure: false } })
  await scope.register(csrf, { sessionPlugin: '@fastify/session' })
})

// @fastify/csrf-protection README: `reply.generateCsrf()` makes a token (its secret in the `_csrf`
// cookie); `fastify.csrfProtection` as a route's onRequest hook checks the token from the body's
// `_csrf` (as a preHandler) or a csrf-token header, 403 FST_CSRF_MISSING_SECRET / FST_CSRF_INVALID_TOKEN otherwise.
function routes(scope: Scope): void {
  const protect = (scope as CsrfScope).csrfProtection
  if (typeof protect !== 'function') {
    scope.get('/token', async () => ({ csrf: false }))
    return
  }
  scope.get('/token', async (_req, reply) => ({ token: (reply as CsrfReply).generateCsrf() }))
  scope.post('/transfer', { onRequest: protect as never }, async (req) => ({ done: true, body: req.body }))
  // A token in the body is there only once it is parsed: the check goes in preHandler.
  scope.post('/form', { preHandler: protect as never }, async (req) => ({ done: true, body: req.body }))
}

const secretCookie = (res: { headers: Record<string, unknown> }): string =>
  ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('_csrf='))!.split(';')[0]

describe('@fastify/csrf-protection + @fastify/cookie in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('offers generateCsrf() and csrfProtection in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: cookieAndCsrf(), everywhere: routes })
        for (const path of ['/inside/token', '/inside/child/token']) {
          const res = await request(app.server).get(path).expect(200)
          expect(res.body.token, path).to.be.a('string').with.length.above(10)
          expect(secretCookie(res)).to.match(/^_csrf=.+/)
        }
        for (const path of ['/token', '/outside/token']) {
          const res = await request(app.server).get(path).expect(200, { csrf: false })
          expect(res.headers['set-cookie'], path).to.equal(undefined)
        }
      })

      it('accepts a request with its token in a header or the form body, refuses one without or with a wrong one', async () => {
        const app = await topology(mode, { plugin: cookieAndCsrf(), everywhere: routes })
        const issued = await request(app.server).get('/inside/token').expect(200)
        const secret = secretCookie(issued)
        const token = issued.body.token as string
        await request(app.server).post('/inside/transfer').set('cookie', secret).set('csrf-token', token).send({ amount: 1 })
          .expect(200, { done: true, body: { amount: 1 } })
        await request(app.server).post('/inside/child/form').set('cookie', secret).type('form').send({ _csrf: token, amount: '2' })
          .expect(200, { done: true, body: { _csrf: token, amount: '2' } })

        const missing = await request(app.server).post('/inside/transfer').set('csrf-token', token).send({}).expect(403)
        expect(missing.body).to.include({ statusCode: 403, code: 'FST_CSRF_MISSING_SECRET', message: 'Missing csrf secret' })
        const wrong = await request(app.server).post('/inside/transfer').set('cookie', secret).set('csrf-token', 'forged').send({}).expect(403)
        expect(wrong.body).to.include({ statusCode: 403, code: 'FST_CSRF_INVALID_TOKEN', message: 'Invalid csrf token' })
        await request(app.server).post('/inside/transfer').set('cookie', secret).send({}).expect(403)
      })

      it('with sessionPlugin @fastify/session, keeps the secret in the session', async () => {
        const app = await topology(mode, { plugin: sessionAndCsrf, everywhere: routes })
        const issued = await request(app.server).get('/inside/token').expect(200)
        const sid = ((issued.headers['set-cookie'] as unknown as string[]) ?? []).find((c) => c.startsWith('sessionId='))!.split(';')[0]
        expect(((issued.headers['set-cookie'] as unknown as string[]) ?? []).some((c) => c.startsWith('_csrf='))).to.equal(false)
        await request(app.server).post('/inside/child/transfer').set('cookie', sid).set('csrf-token', issued.body.token).send({}).expect(200)
        await request(app.server).post('/inside/child/transfer').set('csrf-token', issued.body.token).send({}).expect(403)
        await request(app.server).get('/outside/token').expect(200, { csrf: false })
      })

      it('keeps the secret in a signed cookie with cookieOpts.signed', async () => {
        const app = await topology(mode, { plugin: cookieAndCsrf({ cookieOpts: { signed: true, path: '/' } }), everywhere: routes })
        const issued = await request(app.server).get('/inside/token').expect(200)
        const secret = secretCookie(issued)
        expect(secret).to.match(/^_csrf=[^.]+\..+/)
        await request(app.server).post('/inside/transfer').set('cookie', secret).set('x-csrf-token', issued.body.token).send({}).expect(200)
      })
    })
  }
  // docs/plugins.md "In a controller": a decorator cannot name fastify.csrfProtection, so a guard
  // class calls it with its done; the plugin's 403 refuses, a valid token passes.
  it('in a controller, a guard class that hands csrfProtection its done refuses with the plugin\'s 403 and passes a valid token', async () => {
    @injectable() class CsrfCheck {
      handle(request: Request, reply: Reply, done: (error?: Error) => void): void {
        (request.server as CsrfScope).csrfProtection!(request, reply, done)
      }
    }
    @Route('/rooms') class Rooms {
      @Get('/csrf') token(@ReplyParam() reply: Reply) { return { token: (reply as CsrfReply).generateCsrf() } }
      @OnRequest(CsrfCheck) @Post('/archive') archive() { return { archived: true } }
    }
    @Module({ plugins: [cookieAndCsrf()], controllers: [Rooms], providers: [CsrfCheck] }) class RoomsModule {}
    const app = await createApp(RoomsModule)
    try {
      const issued = await request(app.server).get('/rooms/csrf').expect(200)
      const secret = secretCookie(issued)
      const missing = await request(app.server).post('/rooms/archive').set('cookie', secret).send({}).expect(403)
      expect(missing.body).to.include({ code: 'FST_CSRF_INVALID_TOKEN' })
      await request(app.server).post('/rooms/archive').set('cookie', secret).set('x-csrf-token', issued.body.token).send({}).expect(200, { archived: true })
    } finally {
      await app.close()
    }
  })
})
