/**
 * The serverless-sized app every cold-start worker builds with its framework: 20 routes with
 * schemas (ten resources, each a POST with a body and a response schema and a GET by id with a
 * params and a response schema), a logger at info writing one JSON line per request to stdout, an
 * onRequest and a preHandler hook, and one plugin (a request decoration and the five routes of its
 * prefix). The first request is a POST to the last resource, with a body its schema accepts.
 */
import { bootApp, exampleBody, type BootRoute } from '../boot/routes'

export const RESOURCES = 10
const { routes } = bootApp(RESOURCES, 'distinct')

export interface ColdRoute {
  readonly url: string
  readonly body: Record<string, unknown>
  readonly response: Record<string, unknown>
  /** GET /<resource>/:id: params and response schemas. */
  readonly getUrl: string
  readonly params: Record<string, unknown>
  /** In the plugin (`/admin` prefix), not on the root. */
  readonly inPlugin: boolean
}

export const coldRoutes: readonly ColdRoute[] = routes.map((r: BootRoute, i) => ({
  url: r.url,
  body: r.body,
  response: r.response,
  getUrl: `${r.url}/:id`,
  params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
  inPlugin: i >= RESOURCES / 2,
}))

export const PLUGIN_PREFIX = '/admin'

const last = coldRoutes[coldRoutes.length - 1]
/** The first request: method, path, body. */
export const FIRST_REQUEST = {
  method: 'POST',
  path: `${last.inPlugin ? PLUGIN_PREFIX : ''}${last.url}`,
  body: JSON.stringify(exampleBody(routes[routes.length - 1].body, [])),
}

/** What every handler answers (fits every response schema: `id` and nothing required else). */
export const reply = { id: 1 }
