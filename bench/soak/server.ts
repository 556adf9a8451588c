/**
 * The soak's server process: an Enclave app built on the runtime API the way the sample is (a
 * root decorator, a child scope with its own decorator, hooks, shared schemas, schema routes for
 * every request part), so a long mixed load walks every stage of the request path. Started by
 * bench/soak.ts with an IPC channel: it sends `{ type: 'ready', port }`, answers
 * `{ type: 'memory' }` with process.memoryUsage() (after a GC when asked) and the number of
 * requests between onRequest and onResponse/onRequestAbort, and closes on
 * `{ type: 'close' }` or when its parent goes away.
 */
import { createServer } from '../../src/runtime'
import type { Request, Reply, Scope } from '../../src/runtime'
import { twoSchema, itemsSchema, searchSchema, searchHits, type Item } from '../servers/schemas'

export interface SoakMessage { type: 'ready' | 'memory' | 'closed'; port?: number; memory?: NodeJS.MemoryUsage; inFlight?: number }

function buildApp(): { app: Scope; inFlight: () => number } {
  const app = createServer({ logger: false, bodyLimit: 64 * 1024, handlerTimeout: 5_000, bodyTimeout: 5_000 })
  app.decorateRequest('answer', 42)
  app.addSchema({ $id: 'user', type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] })
  let inFlight = 0
  app.addHook('onRequest', async () => { inFlight++ })
  app.addHook('onResponse', async () => { inFlight-- })
  app.addHook('onRequestAbort', async () => { inFlight-- })

  app.get('/two', { schema: twoSchema }, () => ({ answer: 42, foo: 'bar' }))
  app.post('/items', { schema: itemsSchema }, (request: Request, reply: Reply) => {
    reply.code(201)
    return request.body as Item
  })
  app.get('/search', { schema: searchSchema }, (request: Request) => {
    const query = request.query as { q: string; limit: number }
    return searchHits(query.q, query.limit)
  })
  app.register(async (users) => {
    users.decorateRequest('tenant', 'public')
    users.get('/:id', {
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
        headers: { type: 'object', properties: { 'x-trace': { type: 'string', maxLength: 64 } } },
        response: { 200: { $ref: 'user#' } },
      },
    }, async (request: Request) => ({ id: (request.params as { id: number }).id, name: String(request.tenant) }))
    users.put('/:id', {
      schema: { params: { id: { type: 'integer' } }, body: { $ref: 'user#' }, response: { 200: { $ref: 'user#' } } },
    }, async (request: Request) => {
      await new Promise((resolve) => setImmediate(resolve))
      return request.body
    })
  }, { prefix: '/users' })
  // Failures on purpose: a throw (generic 500) and a payload its schema refuses (logged 500).
  app.get('/boom', async () => { throw new Error('soak: a handler failure') })
  app.get('/bad-output', { schema: { response: { 200: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } } }, async () => ({}))
  return { app, inFlight: () => inFlight }
}

async function main(): Promise<void> {
  const { app, inFlight } = buildApp()
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const send = (message: SoakMessage): void => { if (process.send !== undefined) process.send(message) }
  process.on('message', (message: { type: string; gc?: boolean }) => {
    if (message.type === 'memory') {
      if (message.gc === true && typeof global.gc === 'function') global.gc()
      send({ type: 'memory', memory: process.memoryUsage(), inFlight: inFlight() })
    } else if (message.type === 'close') {
      app.close().then(() => { send({ type: 'closed' }); process.disconnect(); process.exit(0) }, () => process.exit(1))
    }
  })
  // The parent went away (killed, crashed): never outlive it.
  process.on('disconnect', () => { app.close().finally(() => process.exit(0)) })
  send({ type: 'ready', port })
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
