// The `serialization` family: response schemas by status (a code, `2xx`, `4xx`, `default`, or one
// for another status only) and values that tell serializers apart: missing required properties,
// extra ones, additionalProperties true or a schema, nullable, type lists, floats under integer,
// numbers and booleans as strings and back, Date objects under date-time/date/time, nested
// arrays and objects, anyOf/oneOf/allOf, $ref to the shared schemas, patternProperties, toJSON,
// BigInt, undefined values, empty objects; a 4xx sent as a payload or thrown as an error. Values
// are made afresh per request (Dates, objects with toJSON), the same on both sides.
import type { Case, Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'
import type { Schema } from './schemas'

type Make = () => unknown

const DATE = (): Date => new Date(Date.UTC(2021, 2, 4, 5, 6, 7, 89))
const withToJSON = (v: unknown): object => ({ hidden: 'x', toJSON: () => v })

/** A schema and the values to send under it. */
const ENTRIES: Array<[Schema, Make[]]> = [
  [{ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a', 'b'] },
    [() => ({ a: 'x', b: 1 }), () => ({ a: 'x' }), () => ({ b: 2 }), () => ({ a: 'x', b: 2, extra: 3 }), () => ({})]],
  [{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'integer' } },
    [() => ({ a: 'x', n: '5', m: 2.7 }), () => ({ z: true, a: 1 }), () => ({ q: null })]],
  [{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
    [() => ({ a: 'x', n: { deep: [1, 'é'] } }), () => ({ b: null, c: DATE() })]],
  [{ type: 'object', properties: { s: { type: 'string', nullable: true }, n: { type: 'integer', nullable: true }, o: { type: 'object', nullable: true, properties: { k: { type: 'string' } } } } },
    [() => ({ s: null, n: null, o: null }), () => ({ s: 1, n: '2', o: { k: 3 } }), () => ({ s: undefined, n: 2.5 })]],
  [{ type: 'object', properties: { v: { type: ['string', 'null'] }, w: { type: ['integer', 'string'] }, x: { type: ['number', 'boolean'] } } },
    [() => ({ v: null, w: 'a', x: true }), () => ({ v: 5, w: 1.5, x: '2' }), () => ({ v: true, w: null, x: 'no' })]],
  [{ type: 'object', properties: { i: { type: 'integer' }, j: { type: 'integer' } } },
    [() => ({ i: 1.5, j: 2.5 }), () => ({ i: -1.5, j: 0.49999 }), () => ({ i: '3', j: '3.7' }), () => ({ i: 'x', j: true }), () => ({ i: 1e21, j: -0 }), () => ({ i: null, j: false })]],
  [{ type: 'object', properties: { n: { type: 'number' }, b: { type: 'boolean' }, s: { type: 'string' } } },
    [() => ({ n: '1.5', b: 'false', s: 12 }), () => ({ n: true, b: 0, s: false }), () => ({ n: 'x', b: '', s: null }), () => ({ s: { a: 1 } }), () => ({ s: [1, 2], b: 'true', n: '' }), () => ({ n: NaN, b: 1, s: 'é\u2028"' })]],
  [{ type: 'object', properties: { dt: { type: 'string', format: 'date-time' }, d: { type: 'string', format: 'date' }, t: { type: 'string', format: 'time' }, plain: { type: 'string' } } },
    [() => ({ dt: DATE(), d: DATE(), t: DATE(), plain: DATE() }), () => ({ dt: '2020-01-01', d: 'x', t: 5 }), () => ({ dt: new Date(NaN) })]],
  [{ type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } } }, grid: { type: 'array', items: { type: 'array', items: { type: 'number' } } } } },
    [() => ({ list: [{ id: 1, tags: ['a', 2] }, { id: '2', x: 1 }], grid: [[1, '2'], []] }), () => ({ list: [], grid: [[null]] }), () => ({ list: [null, {}] })]],
  [{ type: 'object', properties: { u: { anyOf: [{ type: 'integer' }, { type: 'string' }] }, o: { oneOf: [{ type: 'object', properties: { k: { type: 'string' } }, required: ['k'] }, { type: 'array', items: { type: 'integer' } }] } } },
    [() => ({ u: 1, o: { k: 'v', z: 1 } }), () => ({ u: 'x', o: [1, '2'] }), () => ({ u: 1.5, o: { z: 1 } }), () => ({ u: true, o: 'str' })]],
  [{ allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'integer' } }, required: ['b'] }] },
    [() => ({ a: 'x', b: 1, c: 2 }), () => ({ a: 1 }), () => ({ b: '2' })]],
  [{ type: 'object', properties: { p: { $ref: 'point#' }, id: { $ref: 'defs#/definitions/id' }, tag: { $ref: 'defs#/definitions/tag' } } },
    [() => ({ p: { x: 1, y: 2, z: 3 }, id: 2, tag: 'abc' }), () => ({ p: { y: 1 }, id: '7', tag: 5 }), () => ({ p: null })]],
  [{ $ref: 'point#' }, [() => ({ x: 1.7, y: '2' }), () => ({}), () => ({ x: 1, extra: true })]],
  [{ type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x': { type: 'integer' }, '^s_': { type: 'string' } }, additionalProperties: false },
    [() => ({ a: 'x', x1: '4', s_b: 5, other: 1 }), () => ({ xx: 2.5, s_: null })]],
  [{ type: 'object', properties: { a: { type: 'string' }, o: { type: 'object', properties: { k: { type: 'integer' } } } } },
    [() => ({ a: withToJSON('tj'), o: withToJSON({ k: 2, z: 1 }) }), () => withToJSON({ a: 'whole', b: 1 }), () => ({ a: undefined, o: undefined }), () => ({ o: {} })]],
  [{ type: 'object', properties: { i: { type: 'integer' }, n: { type: 'number' }, s: { type: 'string' } } },
    [() => ({ i: BigInt(10) }), () => ({ n: BigInt(2) ** BigInt(60) }), () => ({ s: BigInt(-3) })]],
  [{ type: 'array', items: { type: 'integer' } }, [() => [1.5, '2', null], () => [], () => [true]]],
  [{ type: 'string' }, [() => 'plain', () => 5, () => null]],
  [{ type: 'integer' }, [() => 2.5, () => '7', () => null]],
  [{ type: 'object', properties: {} }, [() => ({}), () => ({ a: 1 })]],
]

const ERROR_SCHEMA: Schema = { type: 'object', properties: { statusCode: { type: 'integer' }, code: { type: 'string' }, error: { type: 'string' }, message: { type: 'string' } } }

export interface SerialShape {
  status: number
  /** The key the drawn schema is under; `other`: a status this reply does not have. */
  key: string
  entry: number
  value: number
  /** A 4xx: sent as a payload, or thrown as an error (with extra properties). */
  error?: 'send' | 'throw'
  /** A second key: a `4xx` error schema beside it, or a `default` one. */
  beside?: '4xx' | 'default'
}

export function drawSerialShape(r: Random): SerialShape {
  const status = r.pick([200, 200, 201, 202, 400, 422])
  const entry = r.int(0, ENTRIES.length - 1)
  const value = r.int(0, (ENTRIES[entry] as [Schema, Make[]])[1].length - 1)
  const range = `${String(status)[0]}xx`
  const key = r.pick([String(status), String(status), range, range, 'default', 'other'])
  const shape: SerialShape = { status, key, entry, value }
  if (status >= 400) shape.error = r.pick(['send', 'throw'] as const)
  if (r.chance(0.3)) shape.beside = r.pick(['4xx', 'default'] as const)
  return shape
}

export function serialValue(shape: SerialShape): unknown {
  return (ENTRIES[shape.entry] as [Schema, Make[]])[1][shape.value]!()
}

export function serialSchema(shape: SerialShape): Schema {
  return structuredClone((ENTRIES[shape.entry] as [Schema, Make[]])[0])
}

export function serialResponse(shape: SerialShape): Record<string, Schema> {
  const key = shape.key === 'other' ? (shape.status >= 400 ? '409' : '299') : shape.key
  const response: Record<string, Schema> = { [key]: serialSchema(shape) }
  if (shape.beside !== undefined && response[shape.beside] === undefined) response[shape.beside] = structuredClone(ERROR_SCHEMA)
  return response
}

function handlerOf(shape: SerialShape): Handler {
  return async (_request, reply) => {
    if (shape.error === 'throw') {
      throw Object.assign(new Error('bad input'), { statusCode: shape.status, code: 'E_SER', extra: serialValue(shape) })
    }
    reply.code(shape.status)
    return serialValue(shape)
  }
}

export function serialRoute(shape: SerialShape): RouteSpec {
  return { method: 'GET', url: '/s', schema: { response: serialResponse(shape) }, handler: handlerOf(shape) }
}

export function serialRequest(): RequestSpec {
  return { method: 'GET', url: '/s' }
}

/** The schema Fastify 3 serializes this reply with (its code, else its range), for the fjs7 rule. */
export function fastifyPicks(shape: SerialShape): Case['response'] {
  if (shape.error === 'throw') return undefined
  const response = serialResponse(shape)
  const schema = response[String(shape.status)] ?? response[`${String(shape.status)[0]}xx`]
  return schema === undefined ? undefined : { status: shape.status, schema, value: () => serialValue(shape) }
}

export function describeSerialShape(shape: SerialShape): string {
  const value = ((): string => { try { return JSON.stringify(serialValue(shape), (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) } catch { return '(unwritable)' } })()
  return `status ${shape.status}${shape.error ? ` ${shape.error}` : ''} schema under '${shape.key}'${shape.beside ? ` + ${shape.beside}` : ''} value ${value}`
}
