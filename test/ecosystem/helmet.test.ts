import { expect } from 'chai'
import request from 'supertest'
import helmet from '@fastify/helmet'
import { affected, modes, topology, unaffected } from './helpers'
import { createServer } from '../../src/runtime'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'

// @fastify/helmet README: registering it sets helmet's security headers on every reply of the
// registering context; a route's `config.helmet` overrides the global configuration.
describe('@fastify/helmet in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('sets the security headers in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: helmet, options: {} })
        for (const path of affected) {
          const res = await request(app.server).get(path).expect(200, { ok: true })
          expect(res.headers['x-frame-options'], path).to.equal('SAMEORIGIN')
          expect(res.headers['x-content-type-options'], path).to.equal('nosniff')
          expect(res.headers['content-security-policy'], path).to.include("default-src 'self'")
          expect(res.headers['strict-transport-security'], path).to.match(/max-age=\d+/)
        }
        for (const path of unaffected) {
          const res = await request(app.server).get(path).expect(200)
          expect(res.headers['x-frame-options'], path).to.equal(undefined)
          expect(res.headers['content-security-policy'], path).to.equal(undefined)
        }
      })

      it('applies a route\'s config.helmet over the global options', async () => {
        const app = await topology(mode, { plugin: helmet, options: { frameguard: { action: 'sameorigin' } }, config: { helmet: { frameguard: { action: 'deny' } } } })
        const res = await request(app.server).get('/inside/probe').expect(200)
        expect(res.headers['x-frame-options']).to.equal('DENY')
      })

      it('decorates the reply with helmet() for headers on demand when global is false', async () => {
        const app = await topology(mode, {
          plugin: helmet,
          options: { global: false },
          probe: async (_request, reply) => {
            if (typeof reply.helmet !== 'function') return { helmet: false }
            await reply.helmet({ frameguard: { action: 'deny' } })
            return { helmet: true }
          },
        })
        const res = await request(app.server).get('/inside/probe').expect(200, { helmet: true })
        expect(res.headers['x-frame-options']).to.equal('DENY')
        await request(app.server).get('/outside/probe').expect(200, { helmet: false })
      })
    })
  }

  describe("the route option helmet: false (read by helmet's onRoute hook)", () => {
    it('turns the headers off for that route only, in the runtime API', async () => {
      const app = createServer()
      await app.register(helmet)
      app.get('/off', { helmet: false } as never, async () => ({ ok: true }))
      app.get('/on', async () => ({ ok: true }))
      await app.ready()
      expect((await app.inject({ url: '/off' })).headers['x-frame-options']).to.equal(undefined)
      expect((await app.inject({ url: '/on' })).headers['x-frame-options']).to.equal('SAMEORIGIN')
      await app.close()
    })

    it('turns the headers off from a decorated method too', async () => {
      @Route() class Pages {
        @Get('/off', { helmet: false } as never) off() { return { ok: true } }
        @Get('/on') on() { return { ok: true } }
      }
      @Module({ plugins: [helmet], controllers: [Pages] }) class Root {}
      const app = await createApp(Root)
      expect((await app.inject({ url: '/off' })).headers['x-frame-options']).to.equal(undefined)
      expect((await app.inject({ url: '/on' })).headers['x-frame-options']).to.equal('SAMEORIGIN')
      await app.close()
    })
  })
})
