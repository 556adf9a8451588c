import { expect } from 'chai'
import request from 'supertest'
import circuitBreaker from '@fastify/circuit-breaker'
import type { Scope } from '../../src/runtime'
import { modes, topology } from './helpers'

type BreakerScope = Scope & { circuitBreaker?: (opts?: Record<string, unknown>) => unknown }

// @fastify/circuit-breaker README: `fastify.circuitBreaker(opts)` makes a route's preHandler; the
// plugin's onSend hook counts the route's failures (5xx, or slower than `timeout`), and past
// `threshold` the circuit opens: 503 FST_ERR_CIRCUIT_BREAKER_OPEN without calling the handler,
// until `resetTimeout` half-opens it.
function guarded(calls: { count: number }) {
  return (scope: Scope, where: string) => {
    const breaker = (scope as BreakerScope).circuitBreaker
    if (typeof breaker !== 'function') {
      scope.get('/guarded', async () => ({ breaker: false }))
      return
    }
    scope.get('/guarded', { preHandler: breaker({ threshold: 2, resetTimeout: 60_000 }) as never }, async (req, reply) => {
      calls.count++
      if ((req.query as { fail?: string }).fail !== undefined) return reply.code(500).send({ where })
      return { where }
    })
    scope.get('/slow', { preHandler: breaker({ timeout: 5 }) as never }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 30))
      return { late: true }
    })
  }
}

describe('@fastify/circuit-breaker in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('offers circuitBreaker() in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: circuitBreaker, everywhere: guarded({ count: 0 }) })
        await request(app.server).get('/inside/guarded').expect(200, { where: 'inside' })
        await request(app.server).get('/inside/child/guarded').expect(200, { where: 'child' })
        await request(app.server).get('/guarded').expect(200, { breaker: false })
        await request(app.server).get('/outside/guarded').expect(200, { breaker: false })
      })

      it('opens the circuit after threshold failures: 503 without calling the handler', async () => {
        const calls = { count: 0 }
        const app = await topology(mode, { plugin: circuitBreaker, everywhere: guarded(calls) })
        await request(app.server).get('/inside/guarded?fail').expect(500, { where: 'inside' })
        // The second failure reaches the threshold: the plugin's onSend turns it into its 503.
        const opened = await request(app.server).get('/inside/guarded?fail').expect(503)
        expect(opened.body).to.include({ statusCode: 503, error: 'Service Unavailable' })
        expect(calls.count).to.equal(2)
        await request(app.server).get('/inside/guarded').expect(503)
        expect(calls.count, 'the open circuit does not call the handler').to.equal(2)
        // Each route has its own circuit: the child's is still closed.
        await request(app.server).get('/inside/child/guarded').expect(200, { where: 'child' })
      })

      it('answers 503 for a reply slower than timeout', async () => {
        const app = await topology(mode, { plugin: circuitBreaker, everywhere: guarded({ count: 0 }) })
        const res = await request(app.server).get('/inside/slow').expect(503)
        expect(res.body).to.include({ statusCode: 503 })
      })
    })
  }
})
