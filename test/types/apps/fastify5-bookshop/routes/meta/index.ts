// Was: `import type { FastifyPluginAsync } from 'fastify'` and `declare module 'fastify' { interface
// FastifyContextConfig { audit?: boolean; tag?: string } }`, which has no counterpart (config is unknown-valued)
import type { AsyncPlugin } from '../../../../../../src'
import { setTimeout as sleep } from 'node:timers/promises'


const meta: AsyncPlugin = async (app) => {
  const log = app.log.child({ module: 'meta' })
  app.get('/route/:name', { config: { tag: 'meta-route' }, schema: { params: { type: 'object', properties: { name: { type: 'string' } } } } }, async (request, reply) => {
    return {
      url: request.routeOptions.url, method: request.routeOptions.method, tag: (request.routeOptions.config.tag as string | undefined) ?? null, // Was: `config.tag ?? null`,
      hasSchema: request.routeOptions.schema !== undefined, elapsedIsNumber: typeof reply.elapsedTime === 'number',
      hostname: request.hostname, host: request.host, protocol: request.protocol,
    }
  })
  app.get('/slow', {
    onRequestAbort: async (request) => { log.info({ reqId: request.id }, 'client went away') },
  }, async () => { await sleep(300); return { done: true } })
  app.get('/boom', async () => { throw new Error('database exploded') })
  app.get('/teapot', async () => { throw app.httpErrors.imateapot('short and stout') })
  app.get('/limited', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => ({ ok: true }))
  app.get('/tags', { schema: { querystring: { type: 'object', properties: { tag: { type: 'array', items: { type: 'string' } } } } } }, async (request) => ({ q: request.query }))
}
export default meta
