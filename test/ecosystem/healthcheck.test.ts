import { expect } from 'chai'
import request from 'supertest'
import healthcheck from 'fastify-healthcheck'
import { modes, topology } from './helpers'

// fastify-healthcheck 5 (its README: `register(healthcheck, { healthcheckUrl, exposeUptime,
// underPressureOptions })`): a GET health route answering `{ statusCode: 200, status: 'ok' }`,
// backed by @fastify/under-pressure, which it registers inside its own encapsulated context (the
// plugin is not wrapped in fastify-plugin), so the app's other routes are never answered 503 by it.
describe('fastify-healthcheck in Enclave', () => {
  for (const mode of modes) {
    it(`answers the health route under the registering context's prefix, with the uptime when asked (${mode})`, async () => {
      const app = await topology(mode, { plugin: healthcheck, options: { exposeUptime: true } })
      const res = await request(app.server).get('/inside/health').expect(200)
      expect(res.body).to.include({ statusCode: 200, status: 'ok' })
      expect(res.body.uptime).to.be.a('number').and.greaterThan(0)
      await request(app.server).get('/outside/health').expect(404)
      await request(app.server).get('/inside/probe').expect(200, { ok: true })
    })
  }

  it('answers 503 from under-pressure when its health check fails, and only on the health route (the plugin encapsulates it)', async () => {
    const app = await topology('scope', {
      plugin: healthcheck,
      options: { healthcheckUrl: '/healthz', underPressureOptions: { healthCheck: async () => false, healthCheckInterval: 60_000, retryAfter: 9 } },
    })
    const res = await request(app.server).get('/inside/healthz').expect(503)
    expect(res.headers['retry-after']).to.equal('9')
    expect(res.body).to.include({ statusCode: 503, error: 'Service Unavailable' })
    await request(app.server).get('/inside/probe').expect(200, { ok: true })
  })

  it('answers 500 { status: "ko" } with healthcheckUrlAlwaysFail, takes a route schema, and refuses a wrong option type at boot with its message', async () => {
    const app = await topology('scope', { plugin: healthcheck, options: { healthcheckUrlAlwaysFail: true } })
    await request(app.server).get('/inside/health').expect(500, { statusCode: 500, status: 'ko' })

    const typed = await topology('scope', {
      plugin: healthcheck,
      options: { schemaOptions: { response: { 200: { type: 'object', properties: { status: { type: 'string' } } } } } },
    })
    // The response schema drops what it does not list, as in Fastify.
    await request(typed.server).get('/inside/health').expect(200, { status: 'ok' })

    let error: Error | undefined
    try { await topology('scope', { plugin: healthcheck, options: { exposeUptime: 'yes' } }) } catch (e) { error = e as Error }
    expect(error?.message).to.equal("The argument 'exposeUptime' must be a boolean, instead got a 'string'")
  })
})
