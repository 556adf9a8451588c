// @fastify/express 4 (its README: `await fastify.register(require('@fastify/express'))`, then `fastify.use()` of
// connect/express middleware and of an `express.Router()`, settings on `fastify.express`), compared with Fastify 5
// running the same plugin, over real HTTP (inject cannot carry it in either framework: Express re-parents the raw
// response to its own prototype, and light-my-request's response loses its body). The plugin's onRegister hook gives
// every child scope its own Express app by decorating `express` again there: Fastify lets a child shadow it, and
// Enclave takes it from an onRegister hook (docs/plugins.md, "The official plugins").
import 'reflect-metadata'
import { expect } from 'chai'
import cors from 'cors'
import express, { Router, type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from 'express'
import fastifyExpress from '@fastify/express'
import fastify5 from 'fastify5'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer, type Scope } from '../../src/runtime'
import { track } from '../support/servers'

interface UseApp { register: Function; get: Function; use(path: unknown, fn?: unknown): unknown; express: express.Express }

/** The README's app: cors and a header middleware for every route, an Express router, a child with its own middleware. */
async function declareShop(app: UseApp): Promise<void> {
  await app.register(fastifyExpress)
  app.express.set('etag', false)
  app.use(cors({ origin: 'https://shop.example' }))
  app.use((_req: ExpressRequest, res: ExpressResponse, next: NextFunction) => { res.setHeader('x-root-middleware', 'yes'); next() })
  const router = Router()
  router.use((_req, res, next) => { res.setHeader('x-router', 'yes'); next() })
  router.get('/legacy/hello', (_req, res) => { res.status(201).json({ hello: 'world' }) })
  router.get('/legacy/fail', (_req, res) => { res.status(400).json({ foo: 'bar' }) })
  app.use(router)
  app.get('/items', async () => [{ id: 1 }])
  await app.register(async (admin: UseApp) => {
    admin.use((req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
      if (req.headers['x-admin-key'] !== 'k') { res.statusCode = 401; res.setHeader('content-type', 'application/json'); res.end('{"error":"admin key"}'); return }
      res.setHeader('x-admin-middleware', 'yes'); next()
    })
    admin.get('/stats', async () => ({ orders: 3 }))
  }, { prefix: '/admin' })
  app.get('/after', async () => ({ after: true }))
}

const urls: Array<[path: string, headers?: Record<string, string>, method?: string]> = [
  ['/items', { origin: 'https://shop.example' }],
  ['/items', { origin: 'https://shop.example', 'access-control-request-method': 'POST' }, 'OPTIONS'],
  ['/legacy/hello'],
  ['/legacy/fail'],
  ['/admin/stats'],
  ['/admin/stats', { 'x-admin-key': 'k' }],
  ['/after'],
  ['/nowhere'],
]

const shown = ['access-control-allow-origin', 'access-control-allow-methods', 'x-root-middleware', 'x-router', 'x-admin-middleware', 'x-powered-by', 'etag']

async function answers(app: { listen(o: object): Promise<unknown>; server: import('node:http').Server }): Promise<unknown[]> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
  const out: unknown[] = []
  for (const [path, headers, method] of urls) {
    const res = await fetch(base + path, { method: method ?? 'GET', headers })
    const text = await res.text()
    const body = res.status === 404 ? (JSON.parse(text) as { statusCode: number }).statusCode : text
    out.push({ path, method: method ?? 'GET', status: res.status, ...Object.fromEntries(shown.map((h) => [h, res.headers.get(h)])), body })
  }
  return out
}

describe('@fastify/express in Enclave', function () {
  this.timeout(20_000)

  it('runs the README\'s middleware and Express router for the registering scope and its children, a child\'s middleware in that child only, as Fastify 5 answers', async () => {
    const ours = track(createServer())
    await declareShop(ours as unknown as UseApp)
    const reference = fastify5()
    try {
      await declareShop(reference as unknown as UseApp)
      const [enclave, fastify] = [await answers(ours), await answers(reference)]
      expect(enclave).to.deep.equal(fastify)
      // What that is: the router answers its own paths, the child's middleware refuses without its key.
      expect(enclave.find((a) => (a as { path: string }).path === '/legacy/hello')).to.include({ status: 201, 'x-router': 'yes', body: '{"hello":"world"}' })
      expect(enclave.filter((a) => (a as { path: string }).path === '/admin/stats').map((a) => (a as { status: number }).status)).to.deep.equal([401, 200])
      expect(enclave.find((a) => (a as { path: string }).path === '/after')).to.include({ status: 200, 'x-root-middleware': 'yes', 'x-admin-middleware': null })
    } finally { await reference.close() }
  })

  it('gives each child scope its own Express app through the plugin\'s onRegister hook: the parent\'s `express` is not the child\'s, and a grandchild gets one too', async () => {
    const app = track(createServer()) as unknown as UseApp & { ready(): Promise<unknown> }
    await app.register(fastifyExpress)
    const seen: Record<string, unknown> = { root: app.express }
    await app.register(async (child: UseApp) => {
      seen.child = child.express
      await child.register(async (grandchild: UseApp) => { seen.grandchild = grandchild.express })
    })
    await app.ready()
    expect(new Set(Object.values(seen)).size).to.equal(3)
    for (const value of Object.values(seen)) expect(value).to.be.a('function').and.have.property('use')
  })

  it('works from a module: a plugin entry that registers it and its middleware serves a controller\'s routes through them', async () => {
    @Route('/catalog')
    class CatalogController {
      @Get('/') list() { return [{ sku: 'A1' }] }
    }
    const withExpress = async (scope: Scope) => {
      await scope.register(fastifyExpress)
      ;(scope as unknown as UseApp).use(cors({ origin: '*' }))
    }
    @Module({ plugins: [Object.assign(withExpress, { [Symbol.for('skip-override')]: true })], controllers: [CatalogController] })
    class CatalogModule {}
    const app = track(await createApp(CatalogModule))
    await app.listen({ port: 0, host: '127.0.0.1' })
    const res = await fetch(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/catalog`, { headers: { origin: 'https://x.example' } })
    expect([res.status, res.headers.get('access-control-allow-origin'), await res.text()]).to.deep.equal([200, '*', '[{"sku":"A1"}]'])
  })
})
