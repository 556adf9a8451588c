// fastify 5 with its defaults (ajv 8, fast-json-stringify 6): what a new project picks today.
import fastify, { FastifyInstance } from 'fastify5'
import Ajv from 'ajv8'
import { twoSchema, itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { listSchema, listPayload } from './list-schema'
import { bulkSchema, bulkSummary, Bulk } from './bulk-schema'
import { headersSchema, headersAnswer } from './headers-schema'
import { routerRoutes, routerSchema, routerAnswer } from './router-routes'
import { STRICT_PATH } from './all-errors'
import { ajv8AllErrorsOptions } from './ajv-options'
import { HOST, portFromArgv, announceReady, failStart } from './ready-line'

/** The allErrors scope: a child plugin with its own ajv, as fastify 5 users declare one. */
async function strictScope(scope: FastifyInstance): Promise<void> {
  const ajv = new Ajv(ajv8AllErrorsOptions)
  scope.setValidatorCompiler(({ schema }) => ajv.compile(schema))
  scope.post(STRICT_PATH, { schema: itemsSchema }, async (request, reply) => {
    reply.code(201)
    return request.body
  })
}

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
  app.get('/list', { schema: listSchema }, async () => listPayload)
  app.post('/bulk', { schema: bulkSchema }, async (request) => bulkSummary(request.body as Bulk))
  app.get('/headers', { schema: headersSchema }, async (request) => headersAnswer(request.headers))
  for (const route of routerRoutes) {
    app.route({ method: route.method, url: route.path, schema: routerSchema, handler: async (request) => routerAnswer(route, request.params as Record<string, string>) })
  }
  app.register(strictScope)
  await app.listen({ port: portFromArgv(), host: HOST })
  announceReady(app.server.address())
}

main().catch(failStart)
