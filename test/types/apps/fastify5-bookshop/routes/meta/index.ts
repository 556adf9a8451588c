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
  // The slow route logs that its handler started and then waits for its client to leave (released
  // by onRequestAbort), so a test can abort at a moment it observed instead of racing a fixed delay;
  // the 10 s cap only keeps a request nobody aborts from holding the server forever.
  const leaving = new Map<string, () => void>()
  app.get('/slow', {
    onRequestAbort: async (request) => { log.info({ reqId: request.id }, 'client went away'); leaving.get(request.id)?.() },
  }, async (request) => {
    log.info({ reqId: request.id }, 'slow: started')
    await new Promise<void>((resolve) => { leaving.set(request.id, resolve); sleep(10_000, undefined, { ref: false }).then(() => resolve()) })
    leaving.delete(request.id)
    return { done: true }
  })
  app.get('/boom', async () => { throw new Error('database exploded') })
  app.get('/teapot', async () => { throw app.httpErrors.imateapot('short and stout') })
  app.get('/limited', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => ({ ok: true }))
  app.get('/tags', { schema: { querystring: { type: 'object', properties: { tag: { type: 'array', items: { type: 'string' } } } } } }, async (request) => ({ q: request.query }))
}
export default meta
