// The `http2` family: requests and replies that matter over HTTP/2 specifically, always sent over
// h2c (both servers `http2: true`, runSeed): `:authority` beside or without a Host header, `te:
// trailers`, request trailers, large request and reply headers (HPACK, the header list limit), a
// request Content-Length that is not its body's (nghttp2 checks it), a stream the client resets
// before or in the middle of its body, HEAD, 204/304/205 with a body, a reply length that is not
// its body's, reply trailers (`reply.raw.addTrailers()`), stream replies and hooks that hijack.
import { Readable } from 'node:stream'
import type { H2Extras, Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * What a handler reads of the request over HTTP/2: the pseudo-headers, the host as each framework
 * derives it. Not the method: Enclave's HEAD must be its GET without the body (run.ts).
 */
const echoRequest: Handler = (request) => ({
  url: request.url,
  hostname: request.hostname,
  protocol: request.protocol,
  httpVersion: request.raw.httpVersion,
  authority: request.headers[':authority'] ?? null,
  host: request.headers.host ?? null,
  path: request.headers[':path'] ?? null,
  scheme: request.headers[':scheme'] ?? null,
  te: request.headers.te ?? null,
  cookie: request.headers.cookie ?? null,
  big: typeof request.headers['x-big'] === 'string' ? request.headers['x-big'].length : null,
  body: request.body ?? null,
})

const ENDINGS: Array<[string, Handler, Record<string, unknown>?]> = [
  ['echo request', echoRequest],
  ['code 204 with a body', (_q, reply) => { reply.code(204).send({ dropped: true }) }],
  ['code 304 with a body', (_q, reply) => { reply.code(304).send('not modified body') }],
  ['code 205 with a body', (_q, reply) => { reply.code(205).send('reset content') }],
  ['Content-Length below the body', (_q, reply) => { reply.header('content-length', '3').type('text/plain').send('longer than three') }],
  ['Content-Length above the body', (_q, reply) => { reply.header('content-length', '40').type('text/plain').send('short') }],
  ['raw addTrailers then send', (_q, reply) => { reply.raw.addTrailers({ 'x-checksum': 'abc' }); reply.type('text/plain').send('with trailers') }],
  ['stream reply', (_q, reply) => { reply.type('text/plain').send(Readable.from(['a', 'b', 'c'])) }],
  ['reply header of 20000 bytes', (_q, reply) => { reply.header('x-large', 'v'.repeat(20_000)).send({ ok: true }) }],
  ['reply header of 70000 bytes', (_q, reply) => { reply.header('x-large', 'v'.repeat(70_000)).send({ ok: true }) }],
  ['send nothing', (_q, reply) => { reply.send() }],
  ['redirect', (_q, reply) => { reply.redirect('/elsewhere') }],
  ['throw 400', async () => { throw Object.assign(new Error('bad h2 thing'), { statusCode: 400 }) }],
  ['onRequest hijacks and ends raw', echoRequest, { onRequest: (_q: Any, reply: Any, done: () => void) => { reply.hijack(); reply.raw.writeHead(202, { 'content-type': 'text/plain', 'x-hijacked': '1' }); reply.raw.end('hijacked'); done() } }],
  ['preHandler hijacks, ends raw later', echoRequest, { preHandler: async (_q: Any, reply: Any) => { reply.hijack(); setTimeout(() => { reply.raw.writeHead(200, { 'content-type': 'text/plain' }); reply.raw.end('later') }, 5) } }],
  ['onSend rewrites to a text', echoRequest, { onSend: async (_q: Any, reply: Any) => { reply.type('text/plain'); return 'rewritten' } }],
]

const AUTHORITIES = ['example.test', 'example.test:8443', 'EXAMPLE.Test', '[::1]:8080', 'sub.example.test.', 'example.test:99999']
// No host[:port] (userinfo, a path, a space, a port that is not digits), as a Host header may be.
const BAD_AUTHORITIES = ['user@example.test', 'example.test/p', 'exa mple.test', 'example.test:8o']
const HOSTS: Array<string | undefined> = [undefined, undefined, undefined, undefined, undefined, undefined, 'same', 'same', 'same', 'other.test']

export function drawHttp2Case(r: Random): { route: RouteSpec; request: RequestSpec; note: string } {
  const [ending, handler, options] = r.pick(ENDINGS)
  const routeMethod = r.pick(['GET', 'GET', 'POST', 'PUT', 'DELETE'])
  const bodySchema = routeMethod !== 'GET' && r.chance(0.25) ? { body: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } } : undefined
  const route: RouteSpec = { method: routeMethod, url: '/h2', handler, ...(options !== undefined ? { options } : {}), ...(bodySchema !== undefined ? { schema: bodySchema } : {}) }
  // Mostly the route's method; a HEAD (a GET route's implicit one) and a wrong method sometimes.
  const method = r.chance(0.75) ? routeMethod : r.pick(['HEAD', 'GET', 'POST', 'OPTIONS'])
  const authority = r.chance(0.1) ? r.pick(BAD_AUTHORITIES) : r.pick(AUTHORITIES)
  const host = r.pick(HOSTS)
  const headers: Record<string, string> = {}
  if (host !== undefined) headers.host = host === 'same' ? authority : host
  if (r.chance(0.2)) headers.te = 'trailers'
  const bigHeader = r.chance(0.15) ? r.pick([8_000, 20_000, 70_000]) : undefined
  const url = r.pick(['/h2', '/h2', '/h2', '/h2?x=1', '/h2/', '/nope'])
  const withBody = method === 'POST' || method === 'PUT' || method === 'DELETE'
  let payload: string | undefined
  if (withBody && r.chance(0.85)) {
    headers['content-type'] = r.pick(['application/json', 'application/json', 'text/plain'])
    payload = r.pick(['{"a":1}', '{"a":"x"}', '{}', '{bad'])
    // A length that is not the body's: nghttp2 checks it against the DATA frames (RFC 9113 8.1.1).
    if (r.chance(0.15)) headers['content-length'] = r.pick(['2', '40'])
  }
  const h2: H2Extras = {
    authority,
    ...(bigHeader !== undefined ? { bigHeader } : {}),
    ...(payload !== undefined && r.chance(0.15) ? { trailers: { 'x-trailer': 'req' } } : {}),
    // HTTP/2 may split a Cookie header into one field per cookie (RFC 9113 8.2.3): joined with '; ' for the app.
    ...(r.chance(0.2) ? { cookies: r.pick([['a=1', 'b=2'], ['a=1', 'a=2', 'c=x y']]) } : {}),
    // Reset by the client (CANCEL) after its head, or after half its body: nothing to answer; what matters is that neither crashes.
    ...(r.chance(0.1) ? { reset: payload !== undefined && r.chance(0.5) ? 'mid-body' as const : 'after-head' as const } : {}),
  }
  const extras = [h2.trailers ? 'request trailers' : '', h2.cookies ? `cookies ${h2.cookies.join(' | ')}` : '', h2.reset ? `client resets ${h2.reset}` : '', bigHeader !== undefined ? `x-big of ${bigHeader} bytes` : ''].filter((s) => s !== '').join(', ')
  return { route, request: { method, url, headers, ...(payload !== undefined ? { payload } : {}), h2 }, note: `${ending}; :authority ${authority}${extras ? `; ${extras}` : ''}` }
}
