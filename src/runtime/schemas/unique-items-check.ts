/**
 * `uniqueItems: true` in ajv 6 (and 8): items typed as a string, number, integer, boolean or null
 * are checked with a hash, in one pass; untyped items, objects and arrays are deep-compared pair
 * by pair, O(n²). Measured on Node 20 / ajv 6.12.6: 100,000 numbers in an untyped array (589 KB,
 * under the default 1 MiB bodyLimit) cost 6.4 s of CPU; 20,000 small objects (229 KB) 6 s. `maxItems`
 * bounds it (n² of maxItems), as does a tuple closed by `additionalItems: false`.
 * True when this schema node is such an array.
 */
export function uniqueItemsUnbounded(node: Record<string, unknown>): boolean {
  return node.uniqueItems === true && typeof node.maxItems !== 'number' && pairwise(node)
}

const hashable = new Set(['string', 'number', 'integer', 'boolean', 'null'])

function pairwise(node: Record<string, unknown>): boolean {
  const items = node.items
  if (Array.isArray(items)) return node.additionalItems !== false
  const type = typeof items === 'object' && items !== null ? (items as Record<string, unknown>).type : undefined
  if (typeof type === 'string') return !hashable.has(type)
  if (Array.isArray(type)) return type.length === 0 || type.some((t) => !hashable.has(t as string))
  return true
}
