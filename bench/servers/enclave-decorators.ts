// Enclave through decorators (createApp): the same routes as enclave-runtime, declared on a
// controller in a module. The difference between the two is the cost of the decorator layer.
import 'reflect-metadata'
import { createApp, Module, Route, Get, Post } from '../../src'
import type { Request, Reply } from '../../src'
import { twoSchema, itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

@Route()
class BenchController {
  @Get('/two', { schema: twoSchema })
  two(): typeof twoPayload {
    return twoPayload
  }

  @Post('/items', { schema: itemsSchema })
  create(request: Request, reply: Reply): unknown {
    reply.code(201)
    return request.body
  }

  @Get('/search', { schema: searchSchema })
  search(request: Request): unknown {
    const query = request.query as { q: string; limit: number }
    return searchHits(query.q, query.limit)
  }
}

@Module({ controllers: [BenchController] })
class BenchModule {}

async function main(): Promise<void> {
  const app = await createApp(BenchModule, { logger: false })
  await app.listen({ port: portFromArgv(), host: HOST })
  announceReady(app.server.address())
}

main().catch(failStart)
