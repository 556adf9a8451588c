// Cold-start worker: Enclave's runtime API (createServer), eager; enclave-runtime-lazy.ts compiles on first request.
// ENCLAVE_DIST names the build to load (another worktree's dist/src, for before/after runs).
import { coldStart } from './serve'
import { coldRoutes, PLUGIN_PREFIX, reply, type ColdRoute } from './app'
import type * as Enclave from '../../src'

type Scope = Enclave.Scope

function routesOf(app: Scope, routes: readonly ColdRoute[]): void {
  for (const r of routes) {
    app.post(r.url, { schema: { body: r.body, response: { 200: r.response } } }, () => reply)
    app.get(r.getUrl, { schema: { params: r.params, response: { 200: r.response } } }, () => reply)
  }
}

export function enclaveBuild(lazy: boolean): void {
  coldStart(() => require(process.env.ENCLAVE_DIST ?? '../../src'), async (loaded) => {
    const { createServer } = loaded as typeof Enclave
    const app = createServer({ logger: { level: 'info' }, schemaCompilation: lazy ? 'lazy' : 'eager' })
    app.addHook('onRequest', async (request) => { request.headers['x-seen'] = '1' })
    app.addHook('preHandler', async (request, reply) => { if (request.headers['x-deny'] !== undefined) reply.code(403).send({ denied: true }) })
    routesOf(app, coldRoutes.filter((r) => !r.inPlugin))
    app.register(async (scope: Scope) => {
      scope.decorateRequest('tenant', '')
      scope.addHook('onRequest', async (request) => { (request as unknown as { tenant: string }).tenant = 'acme' })
      routesOf(scope, coldRoutes.filter((r) => r.inPlugin))
    }, { prefix: PLUGIN_PREFIX })
    await app.listen({ port: 0, host: '127.0.0.1' })
    return app.server
  })
}

if (require.main === module) enclaveBuild(false)
