import { isIntegerKey } from './status-keys'

/**
 * `Object.fromEntries`, for objects keyed by status codes (`'200'`), without their hidden cost.
 *
 * V8 keeps integer-like keys in an element store, and an object built key by key grows that
 * store to fit the index plus half again: `o['200'] = x` reserves about 317 slots, 2.6 KB. Every
 * route with a response schema kept one such object (the normalized `response`) and threw away
 * another; over 1,000 routes that was 2.6 MB of heap and as much again for the GC to sweep
 * (issue 16). An object from JSON.parse gets a store sized to its keys, so the keys are laid out
 * that way first and the values assigned after: same keys, same order, same values.
 */
export function compactRecord<T>(entries: ReadonlyArray<readonly [string, T]>): Record<string, T> {
  // One status key (most routes): its text needs no escaping, and the general path's closures,
  // arrays and strings cost 1.1 KB a route.
  if (entries.length === 1 && isIntegerKey(entries[0][0])) {
    const record = JSON.parse(`{"${entries[0][0]}":0}`) as Record<string, T>
    record[entries[0][0]] = entries[0][1]
    return record
  }
  // `__proto__` would set the prototype on assignment; no status key spells it, but stay exact.
  if (!entries.some(([key]) => isIntegerKey(key)) || entries.some(([key]) => key === '__proto__')) return Object.fromEntries(entries) as Record<string, T>
  const record = JSON.parse(`{${entries.map(([key]) => `${JSON.stringify(key)}:0`).join(',')}}`) as Record<string, T>
  for (const [key, value] of entries) record[key] = value
  return record
}
