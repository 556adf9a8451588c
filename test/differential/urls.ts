// The `urls` family: a small routing table as apps declare one (params, two params in one segment,
// `name.ext`, a regex param, a wildcard, a static route with a trailing slash, a mixed-case path,
// a prefixed plugin with each `prefixTrailingSlash`, an OPTIONS catch-all) under the router options
// users turn (`ignoreTrailingSlash`, `caseSensitive`, `maxParamLength`, `exposeHeadRoutes`,
// `rewriteUrl`), asked URLs where clients meet edge cases: duplicate and trailing slashes,
// percent-escapes in paths (`%2F`, `%20`, `%zz`, UTF-8, raw UTF-8), query strings (repeated keys,
// empty keys, `+` and `%20`, no `=`, `?` alone, fragments, very long, prototype names) and every
// method (HEAD, OPTIONS, unknown to the route). Every handler echoes what it read off the request.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export interface UrlsDrawn {
  route: RouteSpec
  request: RequestSpec
  server: Record<string, unknown>
  note: string
}

/**
 * What a routed handler reads: the tag says which route answered. Not the method: Enclave's HEAD
 * must be its GET without the body (run.ts), and Fastify 3 has no HEAD route to compare with.
 */
function echoAs(tag: string): Handler {
  return (request) => ({ tag, url: request.url, routerPath: request.routerPath ?? null, params: request.params, query: request.query })
}

/** The routes besides the case's own `route` (GET /u/:id), declared by `setup` in this order. */
const TABLE: Array<[string, string]> = [
  ['POST', '/u/:id'],
  ['GET', '/m/:a-:b'],
  ['GET', '/f/:name.:ext'],
  ['GET', '/re/:id(^\\d+$)'],
  ['GET', '/w/*'],
  ['GET', '/s/static/'],
  ['GET', '/Case/x'],
  ['DELETE', '/u/:id/items/:item'],
]

const PATHS = [
  '/u/1', '/u/a%2Fb', '/u/a%20b', '/u/a+b', '/u/%zz', '/u/%E2%82%AC', '/u/caf%C3%A9', '/u/%C3', '/u/%2e%2e', '/u/1/', '//u/1', '/u//1', '/U/1',
  '/u/1;v=2', '/u/1%3Fx', '/u/1%23x', '/u/%00', `/u/${'x'.repeat(12)}`, '/u/%E2%82%AC%E2%82%AC%E2%82%AC%E2%82%AC', '/u/1/items/2', '/u/1/items/2/',
  '/m/1-2', '/m/a-b-c', '/m/-2', '/m/1-', '/m/1%2D2', '/f/file.txt', '/f/a.b.c', '/f/file', '/f/.txt', '/re/12', '/re/ab', '/re/1%32', '/re/12/',
  '/w/a/b', '/w/', '/w', '/w/%2F', '/w/a%20b/c', '/w//x', '/s/static/', '/s/static', '/S/STATIC/', '/s//static/', '/Case/x', '/case/X', '/Case/x/',
  '/pre', '/pre/', '/pre/in', '/pre/in/', '/pre//in', '/PRE/in', '/old/5', '/old/a%2Fb', '/nope', '/', '/u', '/u/',
]
// Not sendable over a socket by Node's client (it refuses them): inject only.
const RAW_PATHS = ['/u/café', '/u/€', '/u/a b']

const QUERIES = [
  '', '', '', '?', '?a=1&a=2', '?a=1&a=2&a=3', '?=x', '?a', '?a=', '?a=b+c', '?a=b%20c', '?a=%zz', '?a=%E9', '?a=%C3%A9', '?a[0]=1&a[1]=2',
  '?a.b=1', '?&&a=1&&', '?a=1#frag', '#frag', '?a==b', '?a=1;b=2', '?__proto__=x', '?constructor=1&toString=2', '?hasOwnProperty=1', `?${'k=v&'.repeat(600)}`, '??a=1', '?a=1?b=2', '?%61=1',
  `?${Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&')}`,
]

// PROPFIND: a method Node's parser knows and neither router has a route for.
const METHODS = ['GET', 'GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE', 'PUT', 'PATCH', 'PROPFIND']

// `/old/<rest>` answers as `/u/<rest>` (an API's renamed prefix).
const rewrite = (raw: Any): string => (typeof raw.url === 'string' && raw.url.startsWith('/old/') ? `/u/${raw.url.slice(5)}` : raw.url)

export function drawUrlsCase(r: Random): UrlsDrawn {
  const server: Record<string, unknown> = {}
  const notes: string[] = []
  if (r.chance(0.3)) { server.ignoreTrailingSlash = true; notes.push('ignoreTrailingSlash') }
  if (r.chance(0.25)) { server.caseSensitive = false; notes.push('caseSensitive=false') }
  if (r.chance(0.2)) { server.maxParamLength = r.pick([4, 10]); notes.push(`maxParamLength=${String(server.maxParamLength)}`) }
  if (r.chance(0.2)) { server.exposeHeadRoutes = r.pick([false, true]); notes.push(`exposeHeadRoutes=${String(server.exposeHeadRoutes)}`) }
  if (r.chance(0.2)) { server.rewriteUrl = rewrite; notes.push('rewriteUrl /old/ -> /u/') }
  const prefixTrailingSlash = r.pick(['both', 'slash', 'no-slash'] as const)
  const optionsCatchAll = r.chance(0.2)
  notes.push(`prefixTrailingSlash=${prefixTrailingSlash}`)
  if (optionsCatchAll) notes.push('OPTIONS *')
  const notFound = r.chance(0.3)
  if (notFound) notes.push('own 404 handler')
  const setup = (app: Any): void => {
    for (const [method, url] of TABLE) app.route({ method, url, handler: echoAs(`${method} ${url}`) })
    app.register(async (child: Any) => {
      child.route({ method: 'GET', url: '/', prefixTrailingSlash, handler: echoAs('pre /') })
      child.route({ method: 'GET', url: '/in', handler: echoAs('pre /in') })
    }, { prefix: '/pre' })
    if (optionsCatchAll) app.route({ method: 'OPTIONS', url: '*', handler: (_q: Any, reply: Any) => { reply.code(204).header('x-options', 'catch-all').send() } })
    if (notFound) app.setNotFoundHandler((request: Any, reply: Any) => { reply.code(404).send({ nf: true, url: request.url, method: request.method, params: request.params ?? null, query: request.query ?? null }) })
  }
  const path = r.chance(0.05) ? r.pick(RAW_PATHS) : r.pick(PATHS)
  const query = r.pick(QUERIES)
  const method = r.pick(METHODS)
  const request: RequestSpec = { method, url: `${path}${query}` }
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') { request.headers = { 'content-type': 'application/json' }; request.payload = '{"k":1}' }
  const route: RouteSpec = { method: 'GET', url: '/u/:id', handler: echoAs('GET /u/:id'), setup }
  return { route, request, server, note: notes.join(' ') }
}
