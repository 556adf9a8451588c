// fastify 3.27.4 with its defaults (ajv 6, fast-json-stringify): the reference contender.
import fastify from 'fastify3'
import { twoSchema, itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

async function main(): Promise<void> {
  const app = fastify({ logger: false })
  app.get('/two', { schema: twoSchema }, async () => twoPayload)
  app.post('/items', { schema: itemsSchema }, async (request, reply) => {
    reply.code(201)
    return request.body
  })
  app.get('/search', { schema: searchSchema }, async (request) => {
    const query = request.query as { q: string; limit: number }
    return searchHits(query.q, query.limit)
  })
  await app.listen(portFromArgv(), HOST)
  announceReady(app.server.address())
}

main().catch(failStart)
