// The server-options family: options given to both constructors (trustProxy in its four forms,
// caseSensitive, maxParamLength, bodyLimit server and route, proto/constructor poisoning,
// request ids, exposeHeadRoutes, ignoreTrailingSlash, a custom querystringParser) and a handler
// (and a not-found handler) that echoes what it reads off the request: url, routerPath,
// routerMethod, params, query, body, ip, ips, hostname, protocol, id, is404. Requests carry
// X-Forwarded-* chains, request-id headers, poisoned JSON and URL edge cases.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

export interface ServerOptionsDrawn {
  route: RouteSpec
  request: RequestSpec
  server: Record<string, unknown>
  note: string
}

/** What a handler reads off the request, as JSON (undefined fields drop out on both sides). */
export const readRequest: Handler = (request) => ({
  url: request.url,
  method: request.method,
  routerPath: request.routerPath,
  routerMethod: request.routerMethod,
  params: request.params,
  query: request.query,
  body: request.body ?? null,
  ip: request.ip,
  ips: request.ips,
  hostname: request.hostname,
  protocol: request.protocol,
  id: request.id,
  is404: request.is404,
})

// Named so that a failure says which: functions cannot be printed.
const TRUST: Array<[string, unknown]> = [
  ['true', true], ['hops 1', 1], ['hops 2', 2], ['loopback', '127.0.0.1'], ['cidr list', '10.0.0.0/8, 127.0.0.0/8'],
  ['array', ['127.0.0.1', '192.168.1.1']], ['other subnet', '10.0.0.0/8'], ['function hop<1', (_address: string, hop: number) => hop < 1],
  ['function loopback', (address: string) => address === '127.0.0.1'],
]

const QUERY_PARSERS: Array<[string, (text: string) => Record<string, unknown>]> = [
  ['raw', (text) => ({ raw: text })],
  ['semicolons', (text) => Object.fromEntries(text.split(/[;&]/).filter(Boolean).map((p) => [p.split('=')[0] as string, p.split('=').slice(1).join('=')]))],
]

const GEN_IDS: Array<[string, (request: any) => string]> = [
  ['fixed', () => 'fixed-id'],
  ['from header', (request) => `gen-${String(request.headers['x-other'] ?? 'none')}`],
]

const FORWARDED_FOR = ['1.1.1.1', '1.1.1.1, 2.2.2.2', ' 3.3.3.3 ,4.4.4.4', '1.1.1.1, 10.0.0.1, 127.0.0.1', 'garbage', '', '::1, 2001:db8::1']
const FORWARDED_HOST = ['ex.com', 'a.com, b.com', 'ex.com:8080', 'EX.com', '']
const FORWARDED_PROTO = ['https', 'http, https', 'https, http', 'wss', '']

const ROUTES = ['/o', '/o/:id', '/Mixed/:id/x', '/w/*', '/t/', '/q']

const URLS: Record<string, string[]> = {
  '/o': ['/o', '/O', '/o/', '/o?', '/o?a=1&a=2&b', '/o#frag', '/o?x=1#y', '//o', '/o?a=%20b&c=%ZZ', '/o?;a=1;b=2', `/o?${'k=v&'.repeat(40)}`],
  '/o/:id': ['/o/1', '/o/a%2Fb', '/o/a%252F', '/o/%00', '/o/%E2%82%AC', `/o/${'x'.repeat(101)}`, `/o/${'x'.repeat(100)}`, '/O/1', '/o/1/', '/o/', '/o/1?q=1'],
  '/Mixed/:id/x': ['/Mixed/1/x', '/mixed/1/x', '/MIXED/Ab/X', '/Mixed/1/x/', `/Mixed/${'y'.repeat(30)}/x`],
  '/w/*': ['/w/a/b', '/w/', '/w', '/W/a', '/w/a%2Fb', '/w/%2e%2e/x', `/w/${'z'.repeat(300)}`],
  '/t/': ['/t/', '/t', '/T/', '/t//'],
  '/q': ['/q?', '/q?a', '/q?a=1&b=2', '/q?a[b]=1', '/q?a=1;b=2', '/q?=x', '/q?a=%E9', '/nope/q'],
}

const POISONED = ['{"a":1}', '{"__proto__":{"x":1},"a":1}', '{"constructor":{"prototype":{"x":1}},"a":1}', '{"a":{"__proto__":{"y":2}}}', '{"\\u005f_proto__":{"z":1}}', '{"constructor":{"a":1}}']

function drawServer(r: Random): { server: Record<string, unknown>; notes: string[] } {
  const server: Record<string, unknown> = {}
  const notes: string[] = []
  if (r.chance(0.5)) { const [name, value] = r.pick(TRUST); server.trustProxy = value; notes.push(`trustProxy=${name}`) }
  if (r.chance(0.25)) { server.caseSensitive = false; notes.push('caseSensitive=false') }
  if (r.chance(0.25)) { server.ignoreTrailingSlash = true; notes.push('ignoreTrailingSlash') }
  if (r.chance(0.2)) { server.maxParamLength = r.pick([5, 20, 100]); notes.push(`maxParamLength=${String(server.maxParamLength)}`) }
  if (r.chance(0.2)) { server.bodyLimit = r.pick([10, 30, 1000]); notes.push(`bodyLimit=${String(server.bodyLimit)}`) }
  if (r.chance(0.3)) { server.onProtoPoisoning = r.pick(['error', 'remove', 'ignore']); notes.push(`onProtoPoisoning=${String(server.onProtoPoisoning)}`) }
  if (r.chance(0.3)) { server.onConstructorPoisoning = r.pick(['error', 'remove', 'ignore']); notes.push(`onConstructorPoisoning=${String(server.onConstructorPoisoning)}`) }
  if (r.chance(0.25)) { server.requestIdHeader = r.pick(['x-request-id', 'request-id']); notes.push(`requestIdHeader=${String(server.requestIdHeader)}`) }
  if (r.chance(0.2)) { const [name, fn] = r.pick(GEN_IDS); server.genReqId = fn; notes.push(`genReqId=${name}`) }
  if (r.chance(0.2)) { server.exposeHeadRoutes = r.pick([false, true]); notes.push(`exposeHeadRoutes=${String(server.exposeHeadRoutes)}`) }
  if (r.chance(0.2)) { const [name, fn] = r.pick(QUERY_PARSERS); server.querystringParser = fn; notes.push(`querystringParser=${name}`) }
  return { server, notes }
}

function drawHeaders(r: Random, server: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {}
  if (r.chance(0.5)) headers['x-forwarded-for'] = r.pick(FORWARDED_FOR)
  if (r.chance(0.35)) headers['x-forwarded-host'] = r.pick(FORWARDED_HOST)
  if (r.chance(0.35)) headers['x-forwarded-proto'] = r.pick(FORWARDED_PROTO)
  // Always a Host: over a socket the default would carry each server's own port.
  headers.host = r.chance(0.2) ? r.pick(['example.com', 'example.com:3000', 'EXAMPLE.com']) : 'localhost:80'
  if (r.chance(0.3)) headers[r.pick(['x-request-id', 'request-id'])] = r.pick(['abc-1', 'client id', ''])
  if (server.genReqId !== undefined && r.chance(0.5)) headers['x-other'] = 'o1'
  return headers
}

export function drawServerOptionsCase(r: Random): ServerOptionsDrawn {
  const { server, notes } = drawServer(r)
  const url = r.pick(ROUTES)
  const method = r.pick(['GET', 'GET', 'POST', 'PUT'])
  const options: Record<string, unknown> = {}
  if (method !== 'GET' && r.chance(0.25)) { options.bodyLimit = r.pick([8, 40]); notes.push(`route bodyLimit=${String(options.bodyLimit)}`) }
  const route: RouteSpec = {
    method,
    url,
    handler: readRequest,
    options,
    // Unknown URLs read the same properties (is404 among them).
    setup: (app) => { app.setNotFoundHandler((request: any, reply: any) => { reply.code(404).send({ nf: true, ...(readRequest(request, reply) as object) }) }) },
  }
  const target = r.chance(0.85) ? r.pick(URLS[url] as string[]) : r.pick(Object.values(URLS).flat())
  // HEAD only where both have a HEAD route or neither does (exposeHeadRoutes given): the handler
  // reads request.method, so Enclave's implicit HEAD is not its GET without the body here.
  const verb = r.chance(0.85) ? method : r.pick(server.exposeHeadRoutes === undefined ? ['GET', 'POST', 'DELETE'] : ['GET', 'HEAD', 'POST', 'DELETE'])
  const headers = drawHeaders(r, server)
  const request: RequestSpec = { method: verb, url: target, headers }
  if (verb === 'POST' || verb === 'PUT' || (verb === 'GET' && r.chance(0.1))) {
    headers['content-type'] = 'application/json'
    request.payload = r.chance(0.8) ? r.pick(POISONED) : JSON.stringify({ long: 'x'.repeat(r.pick([5, 50, 2000])) })
  }
  return { route, request, server, note: notes.join(' ') || 'defaults' }
}
