// Enclave through decorators (createApp): the same routes as enclave-runtime, declared on
// controllers in modules. The difference between the two is the cost of the decorator layer.
import 'reflect-metadata'
import Ajv from 'ajv'
import { createApp, Module, Route, Get, Post, Put, Patch, Delete } from '../../src'
import type { Request, Reply } from '../../src'
import { twoSchema, itemsSchema, searchSchema, twoPayload, searchHits } from './schemas'
import { listSchema, listPayload } from './list-schema'
import { bulkSchema, bulkSummary, Bulk } from './bulk-schema'
import { headersSchema, headersAnswer } from './headers-schema'
import { routerRoutes, routerSchema, routerAnswer, RouteMethod, RouterRoute } from './router-routes'
import { STRICT_PATH } from './all-errors'
import { ajv6AllErrorsOptions } from './ajv-options'
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

  @Get('/list', { schema: listSchema })
  list(): unknown {
    return listPayload
  }

  @Post('/bulk', { schema: bulkSchema })
  bulk(request: Request): unknown {
    return bulkSummary(request.body as Bulk)
  }

  @Get('/headers', { schema: headersSchema })
  headers(request: Request): unknown {
    return headersAnswer(request.headers)
  }
}

@Route()
class StrictController {
  @Post(STRICT_PATH, { schema: itemsSchema })
  create(request: Request, reply: Reply): unknown {
    reply.code(201)
    return request.body
  }
}

const strictAjv = new Ajv(ajv6AllErrorsOptions)

/** The allErrors scope: a child module with its own validator compiler. */
@Module({ controllers: [StrictController], validatorCompiler: ({ schema }) => strictAjv.compile(schema) })
class StrictModule {}

const shortcuts: Record<RouteMethod, typeof Get> = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete }

/**
 * The router endpoint's 1,000 routes as 100 controllers of 10 routes each, one per resource, the
 * way an API of that size is written. Built in a loop (the same decorators applied as functions)
 * because writing them out would be 5,000 lines of identical code.
 */
function resourceController(prefix: string, routes: readonly RouterRoute[]): new () => object {
  const controller = class {}
  Object.defineProperty(controller, 'name', { value: `Resource${prefix.replace(/\W/g, '_')}Controller` })
  for (const route of routes) {
    const key = `route${route.index}`
    const descriptor: PropertyDescriptor = {
      value(request: Request): unknown { return routerAnswer(route, request.params as Record<string, string>) },
      writable: true,
      configurable: true,
    }
    Object.defineProperty(controller.prototype, key, descriptor)
    shortcuts[route.method](route.tail, { schema: routerSchema })(controller.prototype, key, descriptor)
  }
  Route(prefix)(controller)
  return controller
}

function resourceControllers(): (new () => object)[] {
  const byPrefix = new Map<string, RouterRoute[]>()
  for (const route of routerRoutes) byPrefix.set(route.prefix, [...(byPrefix.get(route.prefix) ?? []), route])
  return [...byPrefix].map(([prefix, routes]) => resourceController(prefix, routes))
}

@Module({ plugins: [StrictModule], controllers: [BenchController, ...resourceControllers()] })
class BenchModule {}

async function main(): Promise<void> {
  const app = await createApp(BenchModule, { logger: false })
  await app.listen({ port: portFromArgv(), host: HOST })
  announceReady(app.server.address())
}

main().catch(failStart)
