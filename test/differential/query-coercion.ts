// The `query-coercion` family: what ajv 6 as Fastify 3 configures it leaves of a query string
// under a querystring schema. Types one at a time and in lists (`['integer', 'null']`), arrays
// of each item type (from a repeated key, a single key, `a[]=`, `a=1,2`), booleans and numbers
// from their spellings, `nullable`, `anyOf`/`oneOf` mixing scalars and arrays, `default`,
// `required`, `additionalProperties: false`, each under the default `coerceTypes: true`,
// `coerceTypes: 'array'` and `coerceTypes: false`. The handler echoes the query as validation
// left it (JSON tells its types apart), or the validation error is the answer.
import type { RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Schema = Record<string, unknown>

/** What one key may be declared as. */
const PROPERTY_SCHEMAS: Schema[] = [
  { type: 'integer' }, { type: 'number' }, { type: 'boolean' }, { type: 'string' }, { type: 'null' },
  { type: 'array', items: { type: 'integer' } }, { type: 'array', items: { type: 'number' } }, { type: 'array', items: { type: 'boolean' } },
  { type: 'array', items: { type: 'string' } }, { type: 'array' }, { type: 'array', items: { type: 'integer' }, minItems: 2 },
  { type: 'array', items: { type: ['integer', 'null'] } }, { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] } },
  { type: ['integer', 'null'] }, { type: ['null', 'integer'] }, { type: ['number', 'string'] }, { type: ['string', 'number'] }, { type: ['boolean', 'integer'] },
  { type: ['array', 'integer'] }, { type: ['integer', 'array'], items: { type: 'integer' } }, { type: ['boolean', 'null'] },
  { type: 'integer', nullable: true }, { type: 'boolean', nullable: true }, { type: 'string', nullable: true }, { type: 'array', items: { type: 'integer' }, nullable: true },
  { anyOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] }, { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] },
  { anyOf: [{ type: 'null' }, { type: 'number' }] }, { anyOf: [{ type: 'boolean' }, { type: 'null' }] }, { anyOf: [{ type: 'integer' }, { type: 'string' }] },
  { oneOf: [{ type: 'integer' }, { type: 'boolean' }] }, { oneOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'integer' }] },
  { type: 'integer', default: 7 }, { type: 'array', items: { type: 'integer' }, default: [1] }, { type: 'boolean', default: true }, { type: 'string', enum: ['x', 'y'] },
]

/** Raw query texts for key `a` (and `b`), as clients write them. */
const QUERIES = [
  'a=1', 'a=1&a=2', 'a[]=1', 'a[]=1&a[]=2', 'a=', 'a', '', 'a=x', 'a=true', 'a=false', 'a=1,2', 'a=null', 'a=%20', 'a=1.5', 'a=0',
  'a=&a=', 'a=1&a=', 'a=1e3', 'a=-1', 'a=+1', 'a=0x10', 'a=Infinity', 'a=TRUE', 'a=1&a=x', 'a=true&a=0', 'a=1&b=2', 'a=x&b=', 'b=1&b=2', 'a=%31', 'a=1&A=2',
]

const COERCIONS = [undefined, undefined, { coerceTypes: 'array' }, { coerceTypes: false }] as const

export interface QueryDrawn {
  route: RouteSpec
  request: RequestSpec
  ajv?: Record<string, unknown>
  note: string
}

export function drawQueryCoercionCase(r: Random): QueryDrawn {
  const a = structuredClone(r.pick(PROPERTY_SCHEMAS))
  const properties: Schema = { a }
  if (r.chance(0.4)) properties.b = structuredClone(r.pick(PROPERTY_SCHEMAS))
  const schema: Schema = { type: 'object', properties }
  if (r.chance(0.25)) schema.required = ['a']
  if (r.chance(0.2)) schema.additionalProperties = false
  const query = r.pick(QUERIES)
  const coercion = r.pick(COERCIONS)
  const route: RouteSpec = { method: 'GET', url: '/q', schema: { querystring: schema }, handler: (request) => ({ query: request.query }) }
  return { route, request: { method: 'GET', url: query === '' ? '/q' : `/q?${query}` }, ...(coercion === undefined ? {} : { ajv: { ...coercion } }), note: `query '${query}'` }
}
