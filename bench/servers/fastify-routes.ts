// The routes both Fastify contenders declare: Fastify 3 and 5 take the same route API, so they are
// written once; each contender keeps its own package, ajv and listen() call.
import { twoSchema, itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { listSchema, listPayload } from './list-schema'
import { bulkSchema, bulkSummary, Bulk } from './bulk-schema'
import { headersSchema, headersAnswer } from './headers-schema'
import { routerRoutes, routerSchema, routerAnswer } from './router-routes'

interface RouteRequest { body: unknown; query: unknown; params: unknown; headers: Record<string, unknown> }
interface RouteReply { code(statusCode: number): unknown }
type RouteHandler = (request: RouteRequest, reply: RouteReply) => Promise<unknown>

/** What the two majors' instances have in common for these routes. */
export interface FastifyRoutes {
  get(path: string, options: { schema: object }, handler: RouteHandler): unknown
  post(path: string, options: { schema: object }, handler: RouteHandler): unknown
  route(options: { method: string; url: string; schema: object; handler: RouteHandler }): unknown
}

export function declareFastifyRoutes(app: FastifyRoutes): void {
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
}
