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

/** `byHundred` of a route with no range or `default` key (most routes): one shared, frozen table. */
const NO_RANGES: readonly (SerializeFunction | null)[] = Object.freeze([null, null, null, null, null, null, null, null, null, null])

/**
 * Builds the lookup tables from serializers keyed `'200'`, `'2xx'` (lower case) or `'default'`,
 * given as entries (an object keyed `'200'` would cost a 2.6 KB element store: compact-record.ts).
 * Every route with a response schema builds one at boot, so the keys are read with character
 * tests rather than a regular expression and a lookup per hundred.
 */
export function createResponseSerializers(entries: ReadonlyArray<readonly [string, SerializeFunction]>): ResponseSerializers {
  const keys: string[] = []
  let fallback: SerializeFunction | null = null
  let exact: Map<number, SerializeFunction> | null = null
  let ranges: (SerializeFunction | undefined)[] | null = null
  // A key given twice keeps its first place and its last function, as a Map built from the entries would.
  for (const [key, fn] of entries) {
    if (!keys.includes(key)) keys.push(key)
    if (key === 'default') fallback = fn
    else if (isDigits(key)) (exact ??= new Map()).set(Number(key), fn)
    else if (key.length === 3 && key.endsWith('xx') && isDigits(key[0])) (ranges ??= [])[Number(key[0])] = fn
  }
  let byHundred = NO_RANGES
  if (ranges !== null || fallback !== null) {
    const table: (SerializeFunction | null)[] = []
    for (let hundred = 0; hundred < 10; hundred++) table.push(ranges?.[hundred] ?? fallback)
    byHundred = table
  }
  // Kept by every route for the life of the server: at its exact length (push() left 17 slots).
  return { exact, byHundred, fallback, keys: keys.slice() }
}

function isDigits(key: string): boolean {
  if (key.length === 0) return false
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i)
    if (code < 48 || code > 57) return false
  }
  return true
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
