// The `bodies` family: request bodies where clients and apps meet edge cases. Content-Type
// variants (charset parameters, case, `charset=latin1`, quoted parameters, `+json` suffixes, none
// at all with a body), empty bodies with a JSON type and `Content-Length: 0` on every method that
// parses, Content-Length that does not match the bytes (inject only: a socket would wait or read
// the rest as the next request), bodies on GET, HEAD, DELETE and OPTIONS, custom parsers with
// `parseAs` string and buffer (callback and async, a replaced JSON parser, a catch-all `*`, a
// parser's own `bodyLimit`), a route's `bodyLimit`, and body schemas over what the parser made.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export interface BodiesDrawn {
  route: RouteSpec
  request: RequestSpec
  note: string
}

const echoBody: Handler = (request) => {
  const body = request.body
  return { body: Buffer.isBuffer(body) ? { buffer: body.toString('hex') } : body ?? null, kind: body === undefined ? 'undefined' : body === null ? 'null' : Buffer.isBuffer(body) ? 'buffer' : typeof body }
}

type Done = (error: Error | null, value?: unknown) => void

/** The `text limited` parser's own `bodyLimit` (bodies-differences.ts reads it). */
export const PARSER_BODY_LIMIT = 6

function badRequest(message: string): Error {
  return Object.assign(new Error(message), { statusCode: 400 })
}

/** Custom parsers as apps write them; each is declared the same way on both frameworks. */
const PARSERS: Array<[string, (app: Any) => void]> = [
  ['csv string', (app) => app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_q: Any, body: string, done: Done) => { done(null, body.split(',')) })],
  ['octet buffer', (app) => app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_q: Any, body: Buffer, done: Done) => { done(null, { bytes: body.length, first: body[0] ?? null }) })],
  ['form async', (app) => app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, async (_q: Any, body: string) => Object.fromEntries(new URLSearchParams(body)))],
  ['json replaced', (app) => {
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_q: Any, body: string, done: Done) => {
      try {
        done(null, { parsed: body === '' ? null : JSON.parse(body) })
      } catch (error) {
        done(badRequest(`custom json: ${(error as Error).message.split('\n')[0] as string}`))
      }
    })
  }],
  ['catch-all string', (app) => app.addContentTypeParser('*', { parseAs: 'string' }, (request: Any, body: string, done: Done) => { done(null, { any: body, type: request.headers['content-type'] ?? null }) })],
  ['text limited', (app) => app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: PARSER_BODY_LIMIT }, (_q: Any, body: string, done: Done) => { done(null, `text:${body}`) })],
  ['xml rejects', (app) => app.addContentTypeParser('application/xml', { parseAs: 'string' }, (_q: Any, body: string, done: Done) => { if (body.startsWith('<')) done(null, { xml: body }); else done(badRequest('not xml')) })],
]

const TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/json;charset=UTF-8', 'application/json ; charset="utf-8"',
  'Application/JSON', 'application/json, text/plain', 'application/problem+json', 'application/vnd.api+json; charset=utf-8', 'application/json-patch+json',
  'text/plain', 'text/plain; charset=iso-8859-1', 'text/csv', 'text/csv; header=present', 'application/octet-stream', 'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8', 'application/xml', 'image/png', 'multipart/form-data; boundary=b', 'application/', ';charset=utf-8', 'json', '',
]

const PAYLOADS: Array<string | Buffer> = [
  '{"a":1}', '{"a":1}', '', ' ', '[1,2]', 'null', '"s"', '{bad', 'a,b,c', 'a=1&b=2&a=3', '<x/>', 'plain', '{"a":"é"}',
  Buffer.from('{"a":"é"}', 'latin1'), Buffer.from([0, 1, 2, 255]), `{"long":"${'x'.repeat(120)}"}`,
]

const SCHEMAS: Array<Record<string, unknown>> = [
  { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
  { type: 'object' },
  { type: 'array' },
  { type: 'string' },
  { type: 'object', properties: { parsed: { type: 'object' } }, required: ['parsed'] },
]

export function drawBodiesCase(r: Random): BodiesDrawn {
  const notes: string[] = []
  const parsers = r.some(PARSERS, 2)
  if (parsers.length > 0) notes.push(`parsers: ${parsers.map(([name]) => name).join(', ')}`)
  const method = r.pick(['POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'GET', 'HEAD'])
  const options: Record<string, unknown> = {}
  if (r.chance(0.2)) { options.bodyLimit = r.pick([4, 12, 64]); notes.push(`route bodyLimit=${String(options.bodyLimit)}`) }
  const schema = method !== 'GET' && method !== 'HEAD' && r.chance(0.3) ? { body: r.pick(SCHEMAS) } : undefined
  const route: RouteSpec = { method, url: '/b', schema, handler: echoBody, options, setup: (app) => { for (const [, declare] of parsers) declare(app) } }
  const type = r.pick(TYPES)
  const headers: Record<string, string> = type === '' ? {} : { 'content-type': type }
  let payload: string | Buffer | undefined = r.pick(PAYLOADS)
  // Sometimes no body at all (no Content-Length either), sometimes the length said and not sent.
  const framing = r.int(0, 9)
  if (framing === 0) payload = undefined
  else if (framing === 1) { headers['content-length'] = '0'; payload = '' }
  else if (framing === 2 && payload !== '') { headers['content-length'] = String(Buffer.byteLength(payload) + r.pick([-1, 1, 5])); notes.push('content-length mismatch') }
  // Chunked, no Content-Length (as a streaming client sends it).
  else if (framing === 3) { headers['transfer-encoding'] = 'chunked'; notes.push('chunked') }
  // The same verb as the route most often; sometimes another the route does not have.
  const verb = r.chance(0.85) ? method : r.pick(['POST', 'GET', 'DELETE'])
  const request: RequestSpec = { method: verb, url: r.pick(['/b', '/b', '/b?x=1', '/none']), headers, ...(payload === undefined ? {} : { payload }) }
  return { route, request, note: notes.join('; ') || 'defaults' }
}
