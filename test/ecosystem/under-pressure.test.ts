import { expect } from 'chai'
import request from 'supertest'
import underPressure from '@fastify/under-pressure'
import { modes, topology } from './helpers'
import type { Scope } from '../../src/runtime'

// What these tests decorate on a scope: Scope has no catch-all (an undeclared name does not compile).
declare module '../../src/runtime' {
  interface ScopeDecorations { isUnderPressure?: unknown; memoryUsage?: unknown }
}

// @fastify/under-pressure README: exposeStatusRoute adds GET /status; when a threshold or the
// healthCheck fails, every route of the registering context answers 503 with Retry-After.
// The health check is the deterministic trigger here (thresholds depend on the machine).
describe('@fastify/under-pressure in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('serves the status route and decorates memoryUsage()/isUnderPressure() when healthy', async () => {
        let scope: Scope | null = null
        const app = await topology(mode, {
          plugin: underPressure,
          options: { healthCheck: async () => true, healthCheckInterval: 60_000, exposeStatusRoute: true },
          inside: (s) => { scope = s },
        })
        await request(app.server).get('/inside/status').expect(200, { status: 'ok' })
        await request(app.server).get('/inside/probe').expect(200, { ok: true })
        expect((scope!.memoryUsage as () => Record<string, number>)()).to.have.keys('eventLoopDelay', 'rssBytes', 'heapUsed', 'eventLoopUtilized')
        expect((scope!.isUnderPressure as () => boolean)()).to.equal(false)
      })

      it('answers 503 with Retry-After in the registering context only when the health check fails', async () => {
        const app = await topology(mode, {
          plugin: underPressure,
          options: { healthCheck: async () => false, healthCheckInterval: 60_000, retryAfter: 7 },
        })
        for (const path of ['/inside/probe', '/inside/child/probe']) {
          const res = await request(app.server).get(path).expect(503)
          expect(res.headers['retry-after']).to.equal('7')
          // Enclave's 5xx payload shows only the reason phrase (README, differences from Fastify 3).
          expect(res.body).to.deep.equal({ statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' })
        }
        for (const path of ['/root-probe', '/outside/probe']) await request(app.server).get(path).expect(200, { ok: true })
      })

      it('lets pressureHandler answer instead of the default 503', async () => {
        const app = await topology(mode, {
          plugin: underPressure,
          options: { healthCheck: async () => false, healthCheckInterval: 60_000, pressureHandler: (_req: unknown, reply: { code(n: number): { send(p: unknown): void } }, type: string) => reply.code(200).send({ degraded: type }) },
        })
        await request(app.server).get('/inside/probe').expect(200, { degraded: 'healthCheck' })
      })
    })
  }
})
