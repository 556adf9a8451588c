/**
 * The schema-aware input fuzz, part one: from a seed, a route's schemas (body, querystring, params,
 * headers: coercion, defaults, removeAdditional, anyOf/oneOf, enums, formats, patterns, nested
 * arrays/objects, $ref to shared schemas, additionalProperties false), values valid for them, then
 * requests built from those values with one or two hostile mutations each. Everything derives
 * from the seed, so a finding replays from its seed and request index.
 */
import { int, mulberry32, pick, type Random } from './fuzz-inputs'

export type Schema = Record<string, unknown>

/** Shared schemas, added with addSchema on every app and reached by `$ref`. */
export const SHARED: Schema[] = [
  { $id: 'fz-point', type: 'object', required: ['x'], properties: { x: { type: 'number' }, y: { type: 'number', default: 0 } } },
  { $id: 'fz-tag', type: 'string', minLength: 1, maxLength: 20 },
]

export interface RouteSchemas { body: Schema; querystring: Schema; params: Schema; headers: Schema }

/** One request: the mutations it carries name what was done, for the report. */
export interface SchemaFuzzRequest { index: number; mutations: string[]; url: string; headers: Record<string, string>; payload?: Buffer }

export interface SchemaFuzzCase { seed: number; schemas: RouteSchemas; requests: SchemaFuzzRequest[] }

const FORMATS: Array<[string, string]> = [['date-time', '2020-01-02T03:04:05Z'], ['date', '2020-01-02'], ['email', 'a@b.co'], ['uri', 'http://x.y/z'], ['ipv4', '10.0.0.1'], ['uuid', '123e4567-e89b-12d3-a456-426614174000'], ['hostname', 'example.com']]
const PATTERNS: Array<[string, string]> = [['^[a-z]+$', 'abc'], ['^\\d{3}-\\d{2}$', '123-45'], ['^[A-Z][a-z]*$', 'Abc'], ['x', 'axb']]
const KEYS = ['a', 'b', 'name', 'id', 'n', 'tags', 'when', 'kind', 'flag', 'list']

/** A scalar schema; `where` limits it to what a URL or header can carry. */
function scalar(r: Random): Schema {
  switch (int(r, 9)) {
    case 0: return { type: 'string', ...(r() < 0.5 ? { minLength: 1 } : {}), ...(r() < 0.5 ? { maxLength: 30 } : {}) }
    case 1: { const [format] = pick(r, FORMATS); return { type: 'string', format } }
    case 2: { const [pattern] = pick(r, PATTERNS); return { type: 'string', pattern } }
    case 3: return { type: 'integer', ...(r() < 0.5 ? { minimum: 0 } : {}), ...(r() < 0.5 ? { maximum: 1000 } : {}) }
    case 4: return { type: 'number' }
    case 5: return { type: 'boolean' }
    case 6: return { type: 'string', enum: ['red', 'green', 'blue'] }
    case 7: return { type: 'integer', enum: [1, 2, 3] }
    default: return pick(r, [{ anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 5 }] }, { oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['x', 'y'] }] }, { $ref: 'fz-tag#' }])
  }
}

function withDefault(r: Random, s: Schema): Schema {
  return r() < 0.25 ? { ...s, default: valid(r, s) } : s
}

/** A body value's schema, nested up to `depth`. */
function bodyValue(r: Random, depth: number): Schema {
  const roll = r()
  if (depth >= 3 || roll < 0.5) return scalar(r)
  if (roll < 0.65) return { type: 'array', maxItems: 8, items: bodyValue(r, depth + 1) }
  if (roll < 0.75) return { $ref: 'fz-point#' }
  if (roll < 0.82) return { anyOf: [object(r, depth + 1), { type: 'null' }] }
  return object(r, depth + 1)
}

function object(r: Random, depth: number, value: (r: Random, depth: number) => Schema = bodyValue, keys = KEYS): Schema {
  const properties: Record<string, Schema> = {}
  const count = 1 + int(r, 4)
  for (let i = 0; i < count; i++) properties[pick(r, keys)] = withDefault(r, value(r, depth))
  const names = Object.keys(properties)
  const required = names.filter((name) => properties[name].default === undefined && r() < 0.5)
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...(r() < 0.4 ? { additionalProperties: false } : {}) }
}

/** A query value: a scalar, or an array of scalars (coerced from repeated keys). */
function queryValue(r: Random): Schema {
  return r() < 0.25 ? { type: 'array', maxItems: 5, items: pick(r, [{ type: 'integer' }, { type: 'string' }, { type: 'string', enum: ['red', 'green', 'blue'] }]) } : scalar(r)
}

export function drawSchemas(r: Random): RouteSchemas {
  return {
    body: r() < 0.85 ? object(r, 0) : { type: 'array', maxItems: 10, items: bodyValue(r, 1) },
    querystring: object(r, 0, (rr) => queryValue(rr), ['q', 'limit', 'page', 'sort', 'tags', 'on']),
    params: { type: 'object', required: ['p1', 'p2'], properties: { p1: scalarNoRef(r), p2: scalarNoRef(r) } },
    headers: object(r, 0, (rr) => scalarNoRef(rr), ['x-a', 'x-b', 'x-c']),
  }
}

function scalarNoRef(r: Random): Schema {
  for (;;) { const s = scalar(r); if (s.$ref === undefined && s.oneOf === undefined) return s }
}

/** A value the schema accepts (best effort: an anyOf/oneOf branch may overlap another). */
export function valid(r: Random, s: Schema): unknown {
  if (s.$ref === 'fz-point#') return r() < 0.5 ? { x: int(r, 100) } : { x: int(r, 100) / 4, y: -int(r, 9) }
  if (s.$ref === 'fz-tag#') return pick(r, ['t', 'tag', 'a-tag'])
  if (s.default !== undefined && r() < 0.2) return s.default
  if (Array.isArray(s.anyOf)) return valid(r, pick(r, s.anyOf as Schema[]))
  if (Array.isArray(s.oneOf)) return valid(r, pick(r, s.oneOf as Schema[]))
  if (Array.isArray(s.enum)) return pick(r, s.enum)
  switch (s.type) {
    case 'string':
      if (typeof s.format === 'string') return FORMATS.find(([f]) => f === s.format)?.[1]
      if (typeof s.pattern === 'string') return PATTERNS.find(([p]) => p === s.pattern)?.[1]
      return pick(r, ['v', 'value', 'héllo', 'a b', '1'])
    case 'integer': return int(r, 1000)
    case 'number': return pick(r, [0, 1.5, 999, 0.25])
    case 'boolean': return r() < 0.5
    case 'null': return null
    case 'array': return Array.from({ length: int(r, 4) }, () => valid(r, s.items as Schema))
    case 'object': {
      const out: Record<string, unknown> = {}
      const properties = (s.properties ?? {}) as Record<string, Schema>
      const required = (s.required ?? []) as string[]
      for (const [key, p] of Object.entries(properties)) if (required.includes(key) || r() < 0.6) out[key] = valid(r, p)
      return out
    }
    default: return 'v'
  }
}

/** Text that replaces a JSON value verbatim: numbers JSON.stringify cannot write, and strings that look like numbers. */
const EDGE_JSON = ['1e308', '-0', '1e-400', '9007199254740993', '1e400', '-1e400', '"0x10"', '" 1 "', '0.1e1', '1E2', '"1e3"', '"-0"', '"Infinity"', '"NaN"', '"1_000"', '"+1"', '"\u0661"', '4.0', '1.0000000000000002']
/** The same edges as a URL or header carries them (already percent-encoded where needed). */
const EDGE_TEXT = ['1e308', '-0', '1e-400', '9007199254740993', '0x10', '%201%20', '1e400', 'Infinity', 'NaN', '%2B1', '0b1', '1.', '.5', '%D9%A1', '00012', '1%2C5', 'true', 'null']
/** encodeURIComponent refuses these: a lone surrogate reaches a URL as BAD_URL_TEXT's bytes instead. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const UNICODE = ['\ud800', '\udfff', '\u0000', '\u202eevil', 'e\u0301', '\ufeffx', '\uffff', '😀', 'a\u2028b']
/** Bytes no valid UTF-8 holds, for URLs: a lone surrogate, an overlong '/', a NUL, RTL, a cut sequence. */
const BAD_URL_TEXT = ['%ED%A0%80', '%C0%AF', '%00', '%E2%80%AE', '%E0%A4', '%FF', '%', '%zz', '%25']
const CONFUSED: unknown[] = [1, '1', true, 'true', null, [], {}, [1], { a: 1 }, '', 1.5, -1, 'abc', [[]], { x: 'y' }]
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype']
const PROTO_VALUES: unknown[] = [{ polluted: 1 }, { prototype: { polluted: 1 } }, 'x', 1, null, []]

type Path = Array<string | number>

/** Every path to a value inside `v` (objects and arrays), the root included. */
function paths(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at)
  if (at.length > 6) return out
  if (Array.isArray(v)) v.forEach((item, i) => paths(item, [...at, i], out))
  else if (v !== null && typeof v === 'object') for (const [k, item] of Object.entries(v)) paths(item, [...at, k], out)
  return out
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value
  let node = root as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  node[path[path.length - 1]] = value
  return root
}

function objectPaths(v: unknown): Path[] {
  return paths(v).filter((p) => { const x = p.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], v); return x !== null && typeof x === 'object' && !Array.isArray(x) })
}

/** Own enumerable key written as JSON.stringify would (defineProperty: `__proto__` as a plain key). */
function putKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

const MARK = '"\u0001edge\u0001"'

/** The body's JSON text (and bytes) after a body mutation. */
function mutateBody(r: Random, value: unknown, mutations: string[]): { text?: string; bytes?: Buffer } {
  const v = structuredClone(value)
  const all = paths(v)
  switch (int(r, 10)) {
    case 0: { const p = pick(r, all); const c = pick(r, CONFUSED); mutations.push(`body type confusion at /${p.join('/')}: ${JSON.stringify(c)}`); return { text: JSON.stringify(setAt(v, p, structuredClone(c))) } }
    case 1: {
      const p = pick(r, all); const edge = pick(r, EDGE_JSON)
      mutations.push(`body edge number at /${p.join('/')}: ${edge}`)
      return { text: JSON.stringify(setAt(v, p, MARK.slice(1, -1))).replace(MARK, edge) }
    }
    case 2: { const p = pick(r, all); const u = pick(r, UNICODE); mutations.push(`body unicode at /${p.join('/')}: ${JSON.stringify(u)}`); return { text: JSON.stringify(setAt(v, p, u)) } }
    case 3: {
      const p = pick(r, all)
      const kind = int(r, 5)
      const huge = kind === 0 ? 'x'.repeat(200_000) : kind === 1 ? Array.from({ length: 20_000 }, (_, i) => i) : kind === 2 ? Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])) : kind === 3 ? MARK.slice(1, -1) : 'deep'
      mutations.push(`body huge at /${p.join('/')}: ${['long string', 'long array', 'wide object', '400-digit number', 'deep nesting'][kind]}`)
      const text = JSON.stringify(setAt(v, p, huge === 'deep' ? MARK.slice(1, -1) : huge))
      return { text: kind === 3 ? text.replace(MARK, '9'.repeat(400)) : kind === 4 ? text.replace(MARK, '['.repeat(3_000) + ']'.repeat(3_000)) : text }
    }
    case 4: {
      const objects = objectPaths(v)
      if (objects.length === 0) break
      const p = pick(r, objects); const key = pick(r, PROTO_KEYS); const val = pick(r, PROTO_VALUES)
      const target = p.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], v) as Record<string, unknown>
      putKey(target, key, structuredClone(val))
      const escaped = r() < 0.3
      mutations.push(`body ${escaped ? 'escaped ' : ''}${key} key at /${p.join('/')}: ${JSON.stringify(val)}`)
      const text = JSON.stringify(v)
      return { text: escaped ? text.replace(`"${key}"`, `"\\u00${key.charCodeAt(0).toString(16)}${key.slice(1)}"`) : text }
    }
    case 5: {
      const objects = objectPaths(v).filter((p) => Object.keys(p.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], v) as object).length > 0)
      if (objects.length === 0) break
      const p = pick(r, objects)
      const target = p.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], v) as Record<string, unknown>
      const key = pick(r, Object.keys(target)); const c = pick(r, CONFUSED)
      // The duplicate goes first: JSON.parse keeps the last, so the valid value is the one kept.
      const first = r() < 0.5
      mutations.push(`body duplicate key ${key} at /${p.join('/')} (${first ? 'hostile first' : 'hostile last'}): ${JSON.stringify(c)}`)
      putKey(target, key, MARK.slice(1, -1))
      const text = JSON.stringify(v)
      const dup = `"${key}":${JSON.stringify(c)}`
      const kept = `"${key}":${JSON.stringify(p.concat(key).reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], value))}`
      return { text: text.replace(`"${key}":${MARK}`, first ? `${dup},${kept}` : `${kept},${dup}`) }
    }
    case 6: {
      const objects = objectPaths(v)
      if (objects.length === 0) break
      const p = pick(r, objects)
      const target = p.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], v) as Record<string, unknown>
      const keys = Object.keys(target)
      if (keys.length > 0 && r() < 0.5) { const key = pick(r, keys); delete target[key]; mutations.push(`body missing ${key} at /${p.join('/')}`) }
      else { target.extra = pick(r, CONFUSED); mutations.push(`body extra key at /${p.join('/')}`) }
      return { text: JSON.stringify(v) }
    }
    case 7: {
      const t = pick(r, ['', 'null', '0', '"x"', '[]', '{}', '{"a":1', '{"a":1}}', '\u0000', ' ', 'true'])
      mutations.push(`body replaced: ${JSON.stringify(t)}`)
      return { text: t }
    }
    case 8: {
      // Bytes no UTF-8 decoder should take: an overlong '/', a lone surrogate, a stray continuation byte, an invalid lead.
      const bad = pick(r, [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x80], [0xff], [0xe2, 0x82]])
      const text = JSON.stringify(setAt(v, pick(r, all), MARK.slice(1, -1)))
      const [before, after] = text.split(MARK)
      mutations.push(`body invalid UTF-8 bytes ${bad.map((b) => b.toString(16)).join(' ')} in a string`)
      return { bytes: Buffer.concat([Buffer.from(`${before}"a`), Buffer.from(bad), Buffer.from(`b"${after}`)]) }
    }
    default: break
  }
  return { text: JSON.stringify(v) }
}

function queryText(q: Record<string, unknown>): string {
  const parts: string[] = []
  for (const [k, v] of Object.entries(q)) {
    if (Array.isArray(v)) for (const item of v) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(item))}`)
    else parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
  }
  return parts.join('&')
}

const CONTENT_TYPES = ['application/json; charset=latin1', 'application/json; charset=utf-16le', 'text/plain', 'application/json;charset="utf-8"', 'APPLICATION/JSON', 'application/json ; charset=UTF-8', 'application/json; charset=utf-8; x=y', 'application/jsonp', 'application/x-www-form-urlencoded', '']

/** The seed's case: schemas, then `count` requests (the first few valid, the rest mutated). */
export function drawCase(seed: number, count: number): SchemaFuzzCase {
  const r = mulberry32(seed)
  const schemas = drawSchemas(r)
  const requests: SchemaFuzzRequest[] = []
  for (let index = 0; index < count; index++) {
    const mutations: string[] = []
    const body = valid(r, schemas.body)
    const query = valid(r, schemas.querystring) as Record<string, unknown>
    const params = valid(r, schemas.params) as Record<string, unknown>
    const headerValues = valid(r, schemas.headers) as Record<string, unknown>
    let bodyOut: { text?: string; bytes?: Buffer } = { text: JSON.stringify(body) }
    let qs = queryText(query)
    let p1 = encodeURIComponent(String(params.p1))
    let p2 = encodeURIComponent(String(params.p2))
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    for (const [k, v] of Object.entries(headerValues)) headers[k] = String(v)
    const rounds = index < 3 ? 0 : 1 + int(r, 2)
    for (let m = 0; m < rounds; m++) {
      switch (int(r, 8)) {
        case 0: case 1: case 2: bodyOut = mutateBody(r, body, mutations); break
        case 3: {
          const keys = Object.keys((schemas.querystring.properties ?? {}) as object)
          const key = encodeURIComponent(pick(r, keys))
          const kind = int(r, 10)
          const add = [`${key}=1&${key}=2`, `${key}[]=1`, `${key}[0]=1`, `${key}=`, key, `${key}=${pick(r, EDGE_TEXT)}`, `${key}=${pick(r, BAD_URL_TEXT)}`,
            pick(r, ['__proto__[polluted]=1', '__proto__=x', 'constructor[prototype][polluted]=1', 'constructor=1', 'toString=1', 'hasOwnProperty=x', '__proto__.polluted=1']),
            `${key}=${encodeURIComponent(pick(r, UNICODE).replace(LONE_SURROGATE, '\ufffd'))}`, `${key}=${encodeURIComponent(String(pick(r, CONFUSED)))}`][kind]
          mutations.push(`query ${add.length > 60 ? add.slice(0, 60) : add}`)
          qs = r() < 0.5 ? `${qs}&${add}` : `${add}&${qs}`
          break
        }
        case 4: {
          const text = pick(r, [...EDGE_TEXT, ...BAD_URL_TEXT, '', '%20', 'abc', encodeURIComponent('\u202e'), '__proto__', 'constructor', 'a'.repeat(2_000)])
          if (r() < 0.5) p1 = text; else p2 = text
          mutations.push(`param ${JSON.stringify(text.slice(0, 40))}`)
          break
        }
        case 5: {
          const names = Object.keys((schemas.headers.properties ?? {}) as object)
          const name = pick(r, names)
          const kind = int(r, 4)
          if (kind === 0) { delete headers[name]; mutations.push(`header ${name} removed`) }
          else { const v = kind === 1 ? pick(r, ['', ' ', '1e308', ' 1 ', '0x10', '-0', 'NaN', 'true', '1,2', 'é', 'x'.repeat(5_000)]) : kind === 2 ? String(pick(r, CONFUSED)) : '9007199254740993'; headers[name] = v; mutations.push(`header ${name}: ${JSON.stringify(v.slice(0, 40))}`) }
          break
        }
        case 6: {
          const type = pick(r, CONTENT_TYPES)
          if (type === '') delete headers['content-type']; else headers['content-type'] = type
          mutations.push(`content-type ${JSON.stringify(type)}`)
          break
        }
        default: {
          const bom = pick(r, [[0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]])
          const bytes = bodyOut.bytes ?? Buffer.from(bodyOut.text ?? '')
          bodyOut = { bytes: Buffer.concat([Buffer.from(bom), bytes]) }
          mutations.push(`BOM ${bom.map((b) => b.toString(16)).join(' ')} before the body`)
        }
      }
    }
    const payload = bodyOut.bytes ?? Buffer.from(bodyOut.text ?? '')
    requests.push({ index, mutations, url: `/r/${p1}/${p2}${qs === '' ? '' : `?${qs}`}`, headers, payload })
  }
  return { seed, schemas, requests }
}
