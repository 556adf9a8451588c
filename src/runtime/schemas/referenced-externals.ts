import type { SharedSchema } from './types'

/**
 * The shared schemas a schema can reach through `$ref`, directly or through other shared schemas:
 * what fast-json-stringify needs of the scope's shared schemas to build its serializer.
 * fast-json-stringify 7 checks every schema of its `schema` option on every build (two depth
 * walks, a meta-schema validation and an id index each), so a response schema in a scope with
 * 20 shared schemas paid for 20 of them when it refers to one (issue 16 §1).
 *
 * Over-inclusive on purpose: any string under a `$ref` key counts, wherever it sits (inside a
 * `default` too). It gives up and returns `external` itself, unchanged, when a `$ref` names a base
 * that is not one of the keys (a nested `$id`, a relative URI) or when a shared schema's `$id`
 * differs from its key: then only fast-json-stringify can tell what resolves, as it did before.
 */
export function referencedExternals(schema: unknown, external: Readonly<Record<string, SharedSchema>>): Readonly<Record<string, SharedSchema>> {
  const ids = Object.keys(external)
  if (ids.length === 0) return external
  for (const id of ids) {
    const own = (external[id] as { $id?: unknown }).$id
    if (own !== undefined && own !== id) return external
  }
  const picked: Record<string, SharedSchema> = {}
  const seen = new Set<object>()
  const pending: unknown[] = [schema]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== 'object' || node === null || seen.has(node)) continue
    seen.add(node)
    if (Array.isArray(node)) {
      for (const item of node) pending.push(item)
      continue
    }
    const record = node as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const value = record[key]
      if (key === '$ref' && typeof value === 'string') {
        const hash = value.indexOf('#')
        const base = hash === -1 ? value : value.slice(0, hash)
        if (base === '' || Object.prototype.hasOwnProperty.call(picked, base)) continue
        if (!Object.prototype.hasOwnProperty.call(external, base)) return external
        picked[base] = external[base]
        pending.push(external[base])
      } else if (typeof value === 'object' && value !== null) {
        pending.push(value)
      }
    }
  }
  return picked
}
