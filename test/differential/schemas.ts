// Random JSON Schemas of the kinds route schemas use, drawn from a seed. They stay within what
// both frameworks accept (ajv 6 draft-07 keywords, Fastify 3's shared-schema `$ref` forms), so
// a boot failure on one side only is itself a difference.
import type { Random } from './random'

export type Schema = Record<string, unknown>

/** Added to both apps before every case, for `$ref`. */
export const SHARED_SCHEMAS: Schema[] = [
  { $id: 'point', type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer', default: 0 } }, required: ['x'] },
  { $id: 'defs', definitions: { id: { type: 'integer', minimum: 1 }, tag: { type: 'string', maxLength: 5 }, flag: { type: 'boolean' } } },
]

const REFS: Schema[] = [{ $ref: 'point#' }, { $ref: 'defs#/definitions/id' }, { $ref: 'defs#/definitions/tag' }, { $ref: 'defs#/definitions/flag' }]

const FORMATS = ['date', 'date-time', 'time', 'email', 'uri', 'uuid', 'ipv4', 'hostname']

/** A scalar schema: what a query string, a parameter or a header can hold. */
export function scalarSchema(r: Random): Schema {
  switch (r.int(0, 15)) {
    case 0: return { type: 'string' }
    case 1: return { type: 'string', minLength: r.int(0, 2), maxLength: r.int(2, 6) }
    case 2: return { type: 'string', format: r.pick(FORMATS) }
    case 3: return { type: 'integer' }
    case 4: return { type: 'integer', minimum: r.int(-5, 0), maximum: r.int(1, 100) }
    case 5: return { type: 'number' }
    case 6: return { type: 'number', exclusiveMinimum: 0, multipleOf: r.pick([0.5, 2]) }
    case 7: return { type: 'boolean' }
    case 8: return { type: r.pick([['integer', 'null'], ['string', 'null'], ['number', 'string'], ['boolean', 'integer'], ['null', 'boolean']]) }
    case 9: return { type: r.pick(['integer', 'string', 'number']), nullable: true }
    case 10: return { enum: r.pick([['a', 'b'], [1, 2, 3], ['1', 2, null], [true, 'x']]) }
    case 11: return { const: r.pick(['a', 1, true, null]) }
    case 12: return { anyOf: [{ type: r.pick(['integer', 'boolean']) }, { type: 'string', maxLength: 3 }] }
    case 13: return { oneOf: [{ type: 'integer' }, { type: r.pick(['string', 'number', 'boolean']) }] }
    case 14: return { type: 'string', pattern: r.pick(['^[a-z]+$', '\\d', '^.{2}$']) }
    default: return r.pick(REFS.slice(1))
  }
}

function withDefault(r: Random, schema: Schema): Schema {
  if (!r.chance(0.2)) return schema
  const type = schema.type
  const value = type === 'integer' || type === 'number' ? r.int(0, 9) : type === 'boolean' ? r.chance(0.5) : r.pick(['d', '7', ''])
  return { ...schema, default: value }
}

/** An object schema over `names`, with `required`, defaults and an additionalProperties choice. */
export function objectSchema(r: Random, names: string[], member: (r: Random, depth: number) => Schema, depth: number): Schema {
  const properties: Record<string, Schema> = {}
  for (const name of names) properties[name] = withDefault(r, member(r, depth + 1))
  const schema: Schema = { type: 'object', properties }
  const required = r.some(names, 2)
  if (required.length > 0) schema.required = required
  const extra = r.int(0, 5)
  if (extra === 0) schema.additionalProperties = false
  else if (extra === 1) schema.additionalProperties = { type: 'integer' }
  else if (extra === 2) schema.additionalProperties = true
  return schema
}

/** A body schema: objects, arrays, scalars and combinators, nested up to `depth` 2. */
export function valueSchema(r: Random, depth = 0): Schema {
  const roll = depth >= 2 ? r.int(0, 4) : r.int(0, 9)
  switch (roll) {
    case 0: case 1: case 2: case 3: return scalarSchema(r)
    case 4: return r.pick(REFS)
    case 5: case 6: return objectSchema(r, r.some(['a', 'b', 'c', 'n'], 3), valueSchema, depth)
    case 7: return { type: 'array', items: valueSchema(r, depth + 1), ...(r.chance(0.3) ? { maxItems: 2 } : r.chance(0.2) ? { maxItems: 3, uniqueItems: true } : {}) }
    case 8: return { type: ['object', 'null'], properties: { a: scalarSchema(r) }, ...(r.chance(0.5) ? { required: ['a'] } : {}) }
    default: return { [r.pick(['anyOf', 'oneOf'])]: [objectSchema(r, ['a'], valueSchema, depth), objectSchema(r, ['b'], valueSchema, depth)] }
  }
}

/** A response schema: what fast-json-stringify compiles (types, nullable, combinators, patterns). */
export function responseSchema(r: Random, depth = 0): Schema {
  const roll = depth >= 2 ? r.int(0, 5) : r.int(0, 12)
  switch (roll) {
    case 0: return { type: r.pick(['string', 'integer', 'number', 'boolean', 'null']) }
    case 1: return { type: r.pick([['integer', 'null'], ['string', 'null'], ['number', 'string']]) }
    case 2: return { type: r.pick(['integer', 'string', 'number', 'boolean']), nullable: true }
    case 3: return { type: 'string', format: r.pick(['date', 'date-time', 'time']) }
    case 4: return { enum: ['a', 'b'] }
    case 5: return { type: 'integer' }
    case 6: case 7: case 8: {
      const schema = objectSchema(r, r.some(['a', 'b', 'n', 'when'], 4), responseSchema, depth)
      if (r.chance(0.2)) schema.patternProperties = { '^x': { type: 'integer' } }
      return schema
    }
    case 9: return { type: 'array', items: responseSchema(r, depth + 1) }
    case 10: return { anyOf: [{ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }, { type: 'string' }] }
    case 11: return { type: 'object', additionalProperties: { type: r.pick(['string', 'integer']) } }
    default: return { $ref: 'point#' }
  }
}
