import type { JsonSchema, SerializeFunction, SharedSchema } from './types'

/**
 * A response value its schema's `number` or `integer` type cannot hold (`{ hello: 'world' }` for
 * `hello: { type: 'number' }`): fast-json-stringify 7 throws, Fastify 3's fast-json-stringify 2 left
 * the property out (and wrote `null` for such an array item or a patternProperties match). Enclave keeps Fastify 3's answer
 * (issue 12), and a value none of a `type: [...]` list holds it converted or wrote `null` (asTypeList):
 * on those errors only, the payload is copied without those values, guided by the schema,
 * and serialized once more by `build(nullable)`: the same schema with its numbers and integers
 * nullable (and its type lists admitting null), so that an array item left as `null` is written `null` (not `0`; a `null` in the payload
 * is still `0` there, as both write it). The usual path pays one
 * try block; nothing is copied or compiled unless it threw.
 */
export function coerceLikeFastify3(
  serialize: SerializeFunction,
  schema: JsonSchema,
  external: Record<string, SharedSchema>,
  build: (schema: JsonSchema, external: Record<string, SharedSchema>) => SerializeFunction,
): SerializeFunction {
  let lenient: SerializeFunction | null = null
  return (data) => {
    try {
      return serialize(data)
    } catch (error) {
      if (!isConversionError(error)) throw error
      const kept = dropUnconvertible(data, schema, { root: schema, external }, 0)
      if (lenient === null) {
        const nullableExternal: Record<string, SharedSchema> = {}
        for (const id of Object.keys(external)) nullableExternal[id] = withNullableNumbers(external[id], 0) as SharedSchema
        lenient = build(withNullableNumbers(schema, 0) as JsonSchema, nullableExternal)
      }
      // The value itself (a top-level `integer` schema given `{}`): Fastify 3 wrote `null`.
      return lenient(kept === DROP ? null : kept)
    }
  }
}

/** A copy of `schema` in which every `number` or `integer` type also admits null. */
function withNullableNumbers(node: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return node
  if (Array.isArray(node)) return node.map((item) => withNullableNumbers(item, depth + 1))
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(node)) copy[key] = withNullableNumbers((node as Record<string, unknown>)[key], depth + 1)
  if (copy.type === 'number' || copy.type === 'integer') copy.nullable = true
  // A type list none of whose types holds the value is written null (Fastify 3), whatever the list.
  if (Array.isArray(copy.type) && !copy.type.includes('null')) copy.type = [...copy.type, 'null']
  // `['integer', 'null']` as `integer` + nullable, whose writer takes the digits asTypeList keeps
  // (a bigint exactly, past 2^53 too); the list's own writer takes only a JS integer.
  if (isNullableInteger(copy.type)) { copy.type = 'integer'; copy.nullable = true }
  return copy
}

// The second: a value none of a type list's types holds (also said of an anyOf no branch matches,
// for which the retry changes nothing and throws the same).
const CONVERSION_ERROR = /^(The value "[\s\S]*" cannot be converted to (a number|an integer)|The value of '[\s\S]*' does not match schema definition)\.$/

function isConversionError(error: unknown): boolean {
  return error instanceof Error && CONVERSION_ERROR.test(error.message)
}

/** Left out of an object, `null` in an array. */
const DROP: unique symbol = Symbol('drop')

/** Deeper than any schema a route declares; a cycle in the data (or in $refs) stops here. */
const MAX_DEPTH = 64

export interface Where {
  /** The document `#/...` and `#name` refer to: the route's schema, or the shared schema a $ref entered. */
  readonly root: JsonSchema
  readonly external: Record<string, SharedSchema>
}

type Schema = Record<string, unknown>

function dropUnconvertible(value: unknown, schema: unknown, where: Where, depth: number): unknown {
  if (depth > MAX_DEPTH || schema === null || typeof schema !== 'object') return value
  const s = schema as Schema
  if (typeof s.$ref === 'string') {
    const target = resolveRef(s.$ref, where)
    return target === null ? value : dropUnconvertible(value, target.schema, target.where, depth + 1)
  }
  // null is 0 for a number or integer that is not nullable (both serializers write it so when
  // nothing else fails); the lenient copy below admits null, so it is turned into 0 here.
  if ((s.type === 'number' || s.type === 'integer') && value === null) return s.nullable === true ? null : 0
  if (Array.isArray(s.type)) return asTypeList(value, s.type)
  if (s.type === 'number') return Number.isNaN(Number(value)) ? DROP : value
  if (s.type === 'integer') return typeof value === 'bigint' || Number.isFinite(Math.trunc(value as number)) ? value : DROP
  if (Array.isArray(value)) {
    if (s.type !== 'array' || s.items === null || typeof s.items !== 'object' || Array.isArray(s.items)) return value
    return value.map((item) => {
      const kept = dropUnconvertible(item, s.items, where, depth + 1)
      return kept === DROP ? null : kept
    })
  }
  if (!isPlainObject(value) || (s.type !== 'object' && s.properties === undefined)) return value
  const required = Array.isArray(s.required) ? s.required : []
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const own = propertySchema(s, key)
    const kept = own === undefined ? value[key] : dropUnconvertible(value[key], own.schema, where, depth + 1)
    // A required property stays, so the serializer reports it as it would have.
    if (kept !== DROP) copy[key] = kept
    else if (required.includes(key)) copy[key] = value[key]
    // fast-json-stringify 2 wrote a patternProperties match with no check of its own: `null`.
    else if (own?.from === 'pattern') copy[key] = null
  }
  return copy
}

/**
 * fast-json-stringify 2's reading of `type: [...]`: `null` first, then the listed order, the first
 * type that takes the value wins (a number takes anything `isNaN` does not refuse: `'12'` is 12,
 * `true` is 1; a string, integer or object type takes `null` too, as `""`, 0 or `{}`), and a
 * value none takes is written `null`.
 */
function asTypeList(value: unknown, types: readonly unknown[]): unknown {
  // Not fjs 2's reading (it writes null): a nullable bigint column (PostgreSQL's int8, which the
  // pg driver gives as a string, or a BigInt) would be written null, its value lost. Written as
  // `type: 'integer'` alone and `nullable: true` write it (README, differences).
  if (isNullableInteger(types) && (typeof value === 'bigint' || (typeof value === 'string' && INTEGER_TEXT.test(value)))) return value
  const order = types.includes('null') ? ['null', ...types.filter((type) => type !== 'null')] : types
  for (const type of order) {
    if (type === 'null' && (value === null || value === undefined)) return null
    // fjs 2 let a string, integer or object type take null too, written as its empty value.
    if (value === null && type === 'string') return ''
    if (value === null && type === 'integer') return 0
    if (value === null && type === 'object') return {}
    if (type === 'string' && (typeof value === 'string' || value instanceof Date)) return value
    if (type === 'integer' && Number.isInteger(value)) return value
    if (type === 'number' && typeof value !== 'bigint' && typeof value !== 'symbol' && !Number.isNaN(Number(value))) return Number(value)
    if (type === 'array' && Array.isArray(value)) return value
    if (type === 'boolean' && typeof value === 'boolean') return value
    // fjs 2 took an array for an object (typeof), writing its declared properties: `[]` is `{}`.
    if (type === 'object' && typeof value === 'object' && value !== null) return Array.isArray(value) ? { ...value } : value
  }
  return null
}

/** An integer's digits, as PostgreSQL writes an int8: what `type: 'integer'` alone converts exactly (up to 2^53). */
const INTEGER_TEXT = /^-?\d{1,20}$/

/** `['integer', 'null']` in either order. */
function isNullableInteger(types: unknown): boolean {
  return Array.isArray(types) && types.length === 2 && types.includes('integer') && types.includes('null')
}

function propertySchema(schema: Schema, key: string): { schema: unknown; from: 'properties' | 'pattern' | 'additional' } | undefined {
  const properties = schema.properties as Schema | undefined
  if (properties !== undefined && Object.prototype.hasOwnProperty.call(properties, key)) return { schema: properties[key], from: 'properties' }
  const patterns = schema.patternProperties as Schema | undefined
  if (patterns !== undefined) {
    for (const pattern of Object.keys(patterns)) if (new RegExp(pattern).test(key)) return { schema: patterns[pattern], from: 'pattern' }
  }
  return typeof schema.additionalProperties === 'object' ? { schema: schema.additionalProperties, from: 'additional' } : undefined
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function'
}

/** `#/pointer`, `#name`, `id#...` (spec §2.3); null when it does not resolve (the serializer then throws as before). */
export function resolveRef(ref: string, where: Where): { schema: unknown; where: Where } | null {
  const hash = ref.indexOf('#')
  const base = hash === -1 ? ref : ref.slice(0, hash)
  const fragment = hash === -1 ? '' : ref.slice(hash + 1)
  const root = documentOf(base, where)
  if (root === undefined) return null
  const next: Where = { root, external: where.external }
  if (fragment === '') return { schema: root, where: next }
  if (fragment.startsWith('/')) {
    let node: unknown = root
    for (const part of fragment.slice(1).split('/')) {
      if (node === null || typeof node !== 'object') return null
      node = (node as Schema)[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')]
    }
    return node === undefined ? null : { schema: node, where: next }
  }
  // Anchor keys start with '#', base keys never do: one cache per document holds both.
  const found = nestedById(root, `#${fragment}`)
  return found === null ? null : { schema: found, where: next }
}

/**
 * The schema a `$ref`'s base names, as the serializer resolved it: the current document, a shared
 * schema by its `$id`, or a schema declared with its own `$id` inside a shared one
 * (`{ $id: 'outer', properties: { inner: { $id: 'inner' } } }`; without it such a value was left
 * as it was and the retry threw the same error: a 500 where `outer#/properties/inner` gave Fastify 3's answer).
 */
function documentOf(base: string, where: Where): JsonSchema | undefined {
  if (base === '' || base === where.root.$id) return where.root
  const shared = where.external[base] as JsonSchema | undefined
  if (shared !== undefined) return shared
  const nested = nestedById(where.root, base)
  if (nested !== null) return nested as JsonSchema
  for (const id in where.external) {
    const inShared = nestedById(where.external[id], base)
    if (inShared !== null) return inShared as JsonSchema
  }
  return undefined
}

// A failing response's retry visits each `$ref` once per item; the schemas (the route's compiled
// copy, the shared schemas) do not change after boot, so each document is searched once per base.
const nestedFound = new WeakMap<object, Map<string, unknown>>()

function nestedById(document: unknown, base: string): unknown {
  if (document === null || typeof document !== 'object') return null
  let byBase = nestedFound.get(document)
  if (byBase === undefined) nestedFound.set(document, byBase = new Map())
  if (byBase.has(base)) return byBase.get(base)
  const found = findById(document, base, 0)
  byBase.set(base, found)
  return found
}

function findById(node: unknown, id: string, depth: number): unknown {
  if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return null
  if ((node as Schema).$id === id) return node
  for (const child of Object.values(node as Schema)) {
    const found = findById(child, id, depth + 1)
    if (found !== null) return found
  }
  return null
}
