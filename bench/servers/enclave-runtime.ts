// Enclave through the runtime API (createServer): the same three routes as every contender.
import { createServer } from '../../src/runtime'
import type { Request, Reply } from '../../src/runtime'
import { twoSchema, itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

async function main(): Promise<void> {
  const app = createServer({ logger: false })
  app.get('/two', { schema: twoSchema }, () => twoPayload)
  app.post('/items', { schema: itemsSchema }, (request: Request, reply: Reply) => {
    reply.code(201)
    return request.body
  })
  app.get('/search', { schema: searchSchema }, (request: Request) => {
    const query = request.query as { q: string; limit: number }
    return searchHits(query.q, query.limit)
  })
  await app.listen({ port: portFromArgv(), host: HOST })
  announceReady(app.server.address())
}

main().catch(failStart)
