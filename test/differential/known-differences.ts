// The differences README lists as deliberate ("Where Enclave deliberately differs from Fastify
// 3.27.4"), each as a rewrite of Fastify 3's answer into the one Enclave gives under that rule.
// A case differs acceptably only when the rewritten answer equals Enclave's in every field; each
// entry quotes the README line it stands for (the suite checks it is still there). Where a rule
// says "Enclave answers X as Fastify 3 answers Y", the rewrite asks Fastify 3 for Y (`replay`).
import { STATUS_CODES } from 'node:http'
import fastJsonStringify from 'fast-json-stringify'
import { answer, type Transport } from './apps'
import type { Answer, Case, RequestSpec } from './case'
import type { KnownDifference, RewriteContext } from './difference-types'
import { APP_DIFFERENCES, PARAMETRIC_BACKTRACK, notAllowedInApp } from './app-differences'
import { REPLY_DIFFERENCES } from './reply-differences'
import { ERRORS_DIFFERENCES } from './errors-differences'
import { SERIALIZATION_DIFFERENCES, digitsUnderNullableInteger } from './serialization-differences'
import { SERVER_DIFFERENCES } from './server-differences'
import { URLS_DIFFERENCES, notAllowedInTable } from './urls-differences'
import { BODIES_DIFFERENCES } from './bodies-differences'
import { HOOK_FLOW_DIFFERENCES } from './hook-flow-differences'
import { VALIDATION_DIFFERENCES } from './validation-differences'
import { ENCAPSULATION_DIFFERENCES } from './encapsulation-differences'
import { SHARED_SCHEMAS } from './schemas'
import { pointerMessage } from './pointers'
import { LOGS_DIFFERENCES } from './logs-differences'
import { CONTENT_TYPES_DIFFERENCES } from './content-types-differences'
import { CONSTRAINTS_DIFFERENCES } from './constraints-differences'
import { REPLY_LIFECYCLE_DIFFERENCES } from './reply-lifecycle-differences'
import { SHARED_SCHEMAS_DIFFERENCES } from './shared-schemas-differences'
import { ERROR_SOURCES_DIFFERENCES } from './error-sources-differences'
import { PLUGIN_API_DIFFERENCES, paReplay } from './plugin-api-differences'
import { ROUTE_OPTIONS_DIFFERENCES } from './route-options-differences'
import { HTTP2_DIFFERENCES } from './http2-differences'
import { SERIALIZERS_DIFFERENCES } from './serializers-differences'
import { HEAD_ROUTES_DIFFERENCES } from './head-routes-differences'
import { QUERY_COERCION_DIFFERENCES } from './query-coercion-differences'
import { DEFAULT_ROUTE_DIFFERENCES } from './default-route'
import { bodyParsed, regexpTakes } from './content-types'
import { REPLY_PAYLOADS_DIFFERENCES } from './reply-payloads-differences'
import { THROWN_VALUES_DIFFERENCES } from './thrown-values-differences'

export type { KnownDifference, RewriteContext } from './difference-types'

type ErrorBody = { statusCode: number; code?: string; error?: string; message: string }

function errorBody(a: Answer): ErrorBody | undefined {
  const b = a.body as ErrorBody | undefined
  return b !== null && typeof b === 'object' && typeof b.statusCode === 'number' && typeof b.message === 'string' ? b : undefined
}

/** The answer with another JSON body; its Content-Length follows, as the framework would write it. */
function withBody(a: Answer, body: unknown, statusCode = a.statusCode): Answer {
  const headers = { ...a.headers }
  if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(JSON.stringify(body)))
  return { ...a, statusCode, headers, body }
}

/** Error payloads in Enclave's key order: statusCode, code, error, message. */
function errorPayload(statusCode: number, message: string, code?: string): ErrorBody {
  const error = STATUS_CODES[statusCode] ?? 'Error'
  return code === undefined ? { statusCode, error, message } : { statusCode, code, error, message }
}

const JSON_TYPE = 'application/json; charset=utf-8'

function errorAnswer(statusCode: number, message: string, code?: string, extra: Record<string, string> = {}): Answer {
  const body = errorPayload(statusCode, message, code)
  return { statusCode, headers: { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(JSON.stringify(body))), ...extra }, body }
}

function contentType(c: Case): string | undefined {
  return c.request.headers?.['content-type']
}

/**
 * The request with another Content-Type, its body as Enclave reads it: bytes that are not UTF-8
 * as the UTF-8 of their U+FFFD text (README; Fastify 3 answers such a body a length mismatch),
 * with their own length.
 */
function withContentType(c: Case, type: string): RequestSpec {
  const payload = c.request.payload
  const declared = c.request.headers?.['content-length']
  // A Content-Length that is not the body's is its own 400 on both: the bytes are left as sent.
  const mismatched = declared !== undefined && Number(declared) !== Buffer.byteLength(payload ?? '')
  if (Buffer.isBuffer(payload) && !mismatched && !Buffer.from(payload.toString('utf8'), 'utf8').equals(payload)) {
    const { 'content-length': _length, ...headers } = c.request.headers ?? {}
    return { ...c.request, headers: { ...headers, 'content-type': type }, payload: Buffer.from(payload.toString('utf8'), 'utf8') }
  }
  return { ...c.request, headers: { ...c.request.headers, 'content-type': type } }
}

/** Fastify 3 asked with another Content-Type; a route's `bodyLimit` grows by what decoding the body as Enclave does added (Enclave bounds the bytes received). */
function replayWithType(c: Case, type: string, replay: RewriteContext['replay']): Promise<Answer> {
  const request = withContentType(c, type)
  const grown = Buffer.byteLength(request.payload ?? '') - Buffer.byteLength(c.request.payload ?? '')
  const limit = c.route.options?.bodyLimit as number | undefined
  return replay(request, grown === 0 || limit === undefined ? c.route : { ...c.route, options: { ...c.route.options, bodyLimit: limit + grown } })
}

/** A catch-all `*` parser is declared (bodies.ts): a type no parser matches goes there on both, not to a 415. */
function hasCatchAll(c: Case): boolean {
  return (c.family === 'bodies' || c.family === 'content-types') && /catch-all|adds \*/.test(c.summary)
}

// Replays made once per case, rule and transport: a later pass must not undo what other rules rewrote since.
const replayed = new WeakMap<Case, Set<string>>()

function firstTime(c: Case, key: string): boolean {
  const done = replayed.get(c) ?? new Set<string>()
  if (done.has(key)) return false
  replayed.set(c, done.add(key))
  return true
}

const UNMATCHED_TYPE = 'application/x-no-parser'

/** Fastify 3 asked with a type only the catch-all takes; the type it echoes is put back to the one sent. */
async function replayToCatchAll(c: Case, replay: RewriteContext['replay']): Promise<Answer> {
  const answer = await replayWithType(c, UNMATCHED_TYPE, replay)
  const sent = contentType(c) as string
  if (typeof answer.body !== 'object' || answer.body === null) return answer
  return withBody(answer, JSON.parse(JSON.stringify(answer.body).split(UNMATCHED_TYPE).join(sent.replace(/["\\]/g, (ch) => `\\${ch}`))))
}

const SHARED_BY_ID = Object.fromEntries(SHARED_SCHEMAS.map((s) => [s.$id as string, s]))

function parses(payload: RequestSpec['payload']): boolean {
  try {
    JSON.parse(String(payload ?? ''))
    return true
  } catch {
    return false
  }
}

/** The route's response schema for `status` (its code, else its `Nxx` range), as Fastify 3 picks it. */
function responseSchemaFor(c: Case, status: number): Record<string, unknown> | undefined {
  const response = c.route.schema?.response as Record<string, Record<string, unknown>> | undefined
  return response?.[String(status)] ?? response?.[`${String(status)[0]}xx`]
}

function requiredFirst(value: Record<string, unknown>, schema: Record<string, unknown>): Record<string, unknown> {
  const properties = Object.keys((schema.properties ?? {}) as object)
  const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : [])
  const order = [...properties.filter((p) => required.has(p)), ...properties.filter((p) => !required.has(p))]
  const out: Record<string, unknown> = {}
  for (const key of order) if (key in value) out[key] = value[key]
  for (const key of Object.keys(value)) if (!(key in out)) out[key] = value[key]
  return out
}

/** What fast-json-stringify 7 writes for `value` under `schema`, or undefined when it throws. */
function fjs7Of(schema: Record<string, unknown>, value: unknown): string | undefined {
  try {
    return fastJsonStringify(structuredClone(schema) as never, { schema: structuredClone(SHARED_BY_ID) as never })(value)
  } catch {
    return undefined
  }
}

/** What fast-json-stringify 7 writes for the case's response value. */
function fjs7(c: Case): string | undefined {
  return c.response === undefined ? undefined : fjs7Of(c.response.schema, c.response.value())
}

/**
 * fast-json-stringify 7 throws on a value none of a type list holds (a Date under
 * `['integer', 'null']`), and on a value a `number`/`integer` cannot hold, which README says are
 * written as Fastify 3 writes them: such a top-level property (or patternProperties match) takes
 * Fastify 3's written value (or is left out with it), the rest is fjs 7's (seed 98 case 15: a Date
 * under anyOf [object, string] beside `x1: '2020-01-01'` under a `^x` integer pattern).
 */
function fjs7WithTypeLists(c: Case, f: Answer): string | undefined {
  const schema = c.response?.schema as { properties?: Record<string, { type?: unknown }>; patternProperties?: Record<string, { type?: unknown }> } | undefined
  const value = c.response?.value()
  const written = f.body as Record<string, unknown> | null
  if (schema === undefined || value === null || typeof value !== 'object' || Array.isArray(value) || written === null || typeof written !== 'object') return undefined
  const subOf = (name: string): { type?: unknown } | undefined => schema.properties?.[name] ?? Object.entries(schema.patternProperties ?? {}).find(([pattern]) => new RegExp(pattern).test(name))?.[1]
  const unholdable = (type: unknown, v: unknown): boolean => (type === 'integer' || type === 'number') && typeof v === 'string' && Number.isNaN(Number(v))
  const patched: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  const fastify3s: string[] = []
  let changed = false
  for (const name of Object.keys(patched)) {
    const sub = subOf(name)
    if (sub === undefined) continue
    // README: an integer's digits (or a BigInt) under ['integer', 'null'] is that integer, not Fastify 3's null.
    if (digitsUnderNullableInteger(sub.type, patched[name])) { patched[name] = Number(patched[name]); changed = true }
    else if (Array.isArray(sub.type) && name in written) { patched[name] = written[name]; changed = true }
    else if (unholdable(sub.type, patched[name])) { patched[name] = 0; fastify3s.push(name); changed = true }
  }
  if (!changed) return undefined
  const text = fjs7Of(schema, patched)
  if (text === undefined || fastify3s.length === 0) return text
  const out = JSON.parse(text) as Record<string, unknown>
  for (const name of fastify3s) {
    if (name in written) out[name] = written[name]
    else delete out[name]
  }
  return JSON.stringify(out)
}

/** An app's error handler that answers with `error.message` shows Enclave's message for a JSON parse failure. */
function handledInvalidJson(f: Answer): Answer | undefined {
  const body = f.body as { handledBy?: unknown; message?: unknown } | null
  if (body === null || typeof body !== 'object' || typeof body.handledBy !== 'string' || typeof body.message !== 'string' || body.message.startsWith('Body is not valid JSON')) return undefined
  return withBody(f, { ...body, message: `Body is not valid JSON: ${body.message}` })
}

export const KNOWN_DIFFERENCES: KnownDifference[] = [
  ...APP_DIFFERENCES,
  PARAMETRIC_BACKTRACK,
  ...REPLY_DIFFERENCES,
  ...ERRORS_DIFFERENCES,
  ...SERIALIZATION_DIFFERENCES,
  ...URLS_DIFFERENCES,
  // A preParsing replacement's length error is the content-types rule's, before the bodies' UTF-8 rule reads it.
  ...CONTENT_TYPES_DIFFERENCES,
  ...BODIES_DIFFERENCES,
  ...HOOK_FLOW_DIFFERENCES,
  ...VALIDATION_DIFFERENCES,
  ...ENCAPSULATION_DIFFERENCES,
  ...SERVER_DIFFERENCES,
  ...LOGS_DIFFERENCES,
  ...CONSTRAINTS_DIFFERENCES,
  ...REPLY_LIFECYCLE_DIFFERENCES,
  ...SHARED_SCHEMAS_DIFFERENCES,
  ...ERROR_SOURCES_DIFFERENCES,
  ...HTTP2_DIFFERENCES,
  ...SERIALIZERS_DIFFERENCES,
  ...HEAD_ROUTES_DIFFERENCES,
  ...REPLY_PAYLOADS_DIFFERENCES,
  ...THROWN_VALUES_DIFFERENCES,
  ...QUERY_COERCION_DIFFERENCES,
  ...DEFAULT_ROUTE_DIFFERENCES,
  ...PLUGIN_API_DIFFERENCES,
  ...ROUTE_OPTIONS_DIFFERENCES,
  {
    id: 'validation-path-pointer',
    readme: 'Validation error paths are JSON pointers by default',
    rewrite(f) {
      // A validation error's message wherever the app shows it: the 400, or a handler's own payload
      // (`request.validationError.message` under attachValidation).
      const body = f.body
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined
      const rewritten: Record<string, unknown> = {}
      for (const [key, v] of Object.entries(body)) rewritten[key] = typeof v === 'string' ? pointerMessage(v) : v
      return JSON.stringify(rewritten) === JSON.stringify(body) ? undefined : withBody(f, rewritten)
    },
  },
  {
    id: 'null-under-object-schema',
    readme: '`null` as a property or an array item under an `object` or `array` schema is written `{}` or `[]`',
    rewrite(f, { c, enclave }) {
      const b = errorBody(f)
      if (c.response !== undefined || b === undefined || f.statusCode !== 500 || !/^Cannot read properties of null/.test(b.message)) return undefined
      // The handler's status is not known here (Fastify 3 answered 500): Enclave's 2xx picks the
      // schema, and the body must then be what fast-json-stringify 7 writes for `{}` or `[]`.
      const schema = enclave.statusCode >= 200 && enclave.statusCode < 300 ? responseSchemaFor(c, enclave.statusCode) : undefined
      const empty = schema?.type === 'array' ? [] : schema?.type === 'object' ? {} : undefined
      const text = empty === undefined || schema === undefined ? undefined : fjs7Of(schema, empty)
      if (text === undefined) return undefined
      // Headers the handler set stay (Fastify 3's 500 kept them too: seed 77 case 150's x-body).
      return { statusCode: enclave.statusCode, headers: { ...f.headers, 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(text)) }, body: JSON.parse(text) }
    },
  },
  {
    id: 'five-hundred-hides-message',
    readme: 'A 5xx never shows the thrown message unless the error says it is meant for the client',
    rewrite(f, { c }) {
      // A JSON error payload an onSend hook re-typed is text: read as JSON all the same, written back as text.
      const asText = typeof f.body === 'string' && f.body.startsWith('{')
      let parsed: unknown = f.body
      if (asText) try { parsed = JSON.parse(f.body as string) } catch { return undefined }
      const message = (parsed as { message?: unknown } | null | undefined)?.message
      // An exposed error's message is shown (the rule's own exception): a hidden one is a difference.
      if (f.statusCode < 500 || f.statusCode > 599 || typeof message !== 'string' || c.exposedError === true) return undefined
      // The status stays the error's (a 503 is a 503); only the message becomes its reason phrase.
      const status = f.statusCode
      const generic = errorPayload(status, STATUS_CODES[status] ?? 'Error')
      // The generic payload goes through the route's 5xx response schema, as any error payload does.
      const schema = responseSchemaFor(c, status)
      const body = schema === undefined ? generic : JSON.parse(fjs7Of(schema, generic) ?? 'null')
      if (JSON.stringify(body) === JSON.stringify(parsed)) return undefined
      const rewritten = withBody(f, body, status)
      return asText ? { ...rewritten, body: JSON.stringify(body) } : rewritten
    },
  },
  {
    id: 'fastify-codes',
    readme: 'Errors carry Enclave\'s codes (`ENC_ERR_<AREA>_<WHAT>`, the table in docs/errors.md)',
    rewrite(f) {
      const b = errorBody(f)
      if (b === undefined || typeof b.code !== 'string' || !b.code.startsWith('FST_ERR_')) return undefined
      return withBody(f, errorPayload(b.statusCode, b.message, b.code.replace(/^FST_ERR_/, 'ENC_ERR_')))
    },
  },
  {
    id: 'proto-poisoning-code',
    readme: 'JSON body) Enclave\'s have one (`ENC_ERR_CTP_FORBIDDEN_PROTO`)',
    rewrite(f) {
      const b = errorBody(f)
      if (b === undefined || f.statusCode !== 400 || b.code !== undefined || !/forbidden prototype property/.test(b.message)) return undefined
      return withBody(f, errorPayload(400, b.message, 'ENC_ERR_CTP_FORBIDDEN_PROTO'))
    },
  },
  {
    id: 'invalid-json-framework-error',
    readme: 'A body that is not valid JSON reaches error handlers as a `FrameworkError`',
    rewrite(f, { c }) {
      const handled = c.app !== undefined && f.statusCode === 400 && !parses(c.request.payload) ? handledInvalidJson(f) : undefined
      if (handled !== undefined) return handled
      const b = errorBody(f)
      if (b === undefined || f.statusCode !== 400 || b.code !== undefined || !/json/i.test(contentType(c) ?? '')) return undefined
      // The body parsed is a preParsing hook's replacement where the content-types family has one.
      if (/^(querystring|params|headers|body)\b|forbidden prototype/.test(b.message) || parses(bodyParsed(c))) return undefined
      return withBody(f, errorPayload(400, `Body is not valid JSON: ${b.message}`, 'ENC_ERR_CTP_INVALID_JSON'))
    },
  },
  {
    id: 'json-number-out-of-range',
    readme: 'JSON numbers a double cannot hold (`1e309`) are a 400',
    rewrite(f, { c }) {
      const payload = String(c.request.payload ?? '')
      if (f.statusCode === 400 && errorBody(f)?.code === 'ENC_ERR_CTP_INVALID_JSON') return undefined
      if (!/json/i.test(contentType(c) ?? '') || !/\d[eE]\+?\d{3}/.test(payload)) return undefined
      let overflow = false
      try {
        JSON.parse(payload, (_key, v: unknown) => { if (typeof v === 'number' && !Number.isFinite(v)) overflow = true; return v })
      } catch {
        return undefined
      }
      if (!overflow) return undefined
      return errorAnswer(400, 'Body is not valid JSON: a number is out of range (larger than a double can hold)', 'ENC_ERR_CTP_INVALID_JSON')
    },
  },
  {
    id: 'inject-head-empty-body',
    readme: 'a HEAD answer has an empty body, as over HTTP',
    rewrite(f, { c, transport }) {
      if (transport !== 'inject' || c.request.method !== 'HEAD' || f.body === '') return undefined
      return { ...f, body: '' }
    },
  },
  {
    id: 'no-content-without-payload',
    readme: 'A 204 or 304 sent with a payload goes out without it and without `Content-Length`',
    rewrite(f) {
      if (f.statusCode !== 204 && f.statusCode !== 304) return undefined
      // Over a socket Node already drops a 204's body (and a stream's framing), not its type (seed 133 case 180).
      if (f.body === '' && f.headers['content-length'] === undefined && (f.statusCode !== 204 || f.headers['content-type'] === undefined)) return undefined
      const headers = { ...f.headers }
      delete headers['content-length']
      if (f.statusCode === 204) delete headers['content-type']
      return { ...f, headers, body: '' }
    },
  },
  {
    id: 'reset-content-without-payload',
    readme: 'A 205 sent with a payload goes out\n  without it, with `Content-Length: 0`',
    async rewrite(f, { c, enclave, transport }) {
      if (enclave.statusCode !== 205 || enclave.body !== '' || enclave.headers['content-length'] !== '0') return undefined
      // Over HTTP/2 Fastify 3's 205 with a body is reset by the client's nghttp2: its head as written (inject).
      const written = transport === 'http2' && f.statusCode === -3 && /NGHTTP2_PROTOCOL_ERROR/.test(String(f.body)) ? await answer('fastify3', c, 'inject') : f
      if (written.statusCode !== 205) return undefined
      return { ...written, headers: { ...written.headers, 'content-length': '0' }, body: '' }
    },
  },
  {
    id: 'media-type-none',
    readme: 'A body sent without a Content-Type is 415 `Unsupported Media Type: none`',
    rewrite(f) {
      const b = errorBody(f)
      if (b === undefined || b.message !== 'Unsupported Media Type: %s') return undefined
      return withBody(f, { ...b, message: 'Unsupported Media Type: none' })
    },
  },
  {
    id: 'media-type-case-insensitive',
    readme: 'and case-sensitively: `APPLICATION/JSON` and `TEXT/PLAIN` are 415 there',
    async rewrite(f, { c, transport, replay }) {
      const type = contentType(c)
      // With a catch-all parser Fastify 3 answers from it where it has no other match (no 415).
      if ((f.statusCode !== 415 && !hasCatchAll(c)) || type === undefined || type === type.toLowerCase()) return undefined
      // A RegExp parser is tested against the type as sent on both: lower-casing would reach it where neither does.
      if (regexpTakes(c, type.toLowerCase()) && !regexpTakes(c, type)) return undefined
      if (f.statusCode !== 415 && !firstTime(c, `case:${transport}`)) return undefined
      return await replayWithType(c, type.toLowerCase(), replay)
    },
  },
  {
    id: 'media-type-json-suffix',
    readme: '`application/*+json` falls back to the JSON parser',
    async rewrite(f, { c, transport, replay }) {
      const type = contentType(c)
      if ((f.statusCode !== 415 && !hasCatchAll(c)) || type === undefined || !/^application\/[^;/]+\+json\b/i.test(type)) return undefined
      if (f.statusCode !== 415 && !firstTime(c, `suffix:${transport}`)) return undefined
      return await replayWithType(c, type.replace(/^application\/[^;/]+\+json/i, 'application/json'), replay)
    },
  },
  {
    id: 'media-type-exact',
    readme: '(`application/jsonx` is not JSON; Fastify 3 matches a declared type as a substring of the header',
    async rewrite(f, { c, enclave, transport, replay }) {
      const type = contentType(c)
      const essence = type?.split(';')[0]?.trim().toLowerCase()
      if (f.statusCode === 415 || type === undefined || essence === undefined || ['application/json', 'text/plain'].includes(essence) || /\+json$/.test(essence)) return undefined
      // A GET or HEAD body is never parsed, by either (README): its type is never matched.
      if (c.request.method === 'GET' || c.request.method === 'HEAD') return undefined
      if (!/application\/json|text\/plain/.test(essence)) return undefined
      // Not the JSON or text parser here: a catch-all takes it if there is one, else it is a 415
      // (unless no body was read: a 405's DELETE without a length, whose parsers never ran).
      if (hasCatchAll(c)) return firstTime(c, `exact:${transport}`) ? await replayToCatchAll(c, replay) : undefined
      if (enclave.statusCode === 405) return undefined
      return errorAnswer(415, `Unsupported Media Type: ${type}`, 'ENC_ERR_CTP_INVALID_MEDIA_TYPE')
    },
  },
  {
    id: 'method-not-allowed',
    readme: 'Wrong method on a known path answers 405 with `Allow`, not 404.',
    async rewrite(f, { c, enclave, transport, replay }) {
      if (c.app !== undefined) return await notAllowedInApp(f, c, enclave, replay)
      // A routing table's (urls.ts, constraints.ts): explained where Fastify 3 serves each method Allow names to this request.
      if (c.family === 'urls' || c.family === 'constraints' || c.family === 'route-options' || c.family === 'head-routes') return await notAllowedInTable(f, c, enclave, transport, replay)
      if (c.pa !== undefined) return await notAllowedInTable(f, c, enclave, transport, paReplay(c.pa, replay))
      // A plugin tree's 405 is its own rule's (encapsulation-differences.ts): c.route names no route there.
      if (c.enc !== undefined) return undefined
      if (f.statusCode !== 404 || enclave.statusCode !== 405) return undefined
      const allow = c.route.method === 'GET' && c.server?.exposeHeadRoutes !== false ? 'GET, HEAD' : c.route.method
      const path = c.request.url.split(/[?#]/)[0] as string
      const answer = errorAnswer(405, `Method ${c.request.method} is not allowed for ${path}; allowed: ${allow}`, 'ENC_ERR_METHOD_NOT_ALLOWED', { allow })
      return c.request.method === 'HEAD' ? { ...answer, body: '' } : answer // a HEAD answer has no body
    },
  },
  {
    id: 'head-routes',
    readme: 'GET routes also answer HEAD by default (`exposeHeadRoutes: true`',
    async rewrite(f, { c, replay }) {
      if (f.statusCode !== 404 || c.request.method !== 'HEAD' || c.route.method !== 'GET' || c.server?.exposeHeadRoutes === false) return undefined
      const get = await replay({ ...c.request, method: 'GET' })
      return get.statusCode < 0 ? get : { ...get, body: '' } // no answer at all stays so
    },
  },
  {
    id: 'response-type-list-boot',
    readme: 'a type list at the top of a response schema (`{ type: [\'string\', \'null\'] }`) is compiled',
    async rewrite(f, { c, enclave, replay }) {
      if (f.bootError === undefined || !/due to error \w+(,\w+)+ unsupported/.test(f.bootError) || enclave.bootError !== undefined) return undefined
      const value = c.response?.value()
      // A status the schema does not cover, or a string (sent as text, never serialized), answers
      // as the route without that schema does; anything else is fast-json-stringify 7's (next entry).
      if (c.response === undefined || typeof value === 'string') return await replay(c.request, { ...c.route, schema: undefined })
      const { status, schema } = c.response
      if (fjs7(c) !== undefined) return { statusCode: status, headers: { 'content-type': JSON_TYPE }, body: undefined } // the next entry's
      // No listed type holds the value: written as Fastify 3 writes that list under a property.
      const nested = await replay(c.request, {
        ...c.route,
        schema: { response: { [status]: { type: 'object', properties: { v: schema } } } },
        handler: async (_request, reply) => { reply.code(status); return { v: c.response?.value() } },
      })
      const written = (nested.body as { v?: unknown } | undefined)?.v
      if (nested.statusCode !== status || written === undefined) return undefined
      return { statusCode: status, headers: { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(JSON.stringify(written))) }, body: written }
    },
  },
  {
    id: 'unserializable-4xx-is-500',
    readme: '4xx payload its response schema cannot serialize (a missing required property: Fastify 3 sends the serializer\'s `"message" is required!` under the 4xx)',
    rewrite(f, { c }) {
      const b = errorBody(f)
      if (b === undefined || f.statusCode < 400 || f.statusCode > 499 || responseSchemaFor(c, f.statusCode) === undefined) return undefined
      if (!/ is required!$|cannot be converted to|does not match schema definition/.test(b.message)) return undefined
      return withBody(f, errorPayload(500, STATUS_CODES[500] as string), 500)
    },
  },
  {
    id: 'required-properties-first',
    readme: 'an object\'s `required` properties are written first, then the others, each group in the schema\'s `properties` order',
    rewrite(f, { c }) {
      const schema = responseSchemaFor(c, f.statusCode)
      if (schema === undefined || f.body === null || typeof f.body !== 'object' || Array.isArray(f.body)) return undefined
      const ordered = requiredFirst(f.body as Record<string, unknown>, schema)
      return JSON.stringify(ordered) === JSON.stringify(f.body) ? undefined : { ...f, body: ordered }
    },
  },
  {
    id: 'fjs7-writes',
    readme: 'Response schemas are compiled by fast-json-stringify 7 (Fastify 3 ships 2); where the two write differently Enclave writes what 7 does',
    rewrite(f, { c }) {
      if (c.response === undefined || !((f.statusCode >= 200 && f.statusCode <= 299) || f.statusCode === 500)) return undefined
      const text = fjs7(c) ?? fjs7WithTypeLists(c, f)
      if (text === undefined) return withBody(f, errorPayload(500, STATUS_CODES[500] as string), 500)
      return { statusCode: c.response.status, headers: { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(text)) }, body: JSON.parse(text) }
    },
  },
]
