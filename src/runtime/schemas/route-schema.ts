import { documentsOnly } from './response-headers'
import { describeValue, schemaError } from './schema-codes'
import { copySchemaNoting, findAsync } from './schema-walk'
import { plainSchema } from './fluent-schema'
import { placeSchemaClasses } from './schema-class-placer'
import { didYouMean } from './did-you-mean'
import { compactRecord } from './compact-record'
import { contentTypeMapOf } from './content-type-map'
import { isRangeKey, isStatusKey } from './status-keys'
import type { JsonSchema, NormalizedRouteSchema } from './types'
import type { PartReuse } from './part-reuse'

export interface RouteIdentity {
  method: string
  url: string
  scopePath: string
}

type RequestPart = 'body' | 'querystring' | 'params' | 'headers'

const PARTS = ['body', 'querystring', 'query', 'params', 'headers', 'response']
/**
 * Keys that OpenAPI generators (@fastify/swagger and the like) read from a route schema: they carry
 * no validation, so they are accepted next to the parts. Any other key is refused: a misspelt part
 * (`querystrin`) would otherwise silently turn its validation off.
 */
const ROUTE_ANNOTATIONS: ReadonlySet<string> = new Set(['summary', 'description', 'tags', 'operationId', 'deprecated', 'hide',
  'consumes', 'produces', 'security', 'externalDocs', 'servers', 'callbacks', 'links', 'examples'])

/**
 * Normalizes the route option `schema` (spec §2.1) into one fixed shape, each part `null` when absent:
 * `query` folded into `querystring`, shorthand parts expanded, header names lower-cased, response keys
 * checked (`'2XX'` becomes `'2xx'`). The user's objects are copied, never mutated.
 *
 * The body part is normalized, compiled and applied whatever the method and content type: a body
 * schema is never bypassed (issue 12 §1, over the letter of spec §2.1).
 *
 * @example
 * normalizeRouteSchema({ query: { q: { type: 'string' } } }, { method: 'GET', url: '/s', scopePath: 'root' })
 * // { querystring: { type: 'object', properties: { q: { type: 'string' } } }, body: null, ... }
 */
export function normalizeRouteSchema(input: unknown, route: RouteIdentity, shorthand = true, reuse?: PartReuse): NormalizedRouteSchema {
  const schema = plainSchema(input)
  const result: NormalizedRouteSchema = { body: null, querystring: null, params: null, headers: null, response: null }
  if (schema === undefined || schema === null) return result
  const where = `${route.method} ${route.url} in scope ${route.scopePath}`
  if (typeof schema !== 'object' || Array.isArray(schema)) {
    throw schemaError('ENC_ERR_SCH_NOT_OBJECT', { case: 'schema-option', where, got: describeValue(schema) })
  }
  const raw = schema as Record<string, unknown>
  for (const key of Object.keys(raw)) {
    if (PARTS.includes(key) || ROUTE_ANNOTATIONS.has(key) || key.startsWith('x-')) continue
    throw schemaError('ENC_ERR_SCH_UNKNOWN_PART', { where, key, hint: didYouMean(key, PARTS) })
  }
  if (isPresent(raw.querystring) && isPresent(raw.query)) {
    throw schemaError('ENC_ERR_SCH_QUERY_ALIAS_CONFLICT', { where })
  }
  result.body = normalizePart(raw.body, 'body', where, shorthand, reuse)
  result.querystring = normalizePart(isPresent(raw.querystring) ? raw.querystring : raw.query, 'querystring', where, shorthand, reuse)
  result.params = normalizePart(raw.params, 'params', where, shorthand, reuse)
  // Not shared (part-reuse.ts): lowerCaseHeaderNames rewrites the copy.
  const headers = normalizePart(raw.headers, 'headers', where, shorthand)
  result.headers = headers === null ? null : lowerCaseHeaderNames(headers)
  result.response = normalizeResponse(raw.response, where, shorthand, reuse)
  return result
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null
}

function normalizePart(input: unknown, name: string, where: string, shorthand: boolean, reuse?: PartReuse): JsonSchema | null {
  // A schema class given as the part itself (`body: Pet`, `response: { 200: Pet }`) is placed as one
  // nested in a schema is (its schema inlined, or a `$ref` to its `$id`); any other function stays as
  // it is and is refused below.
  const part = plainSchema(typeof input === 'function' ? placeSchemaClasses(input as unknown as JsonSchema) : input)
  if (!isPresent(part)) return null
  if (typeof part !== 'object' || Array.isArray(part)) {
    throw schemaError('ENC_ERR_SCH_NOT_OBJECT', { case: 'part', part: name, where, got: describeValue(part) })
  }
  // Another route of this boot gave the very same object: its copy serves this route too.
  const shared = reuse?.copyOf(part as object)
  if (shared !== undefined) return shared
  // One walk copies and notes any `$async` key; only then does findAsync look for one in a schema position.
  let { copy, mayBeAsync, sawFunction } = copySchemaNoting(part as JsonSchema)
  // A schema class nested where a subschema goes (`items: Cat`, or in `Cat.schema`: `owner: Owner`)
  // is placed as the decorator layer places it; only a part holding a function pays for the walk.
  if (sawFunction) ({ copy, mayBeAsync } = copySchemaNoting(placeSchemaClasses(part as JsonSchema)))
  const asyncAt = mayBeAsync ? findAsync(part) : null
  if (asyncAt !== null) {
    throw schemaError('ENC_ERR_SCH_ASYNC', { case: 'route', part: name, where, at: asyncAt })
  }
  const documentation = name.startsWith('response ') && documentsOnly(copy)
  if (shorthand) {
    const complete = isCompleteSchema(copy) || documentation ? copy : { type: 'object', properties: copy }
    if (!sawFunction) reuse?.remember(part as object, complete)
    return complete
  }
  // jsonShorthand: false (Fastify 3's meaning): the part is the schema, never wrapped. A part with
  // no JSON Schema keyword at all, only objects, is shorthand written by habit: read as a schema it
  // would accept anything (ajv 6 ignores unknown keywords), so it is refused rather than let through.
  const keys = Object.keys(copy)
  if (!documentation && keys.length > 0 && keys.every((key) => !SCHEMA_KEYWORDS.has(key) && isObject(copy[key]))) {
    throw schemaError('ENC_ERR_SCH_NOT_OBJECT', { case: 'shorthand-off', part: name, where, keys: keys.slice(0, 3).join(', ') })
  }
  if (!sawFunction) reuse?.remember(part as object, copy)
  return copy
}

/** JSON Schema draft-07's keywords, ajv 6's additions and the merge/patch plugin's. */
const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(['$id', '$schema', '$ref', '$comment', '$merge', '$patch', 'title', 'description',
  'default', 'readOnly', 'writeOnly', 'examples', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength',
  'minLength', 'pattern', 'additionalItems', 'items', 'maxItems', 'minItems', 'uniqueItems', 'contains', 'maxProperties', 'minProperties',
  'required', 'additionalProperties', 'definitions', 'properties', 'patternProperties', 'dependencies', 'propertyNames', 'const', 'enum',
  'type', 'format', 'contentMediaType', 'contentEncoding', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not', 'nullable',
  'formatMinimum', 'formatMaximum', 'formatExclusiveMinimum', 'formatExclusiveMaximum'])

/**
 * A part is shorthand (spec §2.1: properties at the top level) unless it reads as a schema: a `type`
 * (string or array, so a property *named* `type` stays shorthand), a `properties` object, a `$ref`, a
 * combinator or conditional, or the merge/patch plugin's `$merge` / `$patch`.
 */
export function isCompleteSchema(part: JsonSchema): boolean {
  const type = part.type
  if (typeof type === 'string' || Array.isArray(type)) return true
  if (typeof part.$ref === 'string') return true
  if (isObject(part.properties)) return true
  if (Array.isArray(part.oneOf) || Array.isArray(part.anyOf) || Array.isArray(part.allOf)) return true
  return isObject(part.not) || isObject(part.if) || isObject(part.$merge) || isObject(part.$patch)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Node gives header names in lower case, so a schema naming `Authorization` could never match
 * (spec §2.1). Only literal `properties` / `required` are rewritten; a `$ref`'d schema is the user's.
 */
function lowerCaseHeaderNames(schema: JsonSchema): JsonSchema {
  if (isObject(schema.properties)) {
    const properties: Record<string, unknown> = {}
    for (const name of Object.keys(schema.properties)) properties[name.toLowerCase()] = schema.properties[name]
    schema.properties = properties
  }
  if (Array.isArray(schema.required)) {
    schema.required = schema.required.map((name: unknown) => typeof name === 'string' ? name.toLowerCase() : name)
  }
  return schema
}

function normalizeResponse(input: unknown, where: string, shorthand: boolean, reuse?: PartReuse): Record<string, JsonSchema> | null {
  const response = plainSchema(input)
  if (!isPresent(response)) return null
  if (!isObject(response)) {
    throw schemaError('ENC_ERR_SCH_NOT_OBJECT', { case: 'response', where, got: describeValue(response) })
  }
  const result: Array<[string, JsonSchema]> = []
  const seen = new Set<string>()
  for (const key of Object.keys(response)) {
    const normalizedKey = isStatusKey(key) || key === 'default' ? key : isRangeKey(key) ? key.toLowerCase() : null
    if (normalizedKey === null) {
      throw schemaError('ENC_ERR_SCH_RESPONSE_KEY', { where, key })
    }
    if (seen.has(normalizedKey)) {
      throw schemaError('ENC_ERR_SCH_RESPONSE_KEY', { where, key: normalizedKey, twice: true })
    }
    const mediaTypes = contentTypeMapOf(plainSchema(response[key]))
    if (mediaTypes !== null) {
      throw schemaError('ENC_ERR_SCH_RESPONSE_CONTENT_TYPES', { where, key, mediaTypes })
    }
    const part = normalizePart(response[key], `response ${key}`, where, shorthand, reuse)
    if (part === null) {
      throw schemaError('ENC_ERR_SCH_NOT_OBJECT', { case: 'response-key', key, where, got: describeValue(response[key]) })
    }
    seen.add(normalizedKey)
    result.push([normalizedKey, part])
  }
  return result.length > 0 ? compactRecord(result) : null
}
