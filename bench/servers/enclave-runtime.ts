// Enclave through the runtime API (createServer): the same routes as every contender.
import Ajv from 'ajv'
import { createServer } from '../../src/runtime'
import type { Request, Reply, Scope } from '../../src/runtime'
import { twoSchema, itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { listSchema, listPayload } from './list-schema'
import { bulkSchema, bulkSummary, Bulk } from './bulk-schema'
import { headersSchema, headersAnswer } from './headers-schema'
import { routerRoutes, routerSchema, routerAnswer } from './router-routes'
import { STRICT_PATH } from './all-errors'
import { ajv6AllErrorsOptions } from './ajv-options'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

/** The allErrors scope: a child plugin with its own ajv, as a user declares one. */
async function strictScope(scope: Scope): Promise<void> {
  const ajv = new Ajv(ajv6AllErrorsOptions)
  scope.setValidatorCompiler(({ schema }) => ajv.compile(schema))
  scope.post(STRICT_PATH, { schema: itemsSchema }, (request: Request, reply: Reply) => {
    reply.code(201)
    return request.body
  })
}

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
  app.get('/list', { schema: listSchema }, () => listPayload)
  app.post('/bulk', { schema: bulkSchema }, (request: Request) => bulkSummary(request.body as Bulk))
  app.get('/headers', { schema: headersSchema }, (request: Request) => headersAnswer(request.headers))
  for (const route of routerRoutes) {
    app.route({ method: route.method, url: route.path, schema: routerSchema, handler: (request: Request) => routerAnswer(route, request.params as Record<string, string>) })
  }
  app.register(strictScope)
  await app.listen({ port: portFromArgv(), host: HOST })
  announceReady(app.server.address())
}

main().catch(failStart)
