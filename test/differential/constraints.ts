// The `constraints` family: route constraints as apps declare them beside what `urls` draws:
// `version` (Accept-Version, semver ranges, Fastify 3's `version` route option), `host` (a name,
// a RegExp, with a port), both on one route, constrained and unconstrained routes sharing a path,
// a constrained route under a prefixed plugin and beside a catch-all `*` or `/*`, under the
// router options users turn. Requests send the headers these match and miss on every method.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ConstraintsDrawn {
  route: RouteSpec
  request: RequestSpec
  server: Record<string, unknown>
  note: string
}

function echoAs(tag: string): Handler {
  return (request) => ({ tag, url: request.url, routerPath: request.routerPath ?? null, params: request.params })
}

/** Declared by name, in the drawn order; each is a route apps write. */
const ROUTES: Array<[string, (app: Any) => void]> = [
  ['GET /v version 1.2.0', (app) => app.route({ method: 'GET', url: '/v', constraints: { version: '1.2.0' }, handler: echoAs('v1.2.0') })],
  ['GET /v version 2.0.0', (app) => app.route({ method: 'GET', url: '/v', constraints: { version: '2.0.0' }, handler: echoAs('v2.0.0') })],
  ['GET /v plain', (app) => app.route({ method: 'GET', url: '/v', handler: echoAs('v-plain') })],
  ['POST /v version 1.2.0', (app) => app.route({ method: 'POST', url: '/v', constraints: { version: '1.2.0' }, handler: echoAs('post-v1.2.0') })],
  ['GET /h host api', (app) => app.route({ method: 'GET', url: '/h', constraints: { host: 'api.example.com' }, handler: echoAs('h-api') })],
  ['GET /h host /^admin\\./', (app) => app.route({ method: 'GET', url: '/h', constraints: { host: /^admin\./ }, handler: echoAs('h-admin') })],
  ['GET /h plain', (app) => app.route({ method: 'GET', url: '/h', handler: echoAs('h-plain') })],
  ['GET /vh version+host', (app) => app.route({ method: 'GET', url: '/vh', constraints: { version: '1.0.0', host: 'api.example.com' }, handler: echoAs('vh') })],
  ['GET /legacy version option 3.1.0', (app) => app.route({ method: 'GET', url: '/legacy', version: '3.1.0', handler: echoAs('legacy') })],
  ['GET /v/:id version 1.2.0', (app) => app.route({ method: 'GET', url: '/v/:id', constraints: { version: '1.2.0' }, handler: echoAs('v-id') })],
  ['plugin /p GET /v version 2.0.0', (app) => app.register(async (child: Any) => { child.route({ method: 'GET', url: '/v', constraints: { version: '2.0.0' }, handler: echoAs('p-v2') }) }, { prefix: '/p' })],
]

const CATCH_ALLS: Array<[string, (app: Any) => void]> = [
  ['GET *', (app) => app.route({ method: 'GET', url: '*', handler: echoAs('star') })],
  ['GET /*', (app) => app.route({ method: 'GET', url: '/*', handler: echoAs('slash-star') })],
]

const VERSIONS = ['1.2.0', '1.x', '1', '2', '2.0.0', '2.x', '*', '3.x', '3.1.0', '', '1.2', 'x.y', '>=1', '1.2.0, 2.0.0', ' 1.2.0']
const HOSTS = ['api.example.com', 'API.example.com', 'admin.example.com', 'api.example.com:8080', 'other.com', 'localhost:80', 'admin.other.org']
const URLS = ['/v', '/v', '/h', '/h', '/vh', '/legacy', '/v/', '/v/7', '/p/v', '/nope', '/V']

export function drawConstraintsCase(r: Random): ConstraintsDrawn {
  const notes: string[] = []
  const server: Record<string, unknown> = {}
  if (r.chance(0.2)) { server.ignoreTrailingSlash = true; notes.push('ignoreTrailingSlash') }
  if (r.chance(0.2)) { server.caseSensitive = false; notes.push('caseSensitive=false') }
  if (r.chance(0.15)) { server.exposeHeadRoutes = false; notes.push('exposeHeadRoutes=false') }
  // At least one constrained route: the case's own GET /v 1.2.0 is declared by apps.ts after these.
  const routes = r.some(ROUTES.slice(1), 5)
  const catchAll = r.chance(0.2) ? r.pick(CATCH_ALLS) : undefined
  notes.push(`routes: GET /v version 1.2.0${routes.map(([name]) => `, ${name}`).join('')}${catchAll ? `, ${catchAll[0]}` : ''}`)
  const route: RouteSpec = {
    method: 'GET',
    url: '/v',
    handler: echoAs('v1.2.0'),
    options: { constraints: { version: '1.2.0' } },
    setup: (app) => {
      for (const [, declare] of routes) declare(app)
      catchAll?.[1](app)
    },
  }
  const headers: Record<string, string> = {}
  if (r.chance(0.7)) headers['accept-version'] = r.pick(VERSIONS)
  headers.host = r.chance(0.6) ? r.pick(HOSTS) : 'localhost:80'
  const method = r.pick(['GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE'])
  const request: RequestSpec = { method, url: r.pick(URLS), headers }
  if (method === 'POST') { headers['content-type'] = 'application/json'; request.payload = '{"k":1}' }
  return { route, request, server, note: notes.join('; ') }
}
