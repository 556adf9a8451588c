// @fastify/flash 6 (its README: registered after @fastify/secure-session, `request.flash(type, message)` to keep a
// message for the next request, `reply.flash(type)` to take it, once), compared with Fastify 5 running the same
// plugins; in a module too. Its fastify-plugin metadata asks for a `session` request decorator: without a session
// plugin before it, boot fails naming it, as Fastify 5's does.
import 'reflect-metadata'
import { expect } from 'chai'
import flash from '@fastify/flash'
import secureSession from '@fastify/secure-session'
import fastify5 from 'fastify5'
import { Get, Module, Post, Reply, Req, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { Reply as EnclaveReply, Request as EnclaveRequest } from '../../src/runtime'
import { bootError, declaredOnBoth, server, track } from '../support/servers'

// A fixed 32-byte key (secure-session's `key` form): its `secret` form derives one with a deliberately slow hash.
const sessionOptions = { key: Buffer.alloc(32, 9), cookie: { path: '/' } }

interface FlashRequest { flash(type: string, ...message: unknown[]): number; body: unknown }
interface FlashReply { flash(type?: string): unknown; redirect(url: string): unknown }
interface Declarer { register: Function; get: Function; post: Function }

/** A login form: a failed POST keeps an error for the page it redirects to, which shows it once. */
function declareLogin(app: Declarer): void {
  app.register(secureSession, sessionOptions)
  app.register(flash)
  app.post('/login', async (request: FlashRequest, reply: FlashReply) => {
    request.flash('error', 'wrong password for %s', (request.body as { user: string }).user)
    request.flash('info', ['try again', 'or reset it'])
    return reply.redirect('/login')
  })
  app.get('/login', async (_request: unknown, reply: FlashReply) => ({ error: reply.flash('error'), rest: reply.flash() }))
}

type Inject = (options: { method?: string; url: string; payload?: object; headers?: Record<string, string> }) => Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>

/** POST then GET twice, carrying the session cookie: the status, location and bodies seen. */
async function visit(inject: Inject): Promise<unknown[]> {
  const cookieOf = (res: { headers: Record<string, unknown> }): string | undefined => {
    const set = res.headers['set-cookie']
    const all = Array.isArray(set) ? set as string[] : typeof set === 'string' ? [set] : []
    return all.find((c) => c.startsWith('session='))?.split(';')[0]
  }
  let cookie = ''
  const seen: unknown[] = []
  const posted = await inject({ method: 'POST', url: '/login', payload: { user: 'ada' } })
  cookie = cookieOf(posted) ?? cookie
  seen.push([posted.statusCode, posted.headers.location])
  for (let i = 0; i < 2; i++) {
    const page = await inject({ url: '/login', headers: { cookie } })
    cookie = cookieOf(page) ?? cookie
    seen.push([page.statusCode, JSON.parse(page.body)])
  }
  return seen
}

describe('@fastify/flash in Enclave', () => {
  it('keeps a flashed message for the next request and gives it once (format arguments, arrays, all types at once), as Fastify 5 does', async () => {
    const { app, reference } = declaredOnBoth(declareLogin, fastify5())
    try {
      const ours = await visit((o) => app.inject(o as never) as never)
      expect(ours).to.deep.equal(await visit((o) => reference.inject(o as never) as never))
      expect(ours).to.deep.equal([
        [302, '/login'],
        [200, { error: ['wrong password for ada'], rest: { info: ['try again', 'or reset it'] } }],
        [200, { error: [], rest: {} }],
      ])
    } finally { await reference.close() }
  })

  it('without a session plugin before it, boot fails naming the missing `session` request decorator (ENC_ERR_PLUGIN_MISSING_DECORATOR), as Fastify 5 refuses it', async () => {
    const app = server()
    app.register(flash)
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_MISSING_DECORATOR')
    expect(error.message).to.include("The decorator 'session' required by '@fastify/flash' is not present in Request")
    const reference = fastify5()
    reference.register(flash)
    try {
      const theirs = await reference.ready().then(() => null, (e: Error & { code?: string }) => e)
      expect(theirs?.message).to.include("The decorator 'session' required by '@fastify/flash' is not present in Request")
    } finally { await reference.close() }
  })

  it('works from a module: plugins listed session first, a controller flashing and reading through @Req() and @Reply()', async () => {
    @Route('/login')
    class LoginController {
      @Post('/')
      fail(@Req() request: EnclaveRequest, @Reply() reply: EnclaveReply) {
        ;(request as unknown as FlashRequest).flash('error', 'wrong password')
        return reply.redirect('/login')
      }

      @Get('/')
      page(@Reply() reply: EnclaveReply) { return { error: (reply as unknown as FlashReply).flash('error'), rest: (reply as unknown as FlashReply).flash() } }
    }
    @Module({ plugins: [[secureSession, sessionOptions], flash], controllers: [LoginController] })
    class LoginModule {}
    const app = track(await createApp(LoginModule))
    expect(await visit((o) => app.inject(o as never) as never)).to.deep.equal([
      [302, '/login'],
      [200, { error: ['wrong password'], rest: {} }],
      [200, { error: [], rest: {} }],
    ])
  })
})
