import type { JsonSchema } from '../runtime/schemas/types'

/**
 * Copies a schema for the OpenAPI document: every `$ref` becomes a JSON pointer into
 * `#/components/schemas` (`note#` -> `#/components/schemas/note`, `catalog#/definitions/price` ->
 * `#/components/schemas/catalog/definitions/price`, `catalog#sku` -> the pointer of the subschema
 * whose `$id` is `#sku`), and `$id`s are dropped (the pointers replace them). `self` is the
 * component the schema becomes (or whose part it is: `root`), for its local `#/...` and `#name` references.
 */
export function toDocumentSchema(schema: unknown, self: string, components: Readonly<Record<string, JsonSchema>>, root: unknown = schema): unknown {
  return copy(schema, self, root, components)
}

function copy(value: unknown, self: string, root: unknown, components: Readonly<Record<string, JsonSchema>>): unknown {
  if (Array.isArray(value)) return value.map((v) => copy(v, self, root, components))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    if (key === '$id') continue
    out[key] = key === '$ref' && typeof v === 'string' ? pointerOf(v, self, root, components) : copy(v, self, root, components)
  }
  return out
}

function pointerOf(ref: string, self: string, root: unknown, components: Readonly<Record<string, JsonSchema>>): string {
  const hash = ref.indexOf('#')
  const id = hash === -1 ? ref : ref.slice(0, hash)
  const fragment = hash === -1 ? '' : ref.slice(hash + 1)
  const base = id === '' ? self : `#/components/schemas/${escape(id)}`
  const target = id === '' ? root : components[id]
  if (fragment === '' || fragment.startsWith('/')) return base + fragment
  // `#name`: the subschema carrying `$id: '#name'`.
  const found = findAnchor(target, `#${fragment}`, '')
  return found === null ? base : base + found
}

function findAnchor(value: unknown, anchor: string, at: string): string | null {
  if (value === null || typeof value !== 'object') return null
  if (!Array.isArray(value) && (value as Record<string, unknown>).$id === anchor && at !== '') return at
  for (const [key, v] of Object.entries(value)) {
    const found = findAnchor(v, anchor, `${at}/${escape(key)}`)
    if (found !== null) return found
  }
  return null
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1')
}
