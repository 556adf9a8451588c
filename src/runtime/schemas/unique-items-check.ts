import { visitSchemas } from './schema-walk'

/**
 * `uniqueItems: true` in ajv 6 (and 8): items typed as a string, number, integer, boolean or null
 * are checked with a hash, in one pass; untyped items, objects and arrays are deep-compared pair
 * by pair, O(n²). Measured on Node 20 / ajv 6.12.6: 100,000 numbers in an untyped array (589 KB,
 * under the default 1 MiB bodyLimit) cost 6.4 s of CPU; 20,000 small objects (229 KB) 6 s. `maxItems`
 * bounds it (n² of maxItems), as does a tuple closed by `additionalItems: false`.
 * Returns the JSON pointers (within `schema`) of the arrays at risk.
 */
export function unboundedUniqueItems(schema: unknown, resolveRef: (ref: string) => unknown): string[] {
  const found: string[] = []
  const followed = new Set<unknown>()
  const visit = (root: unknown, prefix: string): void => {
    visitSchemas(root, (node, pointer) => {
      if (node.uniqueItems === true && typeof node.maxItems !== 'number' && pairwise(node)) found.push(prefix + pointer())
      if (typeof node.$ref === 'string') {
        // A shared schema (addSchema) reached by its id: checked where it is used, for requests.
        const target = resolveRef(node.$ref)
        if (target !== undefined && !followed.has(target)) { followed.add(target); visit(target, node.$ref) }
      }
    })
  }
  visit(schema, '')
  return found
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
