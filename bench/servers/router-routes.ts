/**
 * The `router` endpoint: an app of 1,000 routes (100 resources x 10 routes, five methods, static
 * and parametric segments, as a REST API has them) hit on the route declared last. Every route
 * shares one handler shape and one response schema; what differs between contenders is how they
 * find the route and extract its parameters.
 */
export const ROUTER_RESOURCES = 100

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RouterRoute {
  readonly index: number
  readonly method: RouteMethod
  /** The full path: `prefix` + `tail`. */
  readonly path: string
  /** The resource's path (`/api/res042`), for contenders that group routes under a prefix. */
  readonly prefix: string
  readonly tail: string
}

const perResource: readonly [RouteMethod, string][] = [
  ['GET', ''],
  ['POST', ''],
  ['GET', '/search'],
  ['GET', '/:id'],
  ['PUT', '/:id'],
  ['PATCH', '/:id'],
  ['DELETE', '/:id'],
  ['GET', '/:id/history'],
  ['GET', '/:id/owners/:ownerId'],
  ['GET', '/:id/files/:fileId'],
]

function resourceName(r: number): string {
  return `res${String(r).padStart(3, '0')}`
}

/** All 1,000 routes, in declaration order. */
export const routerRoutes: readonly RouterRoute[] = Object.freeze(Array.from({ length: ROUTER_RESOURCES * perResource.length }, (_, index) => {
  const [method, tail] = perResource[index % perResource.length]
  const prefix = `/api/${resourceName(Math.floor(index / perResource.length))}`
  return { index, method, path: `${prefix}${tail}`, prefix, tail }
}))

export const lastRoute: RouterRoute = routerRoutes[routerRoutes.length - 1]

/** The request the load generators send: the last route, with both parameters filled in. */
export const lastRoutePath = lastRoute.path.replace(':id', '8812').replace(':fileId', 'report-2026.pdf')

export const routerSchema = {
  response: {
    200: {
      type: 'object',
      properties: { route: { type: 'integer' }, params: { type: 'object', additionalProperties: { type: 'string' } } },
      required: ['route', 'params'],
    },
  },
}

export interface RouterAnswer { route: number; params: Record<string, string> }

/** What every route's handler answers: its index and the parameters the router extracted. */
export function routerAnswer(route: RouterRoute, params: Record<string, string>): RouterAnswer {
  return { route: route.index, params }
}

export const expectedRouterAnswer: RouterAnswer = { route: lastRoute.index, params: { id: '8812', fileId: 'report-2026.pdf' } }
