// Request and reply values drawn from a schema: mostly ones the schema accepts, the rest from a
// pool of the inputs that tell validators and serializers apart (wrong types, empty strings,
// huge numbers, unicode, lookalike numbers).
import type { Random } from './random'
import type { Schema } from './schemas'

/** Inputs that break assumptions; JSON-able, so they work as bodies and as reply values. */
export const ODD_VALUES: unknown[] = [
  '', ' ', '0', '1', '-1', '1.5', '1e3', '007', 'abc', 'true', 'false', 'null', 'é', '💥x', 'a\u0000b',
  '99999999999999999999', '2020-01-01', '2020-01-01T10:00:00Z', 'a@b.co', '12:30:00',
  0, -0, 1, -7, 1.5, 2 ** 53 + 2, 1e21, 1e-7, true, false, null, [], {}, [1, '1'], { a: 1 }, { x: '3' },
]

/** Query and header text that tells coercion rules apart. */
export const ODD_STRINGS = ODD_VALUES.filter((v): v is string => typeof v === 'string').concat(['+1', '0x10', '1,2', 'TRUE', '%', 'a b', '\u00e9\u00e8'])

const STRINGS = ['a', 'hello', 'ab', 'x1', 'Ünïcödé', '2020-01-01', '550e8400-e29b-41d4-a716-446655440000', 'http://a.b/c']

/** A value `schema` probably accepts (a plausible client). */
export function plausible(r: Random, schema: Schema, depth = 0): unknown {
  if (Array.isArray(schema.enum)) return r.pick(schema.enum)
  if ('const' in schema) return schema.const
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (branches) return plausible(r, r.pick(branches), depth)
  if (typeof schema.$ref === 'string') {
    if (schema.$ref === 'point#') return r.chance(0.7) ? { x: r.int(-3, 3), ...(r.chance(0.5) ? { y: r.int(0, 3) } : {}) } : { y: 1 }
    if (schema.$ref.endsWith('/id')) return r.int(0, 5)
    if (schema.$ref.endsWith('/tag')) return r.pick(STRINGS)
    return r.chance(0.5)
  }
  const type = Array.isArray(schema.type) ? r.pick(schema.type as string[]) : schema.type
  switch (type) {
    case 'string': return r.pick(STRINGS)
    case 'integer': return r.int(-3, 120)
    case 'number': return r.pick([0.5, 2, 3.25, 10, -1])
    case 'boolean': return r.chance(0.5)
    case 'null': return null
    case 'array': return depth > 3 ? [] : Array.from({ length: r.int(0, 3) }, () => plausible(r, (schema.items ?? {}) as Schema, depth + 1))
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [name, member] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        if (r.chance(0.75)) out[name] = depth > 3 ? null : plausible(r, member, depth + 1)
      }
      return out
    }
    default: return r.pick(ODD_VALUES)
  }
}

/** A value for `schema`: plausible, or (with probability `oddness`) mutated somewhere. */
export function value(r: Random, schema: Schema, oddness: number): unknown {
  const base = plausible(r, schema)
  if (!r.chance(oddness)) return base
  if (base !== null && typeof base === 'object' && !Array.isArray(base) && r.chance(0.6)) {
    const copy: Record<string, unknown> = { ...(base as Record<string, unknown>) }
    const names = Object.keys(copy)
    const roll = r.int(0, 2)
    if (roll === 0 && names.length > 0) delete copy[r.pick(names)]
    else if (roll === 1) copy[r.pick(['extra', 'x1', 'zz'])] = r.pick(ODD_VALUES)
    else copy[names.length > 0 ? r.pick(names) : 'a'] = r.pick(ODD_VALUES)
    return copy
  }
  return r.pick(ODD_VALUES)
}

/** Text for a query string or header value: as a client would type it. */
export function text(r: Random, schema: Schema, oddness: number): string {
  if (r.chance(oddness)) return r.pick(ODD_STRINGS)
  const v = plausible(r, schema)
  return v === null ? r.pick(['', 'null']) : typeof v === 'object' ? JSON.stringify(v) : String(v)
}
