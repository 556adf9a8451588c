import { expect } from 'chai'
import request from 'supertest'
import rateLimit from '@fastify/rate-limit'
import { affected, modes, topology, unaffected } from './helpers'

// @fastify/rate-limit README: `await fastify.register(rateLimit, { max, timeWindow })` limits
// every route declared after it in the registering context (an onRoute hook adds an onRequest
// hook to each); the limit answers 429 with x-ratelimit-* and retry-after headers.
describe('@fastify/rate-limit in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('limits each route of the registering context and its descendants, and no other', async () => {
        // The plugin's store is shared by the context's routes and keyed by client: one client per path here.
        const keyGenerator = (req: { headers: Record<string, string> }) => req.headers['x-client']
        const app = await topology(mode, { plugin: rateLimit, options: { max: 2, timeWindow: '1 minute', keyGenerator } })
        for (const path of affected) {
          const first = await request(app.server).get(path).set('x-client', path).expect(200, { ok: true })
          expect(first.headers['x-ratelimit-limit'], path).to.equal('2')
          expect(first.headers['x-ratelimit-remaining'], path).to.equal('1')
          await request(app.server).get(path).set('x-client', path).expect(200)
          const limited = await request(app.server).get(path).set('x-client', path).expect(429)
          expect(limited.body).to.deep.equal({ statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded, retry in 1 minute' })
          expect(limited.headers['retry-after'], path).to.equal('60')
          expect(limited.headers['x-ratelimit-remaining'], path).to.equal('0')
        }
        for (const path of unaffected) {
          for (let i = 0; i < 4; i++) {
            const res = await request(app.server).get(path).set('x-client', 'one').expect(200)
            expect(res.headers['x-ratelimit-limit'], path).to.equal(undefined)
          }
        }
      })

      it('takes a route\'s config.rateLimit over the global options', async () => {
        const app = await topology(mode, { plugin: rateLimit, options: { max: 100, timeWindow: 60_000 }, config: { rateLimit: { max: 1, timeWindow: 60_000 } } })
        await request(app.server).get('/inside/probe').expect(200)
        await request(app.server).get('/inside/probe').expect(429)
      })

      it('skips allow-listed clients and keys requests by keyGenerator', async () => {
        const app = await topology(mode, {
          plugin: rateLimit,
          options: { max: 1, timeWindow: 60_000, keyGenerator: (req: { headers: Record<string, string> }) => req.headers['x-client'] ?? 'anon', allowList: ['vip'] },
        })
        await request(app.server).get('/inside/probe').set('x-client', 'a').expect(200)
        await request(app.server).get('/inside/probe').set('x-client', 'a').expect(429)
        await request(app.server).get('/inside/probe').set('x-client', 'b').expect(200)
        for (let i = 0; i < 3; i++) await request(app.server).get('/inside/probe').set('x-client', 'vip').expect(200)
      })
    })
  }
})
