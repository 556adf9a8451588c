// The cold-start app on fastify 3 or 5: the same declarations; each worker file requires its own
// fastify (the require is what the table times) and listens in its version's form.
import type { Server } from 'node:http'
import { coldRoutes, PLUGIN_PREFIX, reply, type ColdRoute } from './app'

type Hook = (request: { headers: Record<string, unknown> }, reply: { code(status: number): { send(payload: unknown): unknown } }) => Promise<void>
/** What the app calls on fastify 3's and 5's instances alike (their own types differ in details this app does not use). */
export interface FastifyLike {
  post(url: string, options: object, handler: () => Promise<unknown>): unknown
  get(url: string, options: object, handler: () => Promise<unknown>): unknown
  addHook(name: 'onRequest' | 'preHandler', hook: Hook): unknown
  decorateRequest(name: string, value: unknown): unknown
  register(plugin: (scope: FastifyLike) => Promise<void>, options: { prefix: string }): unknown
  readonly server: Server
}

function routesOf(app: FastifyLike, routes: readonly ColdRoute[]): void {
  for (const r of routes) {
    app.post(r.url, { schema: { body: r.body, response: { 200: r.response } } }, async () => reply)
    app.get(r.getUrl, { schema: { params: r.params, response: { 200: r.response } } }, async () => reply)
  }
}

export function declareFastifyApp(app: FastifyLike): void {
  app.addHook('onRequest', async (request) => { request.headers['x-seen'] = '1' })
  app.addHook('preHandler', async (request, answer) => { if (request.headers['x-deny'] !== undefined) await answer.code(403).send({ denied: true }) })
  routesOf(app, coldRoutes.filter((r) => !r.inPlugin))
  app.register(async (scope) => {
    scope.decorateRequest('tenant', '')
    scope.addHook('onRequest', async (request) => { (request as unknown as { tenant: string }).tenant = 'acme' })
    routesOf(scope, coldRoutes.filter((r) => r.inPlugin))
  }, { prefix: PLUGIN_PREFIX })
}
