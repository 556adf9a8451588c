// docs/migrating-from-express.md, "Coming from Express": each row of its table and each claim of its middleware paragraph,
// as an Express developer would write the code (newcomer17: an Express team building a service
// from the tarball).
import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import cors from 'cors'
import middie from '@fastify/middie'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { HttpError, type Scope } from '../../src'
import { bootError, server } from '../support/servers'

type Next = (error?: unknown) => void
type UseScope = Scope & { use(pathOrFn: string | Function, fn?: Function): UseScope }

describe('docs/migrating-from-express.md, "Coming from Express": what an Express habit becomes', () => {
  it('listen() without a host listens on 127.0.0.1, not every interface as Express does', async () => {
    const app = server()
    app.get('/', async () => 'ok')
    const address = await app.listen({ port: 0 })
    expect(address).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('a returned value is the answer: an object as JSON, a string as text/plain; params are strings', async () => {
    const app = server()
    app.get('/users/:id', async (req) => ({ id: (req.params as { id: string }).id }))
    app.get('/text', async () => 'hello')
    await request(app.server).get('/users/7').expect(200, { id: '7' }).expect('content-type', 'application/json; charset=utf-8')
    await request(app.server).get('/text').expect(200, 'hello').expect('content-type', 'text/plain; charset=utf-8')
  })

  it('res.status(201).json(body) is reply.code(201).send(body) (reply.status() the same); res.sendStatus(204) is reply.code(204).send()', async () => {
    const app = server()
    app.post('/created', async (_req, reply) => reply.code(201).send({ made: true }))
    app.post('/status', async (_req, reply) => reply.status(201).send({ made: true }))
    app.delete('/gone', async (_req, reply) => reply.code(204).send())
    await request(app.server).post('/created').expect(201, { made: true })
    await request(app.server).post('/status').expect(201, { made: true })
    const gone = await request(app.server).delete('/gone').expect(204)
    expect(gone.text).to.equal('')
  })

  it('reply has no json() or sendStatus(): TypeScript refuses them (TS2339)', () => {
    const app = server()
    app.get('/typed', async (_req, reply) => {
      // @ts-expect-error TS2339: Property 'json' does not exist: reply.code(404).send(body) instead
      reply.code(404).json({ missing: true })
      // @ts-expect-error TS2339: Property 'sendStatus' does not exist: reply.code(204).send() instead
      reply.sendStatus(204)
    })
  })

  it('res.set / res.type / res.redirect are reply.header / reply.type / reply.redirect (302)', async () => {
    const app = server()
    app.get('/page', async (_req, reply) => reply.header('x-powered-by', 'none').type('text/html').send('<p>hi</p>'))
    app.get('/old', async (_req, reply) => reply.redirect('/page'))
    await request(app.server).get('/page').expect(200, '<p>hi</p>').expect('x-powered-by', 'none').expect('content-type', 'text/html')
    await request(app.server).get('/old').expect(302).expect('location', '/page')
  })

  it('next(err) is a throw: the error\'s status or statusCode (http-errors style) is the answer\'s, a 4xx shows its message', async () => {
    const app = server()
    app.get('/http-error', async () => { throw new HttpError(404, 'no such user') })
    app.get('/status-prop', async () => { throw Object.assign(new Error('bad page'), { status: 422 }) })
    app.get('/plain', async () => { throw new Error('db password is hunter2') })
    await request(app.server).get('/http-error').expect(404, { statusCode: 404, error: 'Not Found', message: 'no such user' })
    await request(app.server).get('/status-prop').expect(422, { statusCode: 422, error: 'Unprocessable Entity', message: 'bad page' })
    await request(app.server).get('/plain').expect(500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
  })

  it('error middleware is setErrorHandler(), the last 404 middleware is setNotFoundHandler()', async () => {
    const app = server()
    app.get('/fails', async () => { throw Object.assign(new Error('out of stock'), { statusCode: 409 }) })
    app.setErrorHandler(async (error, _req, reply) => reply.code((error as { statusCode?: number }).statusCode ?? 500).send({ oops: (error as Error).message }))
    app.setNotFoundHandler(async (req, reply) => reply.code(404).send({ nothing: req.url }))
    await request(app.server).get('/fails').expect(409, { oops: 'out of stock' })
    await request(app.server).get('/nowhere').expect(404, { nothing: '/nowhere' })
  })

  it('your own middleware is a hook: it runs for every route of its scope, also one declared before it; throwing refuses', async () => {
    const app = server()
    app.get('/early', async (req) => ({ user: (req as unknown as { user: string }).user }))
    app.addHook('onRequest', async (req) => {
      if (req.headers['x-token'] !== 'secret') throw new HttpError(401, 'token required')
      ;(req as unknown as { user: string }).user = 'ada'
    })
    await request(app.server).get('/early').expect(401, { statusCode: 401, error: 'Unauthorized', message: 'token required' })
    await request(app.server).get('/early').set('x-token', 'secret').expect(200, { user: 'ada' })
  })

  it('a preHandler hook sees the parsed body (express.json() is built in): bad JSON is a 400, another type a 415', async () => {
    const app = server()
    const seen: unknown[] = []
    app.addHook('preHandler', async (req) => { seen.push(req.body) })
    app.post('/items', async (req) => req.body)
    await request(app.server).post('/items').send({ name: 'pen' }).expect(200, { name: 'pen' })
    expect(seen).to.deep.equal([{ name: 'pen' }])
    await request(app.server).post('/items').set('content-type', 'application/json').send('{bad').expect(400)
    await request(app.server).post('/items').set('content-type', 'application/x-www-form-urlencoded').send('name=pen').expect(415)
  })

  it('express.Router() is a plugin with a prefix: its hooks stay inside it', async () => {
    const app = server()
    app.register(async (api) => {
      api.addHook('onRequest', async (_req, reply) => { reply.header('x-api', '1') })
      api.get('/items', async () => [])
    }, { prefix: '/api' })
    app.get('/health', async () => 'ok')
    await request(app.server).get('/api/items').expect(200, []).expect('x-api', '1')
    const health = await request(app.server).get('/health').expect(200, 'ok')
    expect(health.headers['x-api']).to.equal(undefined)
  })

  it('req.query is parsed flat: a repeated key is an array, filter[name] is a key of its own (no qs nesting); strings unless a schema coerces', async () => {
    const app = server()
    app.get('/raw', async (req) => req.query)
    app.get('/paged', { schema: { querystring: { type: 'object', properties: { page: { type: 'integer', minimum: 1, default: 1 } } } } }, async (req) => req.query)
    await request(app.server).get('/raw?tag=a&tag=b&filter[name]=x&page=2').expect(200, { tag: ['a', 'b'], 'filter[name]': 'x', page: '2' })
    await request(app.server).get('/paged?page=2').expect(200, { page: 2 })
    await request(app.server).get('/paged').expect(200, { page: 1 })
    await request(app.server).get('/paged?page=abc').expect(400, { statusCode: 400, error: 'Bad Request', message: 'querystring/page should be integer' })
  })

  it('supertest(app.server) works without await app.ready(): the first request boots the app, as inject() does (Fastify 3 answers 404)', async () => {
    const app = server()
    app.get('/x', async () => ({ ok: true }))
    app.addHook('onRequest', async (_req, reply) => { reply.header('x-hook', 'ran') })
    await request(app.server).get('/x').expect(200, { ok: true }).expect('x-hook', 'ran')
    await request(app.server).get('/missing').expect(404)
    expect(() => app.get('/late', async () => 'late')).to.throw().with.property('code', 'ENC_ERR_SCOPE_BOOTED')
  })

  it('a request that arrives before the boot has its URL rewritten once (rewriteUrl), not again when it is served after the boot', async () => {
    const app = server({ rewriteUrl: (req) => `/api${req.url}` })
    app.get('/api/x', async () => ({ ok: true }))
    await request(app.server).get('/x').expect(200, { ok: true })
    await request(app.server).get('/x').expect(200, { ok: true })
  })

  it('requests that arrive together before the boot are all served, once it is done', async () => {
    const app = server()
    let boots = 0
    app.addHook('onReady', async () => { boots++ })
    app.get('/x', async () => ({ ok: true }))
    const answers = await Promise.all([1, 2, 3].map(() => request(app.server).get('/x')))
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200])
    expect(boots).to.equal(1)
  })

  it('a request that arrives before a boot that fails is a 500, and the boot error is logged', async () => {
    const logged: unknown[] = []
    const log = { level: 'error', fatal() {}, error(...args: unknown[]) { logged.push(args[0]) }, warn() {}, info() {}, debug() {}, trace() {}, child() { return log } }
    const app = server({ logger: log as never })
    app.register(async () => { throw new Error('cannot reach the database') })
    app.get('/x', async () => ({ ok: true }))
    await request(app.server).get('/x').expect(500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    expect(JSON.stringify(logged.map((entry) => (entry as { err?: Error }).err?.message))).to.contain('cannot reach the database')
    expect((await bootError(app)).message).to.contain('cannot reach the database')
  })
})

describe('docs/migrating-from-express.md, "Coming from Express": connect middleware through @fastify/middie', () => {
  it('use(cors()) runs the middleware as it is; a middleware that calls next(err) answers with the error\'s status', async () => {
    const app = server() as UseScope
    await app.register(middie)
    app.use(cors({ origin: 'https://app.example' }))
    app.use('/admin', (_req: IncomingMessage, _res: ServerResponse, next: Next) => next(Object.assign(new Error('admins only'), { status: 403 })))
    app.get('/items', async () => [])
    app.get('/admin/stats', async () => ({}))
    await request(app.server).get('/items').set('origin', 'https://app.example').expect(200, []).expect('access-control-allow-origin', 'https://app.example')
    await request(app.server).get('/admin/stats').expect(403, { statusCode: 403, error: 'Forbidden', message: 'admins only' })
    await request(app.server).get('/nowhere').set('origin', 'https://app.example').expect(404).expect('access-control-allow-origin', 'https://app.example')
  })

  it('a catch-all middleware meant to run after the routes runs before every one of them', async () => {
    const app = server() as UseScope
    await app.register(middie)
    app.get('/items', async () => [])
    app.use((_req: IncomingMessage, res: ServerResponse) => { res.statusCode = 404; res.end('not found') })
    await request(app.server).get('/items').expect(404, 'not found')
  })

  it('an Express error middleware (err, req, res, next) given to use() is refused with ENC_ERR_PLUGIN_ERROR_MIDDLEWARE, not a 500 on every request', async () => {
    const app = server() as UseScope
    await app.register(middie)
    app.get('/ok', async () => ({ ok: true }))
    let error: (Error & { code?: string }) | undefined
    try {
      app.use(function handleErrors(err: Error, _req: IncomingMessage, res: ServerResponse, _next: Next) { res.statusCode = 500; res.end(err.message) })
    } catch (thrown) {
      error = thrown as Error & { code?: string }
    }
    expect(error?.code).to.equal('ENC_ERR_PLUGIN_ERROR_MIDDLEWARE')
    expect(error?.message).to.contain("'handleErrors'").and.contain('root').and.contain('setErrorHandler()').and.contain('setNotFoundHandler()')
    await request(app.server).get('/ok').expect(200, { ok: true })
  })

  it('the error middleware is refused with a path too, and in a child scope (middie hands its use() down)', async () => {
    const app = server() as UseScope
    await app.register(middie)
    const codes: unknown[] = []
    app.register(async (child) => {
      try { (child as UseScope).use('/x', (_e: unknown, _q: unknown, _s: unknown, _n: unknown) => undefined) } catch (e) { codes.push((e as { code?: string }).code) }
      ;(child as UseScope).use('/x', (_q: unknown, _s: unknown, next: Next) => next())
    }, { prefix: '/child' })
    await app.ready()
    expect(codes).to.deep.equal(['ENC_ERR_PLUGIN_ERROR_MIDDLEWARE'])
  })

  it('without @fastify/middie, use() of an error middleware still names the missing plugin (ENC_ERR_PLUGIN_MISSING_MIDDLEWARE)', () => {
    const app = server() as UseScope
    expect(() => app.use((_e: unknown, _q: unknown, _s: unknown, _n: unknown) => undefined)).to.throw().with.property('code', 'ENC_ERR_PLUGIN_MISSING_MIDDLEWARE')
  })
})
