// README differences the serialization family meets (serialization.ts). Each computes what Enclave
// writes under the rule from fast-json-stringify 7 (the schema Enclave picks for the status: its
// code, its range, else `default`), and applies only where its rule is what tells the two apart.
import { STATUS_CODES } from 'node:http'
import fastJsonStringify from 'fast-json-stringify'
import type { Answer } from './case'
import type { KnownDifference, RewriteContext } from './difference-types'
import { SHARED_SCHEMAS, type Schema } from './schemas'
import { serialResponse, serialValue, type SerialShape } from './serialization'

const JSON_TYPE = 'application/json; charset=utf-8'
const SHARED_BY_ID = Object.fromEntries(SHARED_SCHEMAS.map((s) => [s.$id as string, s]))

function fjs7(schema: Schema, value: unknown): string | undefined {
  try {
    return fastJsonStringify(structuredClone(schema) as never, { schema: structuredClone(SHARED_BY_ID) as never })(value)
  } catch {
    return undefined
  }
}

/** Fastify 3's fast-json-stringify 2, for what README says Enclave writes as Fastify 3 does (type lists). */
function fjs2(schema: Schema, value: unknown): string | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    const build = require(require.resolve('fast-json-stringify', { paths: [require.resolve('fastify3')] })) as (s: unknown, o: unknown) => (v: unknown) => string
    return build(structuredClone(schema), { schema: structuredClone(SHARED_BY_ID) })(value)
  } catch {
    return undefined
  }
}

/** `['integer', 'null']` given an integer's digits or a BigInt (a PostgreSQL int8): written as the integer. */
export function digitsUnderNullableInteger(type: unknown, value: unknown): boolean {
  return Array.isArray(type) && type.length === 2 && type.includes('integer') && type.includes('null') &&
    (typeof value === 'bigint' || (typeof value === 'string' && /^-?\d{1,20}$/.test(value)))
}

/**
 * fast-json-stringify 7 throws on a value none of a type list holds, which README says is written
 * as Fastify 3 writes it: a top-level property under a type list takes fjs 2's written value.
 */
function withTypeLists(schema: Schema, value: unknown): unknown {
  const properties = schema.properties as Record<string, Schema> | undefined
  if (properties === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return value
  const written = JSON.parse(fjs2(schema, value) ?? 'null') as Record<string, unknown> | null
  if (written === null) return value
  const patched: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const [name, sub] of Object.entries(properties)) {
    // README: an integer's digits (or a BigInt) under ['integer', 'null'] is that integer, not Fastify 3's null.
    if (name in patched && digitsUnderNullableInteger(sub.type, patched[name])) patched[name] = Number(patched[name])
    else if (Array.isArray(sub.type) && name in patched && name in written) patched[name] = written[name]
  }
  return patched
}

/** The schema with its top-level properties' type lists admitting null (as Enclave's lenient serializer writes them). */
function listsAdmitNull(schema: Schema): Schema {
  const properties = schema.properties as Record<string, Schema> | undefined
  if (properties === undefined) return schema
  const widened: Record<string, Schema> = {}
  for (const [name, sub] of Object.entries(properties)) widened[name] = Array.isArray(sub.type) && !sub.type.includes('null') ? { ...sub, type: [...sub.type, 'null'] } : sub
  return { ...schema, properties: widened }
}

/** README: "a value a `number`/`integer` cannot hold is left out as Fastify 3 does" (top-level properties). */
function withoutUnholdable(schema: Schema, value: unknown): unknown {
  const properties = schema.properties as Record<string, Schema> | undefined
  if (properties === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return value
  const kept: Record<string, unknown> = {}
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    const type = properties[name]?.type
    if ((type === 'integer' || type === 'number') && v !== null && typeof v !== 'bigint' && Number.isNaN(Number(v))) continue
    kept[name] = v
  }
  return kept
}

/** What Enclave writes for `payload` under `schema` (undefined: a 500). */
/** null at the root of an object schema with something to write, or of an array schema: refused as Fastify 3 refuses it (a 500; seed 157:175 under `default`, before session 26). */
function refusesNull(schema: Schema): boolean {
  const s = schema as Record<string, unknown>
  if (s.nullable === true) return false
  if (s.type === 'array') return true
  const filled = (v: unknown): boolean => v !== null && typeof v === 'object' && Object.keys(v).length > 0
  return s.type === 'object' && (filled(s.properties) || (Array.isArray(s.required) && s.required.length > 0) || s.patternProperties !== undefined || (s.additionalProperties !== undefined && s.additionalProperties !== false))
}

function written(schema: Schema, payload: unknown): string | undefined {
  if (payload === null && refusesNull(schema)) return undefined
  const direct = fjs7(schema, payload)
  if (direct !== undefined) return direct
  // fjs 7 threw: Fastify 3's readings where README keeps them.
  if (schema.type === 'integer' || schema.type === 'number') return 'null'
  const held = withoutUnholdable(schema, payload)
  return fjs7(schema, held) ?? fjs7(listsAdmitNull(schema), withTypeLists(schema, held))
}

/** The key Enclave serializes `status` under, and whether Fastify 3 (codes and lower-case ranges only) would too. */
function picks(shape: SerialShape, status: number): { key?: string; fastifyToo: boolean } {
  const response = serialResponse(shape)
  const code = String(status)
  const range = `${code[0]}xx`
  if (response[code] !== undefined) return { key: code, fastifyToo: true }
  if (response[range] !== undefined) return { key: range, fastifyToo: true }
  return response.default !== undefined ? { key: 'default', fastifyToo: false } : { fastifyToo: false }
}

function errorPayload(status: number, message: string, code?: string): Record<string, unknown> {
  return code === undefined ? { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message } : { statusCode: status, code, error: STATUS_CODES[status] ?? 'Error', message }
}

interface Written { status: number; text: string; keys: string[]; threw: boolean }

/** What Enclave writes: the reply's payload under its schema, or the generic 500 (itself under the schema for 500) when that throws. */
function enclaveWrites(shape: SerialShape): Written {
  // A thrown error is serialized as Fastify 3 hands it to a status's schema: the error itself, with
  // the payload's fields over it (a string schema writes `Error: bad input`); Enclave's fields are
  // its own four, so `additionalProperties` sees them all (fast-json-stringify 2 wrote `{}`).
  const payload = shape.error === 'throw' ? thrownPayload(shape.status) : serialValue(shape)
  const response = serialResponse(shape)
  const first = picks(shape, shape.status)
  const schema = first.key === undefined ? undefined : response[first.key] as Schema
  const text = schema === undefined ? safeJson(payload) : written(schema, payload)
  if (text !== undefined) return { status: shape.status, text, keys: first.key === undefined ? [] : [first.key], threw: false }
  const generic = errorPayload(500, STATUS_CODES[500] as string)
  const fallback = picks(shape, 500)
  const fallbackText = fallback.key === undefined ? JSON.stringify(generic) : fjs7(response[fallback.key] as Schema, generic) ?? JSON.stringify(generic)
  return { status: 500, text: fallbackText, keys: [first.key as string, ...(fallback.key === undefined ? [] : [fallback.key])], threw: true }
}

function thrownPayload(status: number): object {
  const error = Object.assign(new Error('bad input'), { statusCode: status, code: 'E_SER' })
  const own = (value: unknown): PropertyDescriptor => ({ value, enumerable: true, writable: true, configurable: true })
  return Object.create(error, { statusCode: own(status), code: own('E_SER'), error: own(STATUS_CODES[status] ?? 'Error'), message: own('bad input') }) as object
}

function safeJson(value: unknown): string | undefined {
  try { return JSON.stringify(value) } catch { return undefined }
}

function answerOf(f: Answer, w: Written): Answer {
  return { statusCode: w.status, headers: { ...f.headers, 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(w.text)) }, body: JSON.parse(w.text) }
}

function rule(id: string, readme: string, applies: (shape: SerialShape, w: Written) => boolean): KnownDifference {
  return {
    id,
    readme,
    rewrite(f: Answer, { c }: RewriteContext) {
      if (c.serial === undefined || f.statusCode < 0) return undefined
      const w = enclaveWrites(c.serial)
      return applies(c.serial, w) ? answerOf(f, w) : undefined
    },
  }
}

export const SERIALIZATION_DIFFERENCES: KnownDifference[] = [
  rule('serial-default-key', 'The response schema key `default` (Fastify 4/5; Fastify 3 knows only status codes and `Nxx`\n  ranges) covers every status no code or range key names, error replies included',
    (shape, w) => w.keys.includes('default')),
  rule('serial-unserializable-4xx', '4xx payload its response schema cannot serialize (a missing required property: Fastify 3 sends the serializer\'s `"message" is required!` under the 4xx)',
    (shape, w) => shape.status >= 400 && w.threw),
  // Error payloads and 4xx payloads under their schema: the fjs7 rule as for 2xx (known-differences.ts).
  rule('serial-fjs7-4xx', 'Response schemas are compiled by fast-json-stringify 7 (Fastify 3 ships 2); where the two write differently Enclave writes what 7 does',
    (shape, w) => shape.status >= 400 && w.keys.length > 0 && picks(shape, shape.status).fastifyToo),
]
