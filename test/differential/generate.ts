// The case families: each draws a route (schema + handler) and a request from the seed. Handlers
// are plain functions used as they are on both frameworks.
import type { Case, Handler, RequestSpec, RouteSpec } from './case'
import { appCase } from './app-case'
import { describeReplyShape, drawCookies, drawReplyShape, replyApiRequest, replyApiRoute } from './reply-api'
import { drawServerOptionsCase } from './server-options'
import { drawUrlsCase } from './urls'
import { drawBodiesCase } from './bodies'
import { drawLogsCase } from './logs'
import { drawContentTypesCase } from './content-types'
import { drawConstraintsCase } from './constraints'
import { drawRouteOptionsCase } from './route-options'
import { drawHttp2Case } from './http2-requests'
import { describeSerializersShape, drawSerializersShape, serializersRequest, serializersRoute } from './serializers'
import { drawValidationCase } from './validation'
import { describeEncShape, drawEncShape, encRequest, encRoute } from './encapsulation'
import { describeFlowShape, drawFlowShape, flowRequest, flowRoute } from './hook-flow'
import { Random } from './random'
import { drawQueryCoercionCase } from './query-coercion'
import { describeHeadShape, drawHeadShape, headRequest, headRoute } from './head-routes'
import { describeRefsShape, drawRefsShape, refsRequest, refsRoute } from './cross-scope-refs'
import { describeSerialShape, drawSerialShape, fastifyPicks, serialRequest, serialRoute } from './serialization'
import { describeErrorShape, drawErrorShape, errorsRequest, errorsRoute, exposes } from './errors'
import { describeLifecycleShape, drawLifecycleShape, lifecycleRequest, lifecycleRoute } from './reply-lifecycle'
import { describeSharedShape, drawSharedShape, sharedRequest, sharedRoute } from './shared-schemas'
import { describePaShape, drawPaShape, paRequest, paRoute } from './plugin-api'
import { describeSourcesShape, drawSourcesShape, sourcesRequest, sourcesRoute } from './error-sources'
import { drawParserLimitsCase } from './parser-limits'
import { describeThrownShape, drawThrownShape, thrownRequest, thrownRoute } from './thrown-values'
import { describePayloadShape, drawPayloadShape, payloadRequest, payloadRoute } from './reply-payloads'
import { objectSchema, responseSchema, scalarSchema, valueSchema, type Schema } from './schemas'
import { text, value } from './values'

type Drawn = { family: string; route: RouteSpec; request: RequestSpec; note?: string; response?: Case['response']; exposedError?: true; app?: Case['app']; reply?: Case['reply']; errors?: Case['errors']; serial?: Case['serial']; server?: Case['server']; flow?: Case['flow']; enc?: Case['enc']; logs?: true; lifecycle?: Case['lifecycle']; shared?: Case['shared']; sources?: Case['sources']; pa?: Case['pa']; ro?: Case['ro']; serializers?: Case['serializers']; ajv?: Record<string, unknown>; head?: Case['head']; refs?: Case['refs']; payloads?: Case['payloads']; thrown?: Case['thrown'] }

const echo: Handler = (request) => ({ body: request.body ?? null, query: request.query, params: request.params })

/**
 * Sometimes the shorthand both accept (spec §2.1): the properties map alone, no `type`; only for
 * schemas whose sole other keyword is `type: 'object'`.
 */
function maybeShorthand(r: Random, schema: Schema): Schema {
  const keys = Object.keys(schema)
  return r.chance(0.2) && keys.every((k) => k === 'type' || k === 'properties') ? (schema.properties as Schema) : schema
}

function queryString(r: Random, names: string[], schema: Schema): string {
  const props = (schema.properties ?? {}) as Record<string, Schema>
  const parts: string[] = []
  for (const name of names) {
    if (!r.chance(0.8)) continue
    const times = r.chance(0.15) ? 2 : 1 // a repeated key is an array to the parser
    for (let i = 0; i < times; i++) parts.push(`${name}=${encodeURIComponent(text(r, props[name] ?? {}, 0.35))}`)
  }
  if (r.chance(0.15)) parts.push(`extra=${encodeURIComponent(r.pick(['1', 'x', '']))}`)
  // Raw query text as clients write it: brackets, plus signs, bare keys, stray separators, bad escapes.
  if (r.chance(0.15)) parts.push(r.pick(['a[]=1', 'q=1+2', 'q', '=1', '', 'q=%', 'q=%E9', 'n=1&n=', 'b=%2B1', 'q=a%26b%3Dc']))
  return parts.length > 0 ? `?${parts.join('&')}` : ''
}

function querystringCase(r: Random): Drawn {
  const names = r.some(['a', 'b', 'n'], 3).concat(['q'])
  const schema = objectSchema(r, names, (rr) => (rr.chance(0.2) ? { type: 'array', items: scalarSchema(rr) } : scalarSchema(rr)), 0)
  return { family: 'querystring', route: { method: 'GET', url: '/t', schema: { querystring: maybeShorthand(r, schema) }, handler: echo }, request: { method: 'GET', url: `/t${queryString(r, names, schema)}` } }
}

function paramsCase(r: Random): Drawn {
  const schema = objectSchema(r, ['a', 'b'], scalarSchema, 0)
  const props = schema.properties as Record<string, Schema>
  const seg = (name: string): string => encodeURIComponent(text(r, props[name] as Schema, 0.4)) || 'x'
  return { family: 'params', route: { method: 'GET', url: '/p/:a/:b', schema: { params: maybeShorthand(r, schema) }, handler: echo }, request: { method: 'GET', url: `/p/${seg('a')}/${seg('b')}` } }
}

function headersCase(r: Random): Drawn {
  const names = r.some(['x-a', 'x-b', 'x-num'], 3).concat(['x-q'])
  const schema = objectSchema(r, names, scalarSchema, 0)
  if (schema.additionalProperties === false) delete schema.additionalProperties // every request has host, user-agent ...
  const headers: Record<string, string> = {}
  const props = schema.properties as Record<string, Schema>
  for (const name of names) if (r.chance(0.8)) headers[r.chance(0.2) ? name.toUpperCase() : name] = text(r, props[name] as Schema, 0.35)
  const handler: Handler = (request) => Object.fromEntries(names.map((name) => [name, request.headers[name] ?? '(absent)']))
  return { family: 'headers', route: { method: 'GET', url: '/h', schema: { headers: maybeShorthand(r, schema) }, handler }, request: { method: 'GET', url: '/h', headers } }
}

function bodyCase(r: Random): Drawn {
  const schema = r.chance(0.85) ? objectSchema(r, r.some(['a', 'b', 'c', 'n'], 4), valueSchema, 0) : valueSchema(r)
  const payload = r.chance(0.06) ? r.pick(['', '{', '{"a":1,}', '1e400', '{"a":1e999}', '{"__proto__":{"x":1}}', '\uFEFF{"a":1}', '  {"a":"x"}  ', '{"a":1,"a":"2"}', '{"a":"\\u00e9\\ud83d\\udca5"}', '{"constructor":{"prototype":{"x":1}}}', '[]']) : JSON.stringify(value(r, schema, 0.35))
  const method = r.pick(['POST', 'POST', 'PUT', 'PATCH'])
  return { family: 'body', route: { method, url: '/b', schema: { body: schema }, handler: echo }, request: { method, url: '/b', headers: { 'content-type': 'application/json' }, payload } }
}

function dateOr(r: Random, v: unknown): unknown {
  return r.chance(0.15) ? new Date(Date.UTC(2020, 0, 2, r.pick([0, 10]), 30, 0)) : v
}

function responseCase(r: Random): Drawn {
  const schema = responseSchema(r)
  const status = r.pick([200, 200, 200, 201])
  const drawn = value(r, schema, 0.4)
  const seed = r.int(0, 2 ** 31)
  // A fresh value per request (Dates included), derived from the same draw on both sides.
  const make = (): unknown => {
    const rr = new Random(seed)
    if (drawn !== null && typeof drawn === 'object' && !Array.isArray(drawn)) {
      return Object.fromEntries(Object.entries(drawn as Record<string, unknown>).map(([k, v]) => [k, dateOr(rr, v)]))
    }
    return dateOr(rr, drawn)
  }
  const key = r.pick(['200', String(status), '2xx'])
  const handler: Handler = async (_request, reply) => { reply.code(status); return make() }
  return { family: 'response', route: { method: 'GET', url: '/r', schema: { response: { [key]: maybeShorthand(r, schema) } }, handler }, request: { method: 'GET', url: '/r' }, note: `status ${status} value ${JSON.stringify(make())}`, response: key === '2xx' || key === String(status) ? { status, schema, value: make } : undefined }
}

function statusError(status: number, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { statusCode: status }, extra)
}

const REPLIES: Array<[string, Handler]> = [
  ['return string', async () => 'hello'],
  ['return empty string', async () => ''],
  ['return buffer', async () => Buffer.from('bin')],
  ['return null', async () => null],
  ['return number', async () => 42],
  ['return boolean', async () => false],
  ['return array', async () => [1, 'a', null]],
  ['return date object', async () => ({ when: new Date(0) })],
  ['send string', (_q, reply) => { reply.send('sent') }],
  ['send nothing', (_q, reply) => { reply.send() }],
  ['send undefined after code 204', (_q, reply) => { reply.code(204).send() }],
  ['code 201 object', (_q, reply) => { reply.code(201).send({ a: 1 }) }],
  ['text/plain string', (_q, reply) => { reply.type('text/plain').send('t') }],
  ['html with charset', (_q, reply) => { reply.type('text/html; charset=latin1').send('<b>') }],
  ['json type string', (_q, reply) => { reply.type('application/json').send('{"pre":1}') }],
  ['custom header', (_q, reply) => { reply.header('x-extra', 'v').header('X-Upper', 2).send({ ok: true }) }],
  ['redirect', (_q, reply) => { reply.redirect('/elsewhere') }],
  ['redirect 301', (_q, reply) => { reply.redirect(301, '/moved') }],
  ['throw Error', async () => { throw new Error('boom') }],
  ['throw 400', async () => { throw statusError(400, 'bad thing') }],
  ['throw 404', async () => { throw statusError(404, 'no such') }],
  ['throw 418', async () => { throw statusError(418, 'teapot') }],
  ['throw 503 exposed', async () => { throw statusError(503, 'later', { expose: true }) }],
  ['throw with code', async () => { throw statusError(409, 'conflict', { code: 'E_CONFLICT' }) }],
  ['throw with validation', async () => { throw statusError(400, 'body/a should be integer', { validation: [{ keyword: 'type', dataPath: '.a', message: 'should be integer' }] }) }],
  ['throw plain object 400', async () => { throw { statusCode: 400, message: 'plain' } }],
  ['send Error 422', (_q, reply) => { reply.send(statusError(422, 'unprocessable')) }],
  ['code 404 then throw plain Error', async (_q, reply) => { reply.code(404); throw new Error('nf') }],
  ['code 400 send object', (_q, reply) => { reply.code(400).send({ custom: 'shape' }) }],
  ['code 204 with payload', (_q, reply) => { reply.code(204).send({ dropped: true }) }],
  ['callNotFound', (_q, reply) => { reply.callNotFound() }],
  ['send unicode', async () => ({ s: 'é💥\u2028' })],
  ['send big number', async () => ({ n: 2 ** 53 + 2, f: 1e21, tiny: 1e-7 })],
]

// Response schemas an error or a plain reply may meet: an error shape, a narrower one, a success one.
const REPLY_SCHEMAS: Array<Record<string, Schema>> = [
  { '4xx': { type: 'object', properties: { statusCode: { type: 'integer' }, message: { type: 'string' } } } },
  { 400: { type: 'object', properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' }, code: { type: 'string' } }, required: ['message'] } },
  { '5xx': { type: 'object', properties: { message: { type: 'string' } } } },
  { 200: { type: 'object', properties: { ok: { type: 'boolean' }, when: { type: 'string', format: 'date-time' } } } },
  { 201: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
]

function replyCase(r: Random): Drawn {
  const [name, handler] = r.pick(REPLIES)
  const method = r.pick(['GET', 'GET', 'POST'])
  const request: RequestSpec = method === 'POST' ? { method, url: '/x', headers: { 'content-type': 'application/json' }, payload: '{}' } : { method, url: '/x' }
  const schema = r.chance(0.3) ? { response: r.pick(REPLY_SCHEMAS) } : undefined
  // The README's 5xx rule does not cover an error that says its message is for the client.
  return { family: 'reply', route: { method, url: '/x', schema, handler }, request, note: name, ...(/\bexposed\b/.test(name) ? { exposedError: true } : {}) }
}

function routingCase(r: Random): Drawn {
  const method = r.pick(['GET', 'POST', 'DELETE', 'PUT'])
  const url = r.pick(['/r/:id', '/r/static', '/r/:id/sub', '/r/*'])
  const target = r.pick(['/r/1', '/r/static', '/r/1/sub', '/r/', '/r', '/R/1', '/r/1/', '/nope', '/r/1?x=1', '/r/%31', '/r/a%20b', '//r/1'])
  const verb = r.chance(0.7) ? method : r.pick(['GET', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'])
  const request: RequestSpec = verb === 'POST' || verb === 'PUT' || verb === 'PATCH' ? { method: verb, url: target, headers: { 'content-type': 'application/json' }, payload: '{"k":1}' } : { method: verb, url: target }
  return { family: 'routing', route: { method, url, handler: echo }, request }
}

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=UTF-8', 'Application/Json ; charset=utf-8',
  'text/plain', 'text/plain; charset=utf-8', 'TEXT/PLAIN', 'application/x-www-form-urlencoded', 'application/xml', 'application/jsonx', 'application/vnd.api+json', 'multipart/form-data; boundary=x', '']

function contentTypeCase(r: Random): Drawn {
  const type = r.pick(CONTENT_TYPES)
  const payload = r.pick(['{"a":1}', '', '\uFEFF{"a":1}', '[1]', 'null', '{bad', '"s"', 'plain words', '{"a":"é"}', ' '])
  const schema = r.chance(0.3) ? { body: r.pick([{ type: 'object' }, { type: 'string' }, { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }]) } : undefined
  const method = r.pick(['POST', 'PUT', 'DELETE', 'GET', 'OPTIONS'])
  const headers: Record<string, string> = type === '' ? {} : { 'content-type': type }
  // A GET route's body schema is refused by neither; its body is never parsed (both: null).
  return { family: 'content-type', route: { method, url: '/c', schema, handler: echo }, request: { method, url: '/c', headers, payload } }
}

const HOOKS: Array<[string, Record<string, unknown>]> = [
  ['preHandler throws 401', { preHandler: async () => { throw statusError(401, 'who are you') } }],
  ['onRequest replies 403', { onRequest: (_q: unknown, reply: any, done: () => void) => { reply.code(403).send({ denied: true }); done() } }],
  ['onRequest done(error)', { onRequest: (_q: unknown, _r: unknown, done: (e?: Error) => void) => { done(statusError(429, 'slow down')) } }],
  ['preSerialization wraps', { preSerialization: async (_q: unknown, _r: unknown, payload: unknown) => ({ wrapped: payload }) }],
  ['onSend upper-cases text', { onSend: async (_q: unknown, reply: any, payload: unknown) => (typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/plain') ? payload.toUpperCase() : payload) }],
  ['onSend returns null', { onSend: async () => null }],
  ['preValidation edits body', { preValidation: async (request: any) => { if (request.body && typeof request.body === 'object') request.body.added = '1' } }],
  ['preHandler sets header', { preHandler: async (_q: unknown, reply: any) => { reply.header('x-hook', 'yes') } }],
  ['attachValidation', { attachValidation: true }],
]

const HOOK_HANDLERS: Array<[string, Handler]> = [
  ['echo', echo],
  ['text', async () => 'plain text'],
  ['validationError', (request) => ({ failed: request.validationError?.message ?? null, body: request.body ?? null })],
]

function hooksCase(r: Random): Drawn {
  const [hookName, options] = r.pick(HOOKS)
  const [handlerName, handler] = r.pick(HOOK_HANDLERS)
  const schema = r.chance(0.5) ? { body: { type: 'object', properties: { a: { type: 'integer' }, added: { type: 'integer' } }, additionalProperties: false } } : undefined
  const response = r.chance(0.3) ? { response: { 200: { type: 'object', properties: { body: { type: 'object', additionalProperties: true }, wrapped: { type: 'object', additionalProperties: true }, failed: { type: ['string', 'null'] } } } } } : {}
  const payload = r.pick(['{"a":1}', '{"a":"x"}', '{}', '{"b":2}'])
  return {
    family: 'hooks',
    route: { method: 'POST', url: '/k', schema: schema || Object.keys(response).length > 0 ? { ...schema, ...response } : undefined, handler, options },
    request: { method: 'POST', url: '/k', headers: { 'content-type': 'application/json' }, payload },
    note: `${hookName}, handler ${handlerName}`,
  }
}

const AJV_OPTIONS: Array<Record<string, unknown>> = [
  { coerceTypes: 'array' }, { removeAdditional: 'all' }, { allErrors: true }, { useDefaults: false }, { coerceTypes: false }, { removeAdditional: false, allErrors: true },
]

// Plugins and encapsulation: the whole app is drawn; `route` only names the request for replays.
function appFamilyCase(r: Random): Drawn {
  const { shape, request, summary } = appCase(r)
  return { family: 'app', route: { method: request.method, url: request.url, handler: echo }, request, note: summary, app: shape }
}

// The reply API as handlers use it: reply calls, every payload kind, hooks changing the payload.
function replyApiCase(r: Random): Drawn {
  const shape = drawReplyShape(r)
  const request = replyApiRequest(r, shape)
  drawCookies(r, shape)
  return { family: 'reply-api', route: replyApiRoute(shape), request, note: describeReplyShape(shape), reply: shape, ...(shape.ending.e !== 'redirect' && 'error' in shape.ending && shape.ending.error === 'expose-5xx' ? { exposedError: true } : {}) }
}

// Error handlers, errors raised at every stage, validation and not-found errors (errors.ts).
function errorsCase(r: Random): Drawn {
  const shape = drawErrorShape(r)
  return { family: 'errors', route: errorsRoute(shape), request: errorsRequest(r, shape), note: describeErrorShape(shape), errors: shape, ...(exposes(shape) ? { exposedError: true } : {}) }
}

// Response schemas by status and the values that tell serializers apart (serialization.ts).
function serializationCase(r: Random): Drawn {
  const shape = drawSerialShape(r)
  return { family: 'serialization', route: serialRoute(shape), request: serialRequest(), note: describeSerialShape(shape), serial: shape, response: fastifyPicks(shape) }
}

// Server options and what handlers read off the request (server-options.ts).
function serverOptionsCase(r: Random): Drawn {
  const { route, request, server, note } = drawServerOptionsCase(r)
  return { family: 'server-options', route, request, server, note }
}

// Routing tables under router options, asked URLs with edge cases (urls.ts).
function urlsCase(r: Random): Drawn {
  const { route, request, server, note } = drawUrlsCase(r)
  return { family: 'urls', route, request, server, note }
}

// Bodies: content types, framing, custom parsers, limits (bodies.ts).
function bodiesCase(r: Random): Drawn {
  const { route, request, note } = drawBodiesCase(r)
  return { family: 'bodies', route, request, note }
}

// Request hooks replying, returning values and failing, with error and not-found handlers at two levels (hook-flow.ts).
function hookFlowCase(r: Random): Drawn {
  const shape = drawFlowShape(r)
  return { family: 'hook-flow', route: flowRoute(shape), request: flowRequest(r, shape), note: describeFlowShape(shape), flow: shape }
}

// Coercion, defaults, keyword messages, ajv options and plugins, formatters, shared `$ref`s (validation.ts).
function validationCase(r: Random): Drawn {
  const { route, request, server, note } = drawValidationCase(r)
  return { family: 'validation', route, request, note, ...(Object.keys(server).length > 0 ? { server } : {}) }
}

// Plugin trees 1-4 deep: decorators, hooks, handlers, schemas and onRoute hooks at levels (encapsulation.ts).
function encapsulationCase(r: Random): Drawn {
  const shape = drawEncShape(r)
  return { family: 'encapsulation', route: encRoute(shape), request: encRequest(r, shape), note: describeEncShape(shape), enc: shape }
}

// Log lines of the access log, errors, handlers and hooks under the logger options (logs.ts).
function logsCase(r: Random): Drawn {
  const { route, request, server, note } = drawLogsCase(r)
  return { family: 'logs', route, request, server, note, logs: true }
}

// Content-type parsers by RegExp and list, stream parsers, failing parsers, per-scope parsers, preParsing streams (content-types.ts).
function contentTypesCase(r: Random): Drawn {
  const { route, request, note } = drawContentTypesCase(r)
  return { family: 'content-types', route, request, note }
}

// Route constraints: version and host, alone, together and beside unconstrained routes (constraints.ts).
function constraintsCase(r: Random): Drawn {
  const { route, request, server, note } = drawConstraintsCase(r)
  return { family: 'constraints', route, request, server, note }
}

// Taking the reply over, raw writes, answering twice, redirect's argument orders (reply-lifecycle.ts).
function replyLifecycleCase(r: Random): Drawn {
  const shape = drawLifecycleShape(r)
  return { family: 'reply-lifecycle', route: lifecycleRoute(shape), request: lifecycleRequest(r, shape), note: describeLifecycleShape(shape), lifecycle: shape }
}

// addSchema at two levels, every `$ref` form, refs across scopes, getSchema(s) (shared-schemas.ts).
function sharedSchemasCase(r: Random): Drawn {
  const shape = drawSharedShape(r)
  return { family: 'shared-schemas', route: sharedRoute(shape), request: sharedRequest(shape), note: describeSharedShape(shape), shared: shape }
}

// What a custom error handler is handed for the errors the framework raises (error-sources.ts).
function errorSourcesCase(r: Random): Drawn {
  const shape = drawSourcesShape(r)
  return { family: 'error-sources', route: sourcesRoute(shape), request: sourcesRequest(shape), note: describeSourcesShape(shape), sources: shape }
}

// The plugin API: decorators twice, with dependencies, has*Decorator, fastify-plugin metadata, onRegister, onRoute, calls after boot (plugin-api.ts).
function pluginApiCase(r: Random): Drawn {
  const shape = drawPaShape(r)
  return { family: 'plugin-api', route: paRoute(shape), request: paRequest(r, shape), note: describePaShape(shape), pa: shape }
}

// One route's options: method arrays, url/path, all(), HEAD and OPTIONS routes, prefixTrailingSlash under '' and '/', config, bodyLimit, attachValidation (route-options.ts).
function routeOptionsCase(r: Random): Drawn {
  const { route, request, server, note, ro } = drawRouteOptionsCase(r)
  return { family: 'route-options', route, request, server, note, ro }
}

const FAMILIES: Array<[number, (r: Random) => Drawn]> = [
  [8, appFamilyCase], [6, replyApiCase], [4, serverOptionsCase], [3, querystringCase], [2, paramsCase], [2, headersCase], [4, bodyCase], [4, responseCase], [3, replyCase], [2, routingCase], [2, contentTypeCase], [2, hooksCase],
  [4, errorsCase],
  [3, serializationCase],
  [4, urlsCase], [4, bodiesCase], [4, hookFlowCase],
  [4, validationCase], [4, encapsulationCase],
  [4, logsCase], [4, contentTypesCase], [3, constraintsCase],
  [4, replyLifecycleCase], [4, sharedSchemasCase], [3, errorSourcesCase],
  [4, pluginApiCase], [4, routeOptionsCase],
]

// HTTP/2's own requests and replies, sent over h2c alone (http2-requests.ts).
function http2Case(r: Random): Drawn {
  const { route, request, note } = drawHttp2Case(r)
  return { family: 'http2', route, request, note }
}

/**
 * Families added in session 25 are drawn by a roll of their own, from a generator of their own:
 * the cases the families above drew kept their seed:index then, and LATER_SHARE of the indexes
 * became one of these instead. (Session 26's LATEST_FAMILIES took a further slice from the first
 * families: about 10% of their ids cited before it name other cases now; see LATEST_FAMILIES.)
 */
// Who writes the body: setSerializerCompiler, a route's serializerCompiler, setReplySerializer, reply.serializer, at the root or in the route's plugin (serializers.ts).
function serializersCase(r: Random): Drawn {
  const shape = drawSerializersShape(r)
  return { family: 'serializers', route: serializersRoute(shape), request: serializersRequest(), note: describeSerializersShape(shape), serializers: shape }
}

const LATER_FAMILIES: Array<[number, (r: Random) => Drawn]> = [
  [4, http2Case], [4, serializersCase],
]
const LATER_SHARE = 0.15

// Session 26's families: the querystring under each coercion, HEAD from GET routes, `$ref`s across scopes.
function queryCoercionCase(r: Random): Drawn {
  const { route, request, ajv, note } = drawQueryCoercionCase(r)
  return { family: 'query-coercion', route, request, note, ...(ajv ? { ajv } : {}) }
}

function headRoutesCase(r: Random): Drawn {
  const shape = drawHeadShape(r)
  return { family: 'head-routes', route: headRoute(shape), request: headRequest(shape), server: { exposeHeadRoutes: true }, note: describeHeadShape(shape), head: shape }
}

function crossScopeRefsCase(r: Random): Drawn {
  const shape = drawRefsShape(r)
  return { family: 'cross-scope-refs', route: refsRoute(shape), request: refsRequest(shape), note: describeRefsShape(shape), refs: shape }
}

/**
 * Drawn on the later roll's next slice (LATER_SHARE to LATER_SHARE + LATEST_SHARE): the later
 * families keep every index they had; the first families give up that slice of theirs, so about
 * 10% of the first families' ids cited before session 26 (README, commits, comments marked so)
 * now draw one of these. A new family should take its cases from new indexes, not a slice.
 */
const LATEST_FAMILIES: Array<[number, (r: Random) => Drawn]> = [
  [4, queryCoercionCase], [4, headRoutesCase], [4, crossScopeRefsCase],
]
const LATEST_SHARE = 0.1

// Session 27's families: which limit and which parser read a body, non-Error values raised at each
// stage, payload kinds and the Content-Type set before them.
function parserLimitsCase(r: Random): Drawn {
  const { route, request, server, note } = drawParserLimitsCase(r)
  return { family: 'parser-limits', route, request, note, ...(server ? { server } : {}) }
}

function thrownValuesCase(r: Random): Drawn {
  const shape = drawThrownShape(r)
  return { family: 'thrown-values', route: thrownRoute(shape), request: thrownRequest(shape), note: describeThrownShape(shape), thrown: shape }
}

function replyPayloadsCase(r: Random): Drawn {
  const shape = drawPayloadShape(r)
  return { family: 'reply-payloads', route: payloadRoute(shape), request: payloadRequest(), note: describePayloadShape(shape), payloads: shape }
}

/**
 * Drawn where the later roll falls in [NEWEST_FROM, NEWEST_TO): a slice of the first families'
 * rolls (about 7% of their ids) in which none of the 66 ids README, docs/ and these files cite
 * falls (session 27 computed every cited id's roll and took a gap between them), so every cited
 * id still replays the case it names. The next family needs another such gap.
 */
const NEWEST_FAMILIES: Array<[number, (r: Random) => Drawn]> = [
  [4, parserLimitsCase], [4, thrownValuesCase], [4, replyPayloadsCase],
]
const NEWEST_FROM = 0.35
const NEWEST_TO = 0.40

function pickFamily(r: Random, families: Array<[number, (r: Random) => Drawn]>): (r: Random) => Drawn {
  const total = families.reduce((sum, [weight]) => sum + weight, 0)
  let roll = r.int(1, total)
  for (const [weight, make] of families) {
    if (roll <= weight) return make
    roll -= weight
  }
  return families[0]![1]
}

/** Case `index` of `seed`: the same pair always gives the same case. */
export function generateCase(seed: number, index: number): Case {
  const r = new Random((seed * 100003 + index * 7919) >>> 0)
  const later = new Random(((seed * 100003 + index * 7919) ^ 0x5bd1e995) >>> 0)
  const roll = later.next()
  const drawn = roll < LATER_SHARE ? pickFamily(later, LATER_FAMILIES)(later)
    : roll < LATER_SHARE + LATEST_SHARE ? pickFamily(later, LATEST_FAMILIES)(later)
      : roll >= NEWEST_FROM && roll < NEWEST_TO ? pickFamily(later, NEWEST_FAMILIES)(later)
        : pickFamily(r, FAMILIES)(r)
  // Validation under the ajv options apps change most, on a quarter of the validating cases.
  const validates = ['querystring', 'params', 'headers', 'body'].includes(drawn.family)
  const ajv = drawn.ajv ?? (validates && r.chance(0.25) ? r.pick(AJV_OPTIONS) : undefined)
  const payload = drawn.request.payload === undefined ? '' : ` ${JSON.stringify(String(drawn.request.payload)).slice(0, 200)}`
  const summary = drawn.app ? `${drawn.note} <- ${drawn.request.method} ${drawn.request.url} ${JSON.stringify(drawn.request.headers ?? {})}${payload}` : `${ajv ? `ajv=${JSON.stringify(ajv)} ` : ''}${drawn.route.method} ${drawn.route.url} schema=${JSON.stringify(drawn.route.schema ?? null)}${drawn.note ? ` (${drawn.note})` : ''}` +
    ` <- ${drawn.request.method} ${drawn.request.url} ${JSON.stringify(drawn.request.headers ?? {})}${payload}`
  return { id: `${seed}:${index}`, family: drawn.family, summary, route: drawn.route, request: drawn.request, response: drawn.response, ajv, ...(drawn.app ? { app: drawn.app } : {}), ...(drawn.reply ? { reply: drawn.reply } : {}), ...(drawn.errors ? { errors: drawn.errors } : {}), ...(drawn.serial ? { serial: drawn.serial } : {}), ...(drawn.server ? { server: drawn.server } : {}), ...(drawn.flow ? { flow: drawn.flow } : {}), ...(drawn.enc ? { enc: drawn.enc } : {}), ...(drawn.exposedError ? { exposedError: true } : {}), ...(drawn.logs ? { logs: true } : {}), ...(drawn.lifecycle ? { lifecycle: drawn.lifecycle } : {}), ...(drawn.shared ? { shared: drawn.shared } : {}), ...(drawn.sources ? { sources: drawn.sources } : {}), ...(drawn.pa ? { pa: drawn.pa } : {}), ...(drawn.ro ? { ro: drawn.ro } : {}), ...(drawn.serializers ? { serializers: drawn.serializers } : {}), ...(drawn.head ? { head: drawn.head } : {}), ...(drawn.refs ? { refs: drawn.refs } : {}), ...(drawn.payloads ? { payloads: drawn.payloads } : {}), ...(drawn.thrown ? { thrown: drawn.thrown } : {}) }
}
