// Fastify 5's per-route handlerTimeout (lib/route.js, lib/context.js): a route's own value replaces
// the server's, longer or shorter, and sets one where the server's is off; it must be an integer
// > 0. A serverless function has a platform timeout of its own: its slow routes get their own
// budget, the rest keep a short one. Every wait is bounded; no assertion is about how long anything took.
import 'reflect-metadata'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect } from 'chai'
import { createServer, type Scope, type ServerOptions } from '../../src/runtime'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'

const never = (): Promise<never> => new Promise(() => undefined)
const after = (ms: number, value: unknown): Promise<unknown> => new Promise((resolve) => setTimeout(() => resolve(value), ms))

/** A server whose error handler shows the timeout's code and message (the default 503 body hides them). */
function server(options: ServerOptions, routes: (app: Scope) => void): Scope {
  const app = createServer({ logger: false, ...options })
  app.setErrorHandler(async (error, _request, reply) => reply.code(503).send({ code: (error as { code?: string }).code, message: error.message }))
  routes(app)
  return app
}

const shown = (res: { json(): unknown }): { code?: string; message?: string } => res.json() as { code?: string; message?: string }

describe('per-route handlerTimeout (Fastify 5 route option)', () => {
  it("a route's shorter handlerTimeout answers 503 ENC_ERR_HANDLER_TIMEOUT with its own value while the server's 60 s default holds for the others", async () => {
    const app = server({}, (root) => {
      root.get('/stuck', { handlerTimeout: 100 }, never)
      root.get('/slowish', async () => after(300, { ok: true }))
    })
    const stuck = await app.inject({ url: '/stuck' })
    expect(stuck.statusCode).to.equal(503)
    expect(shown(stuck).code).to.equal('ENC_ERR_HANDLER_TIMEOUT')
    expect(shown(stuck).message).to.contain('(100 ms)')
    expect((await app.inject({ url: '/slowish' })).json()).to.deep.equal({ ok: true })
    await app.close()
  })

  it("a route's longer handlerTimeout lets it answer after the server's has passed; the server's still applies elsewhere", async () => {
    const app = server({ handlerTimeout: 100 }, (root) => {
      root.get('/report', { handlerTimeout: 10_000 }, async () => after(400, { done: true }))
      root.get('/stuck', never)
    })
    expect((await app.inject({ url: '/report' })).json()).to.deep.equal({ done: true })
    const stuck = await app.inject({ url: '/stuck' })
    expect(stuck.statusCode).to.equal(503)
    expect(shown(stuck).message).to.contain('(100 ms)')
    await app.close()
  })

  it("with the server's handlerTimeout off (0), a route's own still answers 503", async () => {
    const app = server({ handlerTimeout: 0 }, (root) => { root.get('/stuck', { handlerTimeout: 100 }, never) })
    const stuck = await app.inject({ url: '/stuck' })
    expect(stuck.statusCode).to.equal(503)
    expect(shown(stuck).code).to.equal('ENC_ERR_HANDLER_TIMEOUT')
    await app.close()
  })

  it('request.routeOptions.handlerTimeout is the route\'s own value, else the server\'s, as Fastify 5.12.8 shows them', async () => {
    type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any
    const shown = async (make: (options: Record<string, unknown>) => Any): Promise<unknown[]> => {
      const seen: unknown[] = []
      const app = make({ handlerTimeout: 5000 })
      const record = async (req: Any): Promise<object> => { seen.push(req.routeOptions.handlerTimeout); return {} }
      app.get('/own', { handlerTimeout: 250 }, record)
      app.get('/server', record)
      app.register(async (child: Any) => { child.post('/own', { handlerTimeout: 30_000 }, record) }, { prefix: '/p' })
      await app.ready()
      await app.inject({ url: '/own' })
      await app.inject({ url: '/server' })
      await app.inject({ method: 'POST', url: '/p/own' })
      await app.close()
      return seen
    }
    const theirs = await shown((options) => require('fastify5')(options))
    const ours = await shown((options) => createServer(options as never))
    expect(ours).to.deep.equal(theirs)
    expect(ours).to.deep.equal([250, 5000, 30_000])
  })

  it('a handlerTimeout that is not an integer > 0 is refused at declaration, naming the route (Fastify 5 throws FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT for each)', () => {
    for (const bad of [0, -1, 1.5, '100', null, Number.NaN, Infinity]) {
      const fastify5 = require('fastify5')()
      expect(() => fastify5.get('/x', { handlerTimeout: bad }, async () => 'x'), String(bad)).to.throw(/handlerTimeout/)
      const app = createServer({ logger: false })
      let error: (Error & { code?: string }) | undefined
      try { app.get('/x', { handlerTimeout: bad as never }, async () => 'x') } catch (caught) { error = caught as Error }
      expect(error?.code, String(bad)).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error?.message, String(bad)).to.contain('GET /x').and.contain('handlerTimeout option must be an integer > 0')
    }
  })

  it('a near miss of handlerTimeout (a slip of the keyboard) is refused, not taken for a plugin option', () => {
    const app = createServer({ logger: false })
    expect(() => app.get('/x', { handlerTimout: 100 } as never, async () => 'x')).to.throw(/unknown route option 'handlerTimout'.*handlerTimeout/)
  })

  it('a controller route takes handlerTimeout in its decorator options; a bad value fails createApp() naming the route', async () => {
    @Route('/jobs')
    class Jobs {
      @Get('/stuck', { handlerTimeout: 100 }) stuck(): Promise<never> { return never() }
      @Get('/fine') fine(): { ok: boolean } { return { ok: true } }
    }
    @Module({ controllers: [Jobs] })
    class Root {}
    const app = await createApp(Root, { logger: false })
    expect((await app.inject({ url: '/jobs/stuck' })).statusCode).to.equal(503)
    expect((await app.inject({ url: '/jobs/fine' })).statusCode).to.equal(200)
    await app.close()

    @Route('/bad')
    class Bad { @Get('/', { handlerTimeout: 0 }) get(): string { return 'x' } }
    @Module({ controllers: [Bad] })
    class BadRoot {}
    let error: (Error & { code?: string }) | undefined
    try { await createApp(BadRoot, { logger: false }) } catch (caught) { error = caught as Error }
    expect(error?.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error?.message).to.contain('/bad').and.contain('handlerTimeout')
  })
})

describe('handlerTimeout in a process that only injects (a Lambda handler, a script)', () => {
  it('a stuck handler reached by inject() (either form) is answered 503 by handlerTimeout instead of the process ending with the request unanswered', function () {
    this.timeout(20000)
    // Nothing but the pending inject(): no socket, no timer of the script's own. Fastify 5's
    // handlerTimeout is a ref'd setTimeout; Enclave's sweep is unref'd, so the inject holds it.
    const child = `
      const { createServer } = require(${JSON.stringify(join(__dirname, '..', '..', 'src'))})
      const app = createServer({ logger: false, handlerTimeout: 100 })
      app.get('/stuck', () => new Promise(() => undefined))
      app.get('/route-own', { handlerTimeout: 100 }, (request, reply) => { /* forgot reply.send() */ })
      process.on('exit', () => console.log('exit'))
      ;(async () => {
        console.log('stuck', (await app.inject({ url: '/stuck' })).statusCode)
        console.log('chain', (await app.inject().get('/stuck').end()).statusCode)
        app.inject({ url: '/route-own' }, (error, res) => console.log('route-own', error ?? res.statusCode))
      })()
    `
    const run = spawnSync(process.execPath, ['-e', child], { encoding: 'utf8', timeout: 15000 })
    expect(run.stdout.trim().split('\n'), run.stderr).to.deep.equal(['stuck 503', 'chain 503', 'route-own 503', 'exit'])
  })
})
