import { expect } from 'chai'
import request from 'supertest'
import cors from 'cors'
import helmet from 'helmet'
import { fp } from '../support/scope-plugin'
import middie from '@fastify/middie'
import { affected, modes, topology, unaffected } from './helpers'
import type { Scope } from '../../src/runtime'
import { bootError, server } from '../runtime/helpers'

type UseScope = Scope & { use(path: string | Function, fn?: Function): UseScope }

// @fastify/middie README: `await fastify.register(middie)` then `fastify.use(middleware)` runs
// connect/express middleware (here `cors` and `helmet`) in an onRequest hook; `use(path, fn)`
// limits one to a path. A module lists the two steps as one fastify-plugin-wrapped plugin.
const withMiddleware = fp(async function withMiddleware(scope: Scope) {
  await scope.register(middie)
  const app = scope as UseScope
  app.use(cors({ origin: 'https://app.example' }) as never)
  app.use(helmet({ contentSecurityPolicy: false }) as never)
  app.use('/probe', ((req: { url: string }, res: { setHeader(k: string, v: string): void }, next: () => void) => { res.setHeader('x-path-middleware', req.url); next() }) as never)
})

describe('@fastify/middie with connect middleware in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('runs cors and helmet middleware in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: withMiddleware })
        for (const path of affected) {
          const res = await request(app.server).get(path).set('origin', 'https://app.example').expect(200, { ok: true })
          expect(res.headers['access-control-allow-origin'], path).to.equal('https://app.example')
          expect(res.headers['x-content-type-options'], path).to.equal('nosniff')
        }
        for (const path of unaffected) {
          const res = await request(app.server).get(path).set('origin', 'https://app.example').expect(200)
          expect(res.headers['access-control-allow-origin'], path).to.equal(undefined)
          expect(res.headers['x-content-type-options'], path).to.equal(undefined)
        }
      })

      // As in Fastify, onRequest hooks of an encapsulated context run only for its routes (an
      // unrouted OPTIONS goes to the root's 405/404): the context declares the OPTIONS route.
      it('lets a middleware answer on its own: the cors preflight ends the response, the route never runs', async () => {
        let routeRan = false
        const app = await topology(mode, { plugin: withMiddleware, inside: (s) => { s.options('/probe', async () => { routeRan = true; return { route: true } }) } })
        const res = await request(app.server).options('/inside/probe').set('origin', 'https://app.example').set('access-control-request-method', 'GET').expect(204)
        expect(res.headers['access-control-allow-methods']).to.equal('GET,HEAD,PUT,PATCH,POST,DELETE')
        expect(routeRan).to.equal(false)
      })

      it('mounts a path-scoped middleware under the registering context\'s prefix', async () => {
        const app = await topology(mode, { plugin: withMiddleware })
        const res = await request(app.server).get('/inside/probe?x=1').expect(200)
        expect(res.headers['x-path-middleware']).to.equal('/?x=1')
        const child = await request(app.server).get('/inside/child/probe').expect(200)
        expect(child.headers['x-path-middleware']).to.equal(undefined)
      })
    })
  }

  describe('use() without a middleware plugin', () => {
    it('use() in a scope without @fastify/middie fails with ENC_ERR_PLUGIN_MISSING_MIDDLEWARE naming @fastify/middie, not "use is not a function"', async () => {
      const app = server()
      app.register(async (scope) => { (scope as UseScope).use(cors() as never) }, { prefix: '/api' })
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_PLUGIN_MISSING_MIDDLEWARE')
      expect(error.message).to.contain('use() was called in root').and.contain('@fastify/middie').and.contain('@fastify/express')
    })

    it('use() in a sibling of the scope that registered @fastify/middie still fails with ENC_ERR_PLUGIN_MISSING_MIDDLEWARE, while the registering scope runs its middleware', async () => {
      const app = server()
      app.register(async (scope) => {
        await scope.register(middie)
        ;(scope as UseScope).use(((req: unknown, res: { setHeader(k: string, v: string): void }, next: () => void) => { res.setHeader('x-mw', '1'); next() }) as never)
        scope.get('/', async () => ({ ok: true }))
      }, { prefix: '/with' })
      let siblingError: { code?: string } | undefined
      app.register(async (scope) => {
        try { (scope as UseScope).use(cors() as never) } catch (error) { siblingError = error as { code?: string } }
      }, { prefix: '/without' })
      await app.ready()
      expect(siblingError?.code).to.equal('ENC_ERR_PLUGIN_MISSING_MIDDLEWARE')
      expect((await app.inject({ url: '/with' })).headers['x-mw']).to.equal('1')
      await app.close()
    })
  })
})
