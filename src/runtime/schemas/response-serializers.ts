import type { SerializeFunction } from './types'

/**
 * The compiled response serializers of one route, laid out for a lookup that allocates nothing and
 * builds no strings: exact codes in a Map, then one slot per hundred (each already holding the range
 * serializer, else `default`), then `default` for codes outside 0-999.
 */
export interface ResponseSerializers {
  /** Exact status codes; null when the schema has none. */
  readonly exact: ReadonlyMap<number, SerializeFunction> | null
  /** Index `Math.floor(status / 100)`: the `Nxx` serializer, else `default`, else null. */
  readonly byHundred: readonly (SerializeFunction | null)[]
  readonly fallback: SerializeFunction | null
  /** The response keys as declared (normalized), for diagnostics. */
  readonly keys: readonly string[]
}

/**
 * Builds the lookup tables from serializers keyed `'200'`, `'2xx'` (lower case) or `'default'`,
 * given as entries (an object keyed `'200'` would cost a 2.6 KB element store: compact-record.ts).
 */
export function createResponseSerializers(entries: ReadonlyArray<readonly [string, SerializeFunction]>): ResponseSerializers {
  const byKey = new Map(entries)
  const keys = [...byKey.keys()]
  const fallback = byKey.get('default') ?? null
  let exact: Map<number, SerializeFunction> | null = null
  const byHundred: (SerializeFunction | null)[] = []
  for (let hundred = 0; hundred < 10; hundred++) byHundred.push(byKey.get(`${hundred}xx`) ?? fallback)
  for (const [key, fn] of byKey) {
    if (!/^\d+$/.test(key)) continue
    exact ??= new Map()
    exact.set(Number(key), fn)
  }
  return { exact, byHundred, fallback, keys }
}

/**
 * The serializer for a status code (spec §3.1.5): the exact code, else its range key (`2xx`), else
 * `default`, else null (the runtime then uses JSON.stringify).
 *
 * @example
 * const serialize = pickSerializer(route.response, reply.statusCode)
 * const text = serialize === null ? JSON.stringify(payload) : serialize(payload)
 */
export function pickSerializer(serializers: ResponseSerializers, statusCode: number): SerializeFunction | null {
  if (serializers.exact !== null) {
    const fn = serializers.exact.get(statusCode)
    if (fn !== undefined) return fn
  }
  const hundred = (statusCode / 100) | 0
  return hundred >= 0 && hundred < 10 ? serializers.byHundred[hundred] : serializers.fallback
}
