// The `route-options` family: what one route's options decide, as apps write them, beside what
// `urls` (paths and escapes), `constraints` and `app` already draw: `method` arrays, `url` or
// `path`, `all()`, a user HEAD route over a GET's implicit one, an OPTIONS route, a `/` route
// under prefixes '', '/', '/pf' and '/pf/' with each `prefixTrailingSlash`, a route declared `//`,
// `config` read in an onRequest hook (`reply.context.config`), `bodyLimit` per route, `schema.hide`,
// `attachValidation` (`request.validationError`), regexp and multi-parameter segments, under the
// server's `ignoreTrailingSlash`, `caseSensitive`, `maxParamLength` and `exposeHeadRoutes`.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * What a handler reads: the tag says which route answered. Not the method: Enclave's HEAD must be
 * its GET without the body (run.ts), and Fastify 3 has no HEAD route to compare with. The config
 * without its `method` (Fastify 3 writes the route's own there, an implicit HEAD's reads HEAD).
 */
function echoAs(tag: string): Handler {
  return (request, reply) => {
    const { method: _method, ...config } = reply.context?.config ?? {}
    const invalid = request.validationError as { message?: string; validationContext?: string } | undefined
    return {
      tag,
      routerPath: request.routerPath ?? null,
      params: request.params,
      query: request.query,
      body: request.body ?? null,
      config,
      validationError: invalid === undefined ? null : { message: invalid.message, context: invalid.validationContext ?? null },
    }
  }
}

type Declare = (app: Any) => void

const PREFIX_ROUTE_OPTIONS = ['both', 'slash', 'no-slash'] as const

/** The routes a case may declare (by name, in the drawn order). */
const ROUTES: Array<[string, Declare]> = [
  ['route GET,POST /ma', (app) => app.route({ method: ['GET', 'POST'], url: '/ma', handler: echoAs('ma') })],
  ['route DELETE,PATCH,PUT /ma2/:id', (app) => app.route({ method: ['DELETE', 'PATCH', 'PUT'], url: '/ma2/:id', handler: echoAs('ma2') })],
  ['route GET path=/by-path', (app) => app.route({ method: 'GET', path: '/by-path', handler: echoAs('by-path') })],
  ['all /all', (app) => app.all('/all', echoAs('all'))],
  ['GET /hd + user HEAD /hd', (app) => {
    app.get('/hd', echoAs('hd-get'))
    app.head('/hd', (_q: Any, reply: Any) => { reply.header('x-head', 'user').send() })
  }],
  ['user HEAD /hd2 before GET /hd2', (app) => {
    app.head('/hd2', (_q: Any, reply: Any) => { reply.header('x-head', 'user2').code(204).send() })
    app.get('/hd2', echoAs('hd2-get'))
  }],
  ['GET /nohead exposeHeadRoute=false', (app) => app.route({ method: 'GET', url: '/nohead', exposeHeadRoute: false, handler: echoAs('nohead') })],
  ['OPTIONS /opt', (app) => app.route({ method: 'OPTIONS', url: '/opt', handler: (_q: Any, reply: Any) => { reply.header('allow', 'GET, OPTIONS').code(204).send() } })],
  ['GET /cfg config', (app) => app.route({ method: 'GET', url: '/cfg', config: { flag: 'on', n: 2 }, handler: echoAs('cfg') })],
  ['POST /bl bodyLimit=12', (app) => app.route({ method: 'POST', url: '/bl', bodyLimit: 12, handler: echoAs('bl') })],
  ['GET /hidden schema.hide', (app) => app.route({ method: 'GET', url: '/hidden', schema: { hide: true, querystring: { type: 'object', properties: { n: { type: 'integer' } } } }, handler: echoAs('hidden') })],
  ['GET /av attachValidation', (app) => app.route({ method: 'GET', url: '/av', attachValidation: true, schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }, handler: echoAs('av') })],
  ['POST /av attachValidation body', (app) => app.route({ method: 'POST', url: '/av', attachValidation: true, schema: { body: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } }, handler: echoAs('av-post') })],
  ['GET /re/:id(^\\d+)', (app) => app.get('/re/:id(^\\d+)', echoAs('re'))],
  ['GET /d/:y(^\\d{4})-:m(^\\d{2})', (app) => app.get('/d/:y(^\\d{4})-:m(^\\d{2})', echoAs('date'))],
  ['GET /mp/:a-:b', (app) => app.get('/mp/:a-:b', echoAs('mp'))],
  ['GET /fl/:file.:ext', (app) => app.get('/fl/:file.:ext', echoAs('fl'))],
  ['GET /wc/*', (app) => app.get('/wc/*', echoAs('wc'))],
  ['GET /Mixed/Case', (app) => app.get('/Mixed/Case', echoAs('mixed'))],
  ['GET /col/:id and GET /col/new', (app) => { app.get('/col/:id', echoAs('col-id')); app.get('/col/new', echoAs('col-new')) }],
  ['GET /ts and GET /ts/', (app) => { app.get('/ts', echoAs('ts')); app.get('/ts/', echoAs('ts-slash')) }],
]

// Each path a route above answers, some it nearly answers, and the prefixed `/` routes' spellings.
const PATHS = [
  '/ma', '/ma/', '/ma2/7', '/ma2/', '/by-path', '/by-path/', '/all', '/all/', '/hd', '/hd2', '/nohead', '/opt', '/cfg', '/cfg/', '/bl', '/hidden?n=1',
  '/hidden?n=x', '/av?n=1', '/av?n=x', '/av', '/re/12', '/re/ab', '/re/1a', '/d/2024-05', '/d/24-05', '/d/2024-5', '/mp/a-b', '/mp/a-b-c', '/mp/-b',
  '/fl/a.txt', '/fl/a.b.c', '/fl/a', '/wc/x/y', '/wc/', '/wc', '/Mixed/Case', '/mixed/case', '/col/new', '/col/7', '/col/', '/ts', '/ts/', '/ts//',
  '/', '//', '/pf', '/pf/', '/pf//', '/PF', '/nope', `/re/${'1'.repeat(12)}`, `/mp/${'a'.repeat(9)}-b`,
]

const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']

/** What a case declares: drawn once, declared by roSetup() (as written, or as Enclave reads it). */
export interface RoShape {
  routes: string[]
  prefix?: string
  prefixTrailingSlash?: typeof PREFIX_ROUTE_OPTIONS[number]
  doubleSlash: boolean
  configHook: boolean
}

export interface RouteOptionsDrawn {
  route: RouteSpec
  request: RequestSpec
  server: Record<string, unknown>
  note: string
  ro: RoShape
}

/**
 * The setup declaring `shape`. `headsOff`: the GET routes whose implicit HEAD route Fastify 3
 * cannot add (a user HEAD at the same path declared after it; a `/` route under a prefix written
 * with its slash, whose two HEAD halves collide there) are declared with `exposeHeadRoute: false`,
 * as Enclave reads them (route-options-differences.ts).
 */
export function roSetup(shape: RoShape, headsOff = false): (app: Any) => void {
  const declared = ROUTES.filter(([name]) => shape.routes.includes(name))
  return (app) => {
    if (shape.configHook) {
      app.addHook('onRequest', async (_request: Any, reply: Any) => {
        const config = reply.context?.config ?? {}
        reply.header('x-config', `${String(config.flag ?? '-')} ${String(config.url ?? '-')}`)
      })
    }
    for (const [name, declare] of declared) {
      if (headsOff && name === HEAD_OVER_GET) {
        app.get('/hd', { exposeHeadRoute: false }, echoAs('hd-get'))
        app.head('/hd', (_q: Any, reply: Any) => { reply.header('x-head', 'user').send() })
      } else declare(app)
    }
    if (shape.prefix !== undefined) {
      const noHead = headsOff && shape.prefix.endsWith('/') && (shape.prefixTrailingSlash ?? 'both') === 'both'
      app.register(async (child: Any) => {
        child.route({ method: 'GET', url: '/', ...(shape.prefixTrailingSlash ? { prefixTrailingSlash: shape.prefixTrailingSlash } : {}), ...(noHead ? { exposeHeadRoute: false } : {}), handler: echoAs('prefixed /') })
      }, shape.prefix === '' ? {} : { prefix: shape.prefix })
    }
    if (shape.doubleSlash) app.get('//', echoAs('double'))
  }
}

export const HEAD_OVER_GET = 'GET /hd + user HEAD /hd'

export function drawRouteOptionsCase(r: Random): RouteOptionsDrawn {
  const server: Record<string, unknown> = {}
  const notes: string[] = []
  if (r.chance(0.3)) { server.ignoreTrailingSlash = true; notes.push('ignoreTrailingSlash') }
  if (r.chance(0.2)) { server.caseSensitive = false; notes.push('caseSensitive=false') }
  if (r.chance(0.2)) { server.maxParamLength = r.pick([4, 8]); notes.push(`maxParamLength=${String(server.maxParamLength)}`) }
  if (r.chance(0.25)) { server.exposeHeadRoutes = r.pick([false, true]); notes.push(`exposeHeadRoutes=${String(server.exposeHeadRoutes)}`) }
  const routes = r.some(ROUTES, r.int(3, 7)).map(([name]) => name)
  // A `/` route under one of the prefixes apps write (none, '/', with and without the slash).
  const prefix = r.pick([undefined, '', '/', '/pf', '/pf/'])
  const prefixTrailingSlash = r.pick([undefined, ...PREFIX_ROUTE_OPTIONS])
  const doubleSlash = r.chance(0.15)
  // An onRequest hook reading the route's config (as auth plugins do): its header shows what it saw.
  const configHook = r.chance(0.5)
  notes.push(`routes: ${routes.join(', ')}`)
  if (prefix !== undefined) notes.push(`plugin prefix=${JSON.stringify(prefix)} GET /${prefixTrailingSlash ? ` prefixTrailingSlash=${prefixTrailingSlash}` : ''}`)
  if (doubleSlash) notes.push('GET //')
  if (configHook) notes.push('onRequest reads reply.context.config')
  const ro: RoShape = { routes, prefix, prefixTrailingSlash, doubleSlash, configHook }
  const method = r.pick(METHODS)
  const request: RequestSpec = { method, url: r.pick(PATHS) }
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    request.headers = { 'content-type': 'application/json' }
    request.payload = r.pick(['{"a":1}', '{"a":"x"}', '{"long":"more than twelve bytes"}', '{}'])
  }
  // The case's own route: a plain GET apps.ts declares after the setup.
  const route: RouteSpec = { method: 'GET', url: '/own', handler: echoAs('own'), setup: roSetup(ro) }
  return { route, request, server, note: notes.join('; '), ro }
}
