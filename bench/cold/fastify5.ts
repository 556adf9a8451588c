// Cold-start worker: fastify 5.
import { coldStart } from './serve'
import { coldRoutes, PLUGIN_PREFIX, reply, type ColdRoute } from './app'
import type * as F5 from 'fastify5'

type Fastify5 = typeof F5.default
type Instance = ReturnType<Fastify5>

function routesOf(app: Instance, routes: readonly ColdRoute[]): void {
  for (const r of routes) {
    app.post(r.url, { schema: { body: r.body, response: { 200: r.response } } }, async () => reply)
    app.get(r.getUrl, { schema: { params: r.params, response: { 200: r.response } } }, async () => reply)
  }
}

coldStart(() => require('fastify5'), async (loaded) => {
  const fastify = loaded as Fastify5
  const app = fastify({ logger: { level: 'info' } })
  app.addHook('onRequest', async (request) => { request.headers['x-seen'] = '1' })
  app.addHook('preHandler', async (request, reply) => { if (request.headers['x-deny'] !== undefined) await reply.code(403).send({ denied: true }) })
  routesOf(app, coldRoutes.filter((r) => !r.inPlugin))
  app.register(async (scope) => {
    scope.decorateRequest('tenant', '')
    scope.addHook('onRequest', async (request) => { (request as unknown as { tenant: string }).tenant = 'acme' })
    routesOf(scope as unknown as Instance, coldRoutes.filter((r) => r.inPlugin))
  }, { prefix: PLUGIN_PREFIX })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app.server
})
