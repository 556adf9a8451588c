/**
 * `uniqueItems: true` in ajv 6 (and 8): items typed as a string, number, integer, boolean or null
 * are checked with a hash, in one pass; untyped items, objects and arrays are deep-compared pair
 * by pair, O(n²). Measured on Node 20 / ajv 6.12.6: 100,000 numbers in an untyped array (589 KB,
 * under the default 1 MiB bodyLimit) cost 6.4 s of CPU; 20,000 small objects (229 KB) 6 s. `maxItems`
 * bounds it (n² of maxItems), as does a tuple closed by `additionalItems: false`.
 * True when this schema node is such an array. `boundsStop` false (the validator's `allErrors: true`):
 * ajv then compares the pairs even after maxItems failed (20,000 small objects under maxItems 10: 4.7 s),
 * so neither maxItems nor a closed tuple bounds anything; only hashable items do.
 */
export function uniqueItemsUnbounded(node: Record<string, unknown>, boundsStop = true): boolean {
  return node.uniqueItems === true && !(boundsStop && typeof node.maxItems === 'number') && pairwise(node, boundsStop)
}

const hashable = new Set(['string', 'number', 'integer', 'boolean', 'null'])

function pairwise(node: Record<string, unknown>, boundsStop: boolean): boolean {
  const items = node.items
  if (Array.isArray(items)) return !(boundsStop && node.additionalItems === false)
  const type = typeof items === 'object' && items !== null ? (items as Record<string, unknown>).type : undefined
  if (typeof type === 'string') return !hashable.has(type)
  if (Array.isArray(type)) return type.length === 0 || type.some((t) => !hashable.has(t as string))
  return true
}
