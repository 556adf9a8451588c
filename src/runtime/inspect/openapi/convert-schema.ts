import type { JsonSchema } from '../../schemas/types'

/** Maps a `$ref`'s schema id to its component (name and the shared schema), or undefined when it cannot place it. */
export type RefResolver = (id: string) => { readonly name: string; readonly schema: JsonSchema } | undefined

// Keywords whose value is a map of name -> schema: the map itself is not a schema (a property may be named `$ref`).
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'])
// Keywords whose value is data, copied as is.
const LITERALS = new Set(['enum', 'const', 'default', 'examples', 'example', 'required'])

/**
 * A route or shared schema (JSON Schema draft-07, as ajv 6 reads it) as an OpenAPI 3.1 Schema
 * Object (JSON Schema 2020-12): `{ $ref: 'user#' }` becomes `#/components/schemas/user`,
 * fragments are kept (`user#/properties/name`), local `#/...` references point into the
 * component (`componentPath`) or are inlined for route schemas, `$id` is dropped (the component
 * key carries it), and ajv's `nullable: true` becomes a `null` type.
 */
export function convertSchema(schema: JsonSchema, options: { resolve: RefResolver; componentPath: string | null }): JsonSchema {
  return convert(schema, schema, options, 0) as JsonSchema
}

function convert(node: unknown, root: JsonSchema, options: { resolve: RefResolver; componentPath: string | null }, depth: number): unknown {
  if (Array.isArray(node)) return node.map((item) => convert(item, root, options, depth))
  if (node === null || typeof node !== 'object') return node
  const source = node as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(source)) {
    if (key === '$id' || key === 'nullable') continue
    if (key === '$ref' && typeof value === 'string') {
      if (!value.startsWith('#')) {
        out.$ref = reference(value, options.resolve)
        continue
      }
      const pointer = toPointer(value.slice(1), root)
      // An anchor no subschema carries cannot be placed: left as written (ajv refused it at boot anyway).
      if (pointer === null) out.$ref = value
      else if (options.componentPath === null) return inlineLocal(pointer, source, root, options, depth)
      else out.$ref = `${options.componentPath}${pointer}`
    } else if (LITERALS.has(key)) {
      out[key] = value
    } else if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, convert(sub, root, options, depth)]))
    } else {
      out[key] = convert(value, root, options, depth)
    }
  }
  if (source.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null']
  return out
}

function reference(ref: string, resolve: RefResolver): string {
  const hash = ref.indexOf('#')
  const id = hash === -1 ? ref : ref.slice(0, hash)
  const target = resolve(id)
  if (target === undefined) return ref
  const pointer = toPointer(hash === -1 ? '' : ref.slice(hash + 1), target.schema)
  return pointer === null ? ref : `#/components/schemas/${target.name}${pointer}`
}

/**
 * A fragment as a JSON pointer: `/properties/x` as is, `''` or `/` for the root, and a plain
 * name (`sku`, draft-07's `{ $id: '#sku' }` anchor) as the pointer to the subschema carrying it,
 * since 2020-12 has no `$id` anchors. Null when no subschema has that name.
 */
function toPointer(fragment: string, root: JsonSchema): string | null {
  if (fragment === '' || fragment === '/') return ''
  if (fragment.startsWith('/')) return fragment
  return findAnchor(root, fragment, '', 0)
}

function findAnchor(node: unknown, name: string, path: string, depth: number): string | null {
  if (node === null || typeof node !== 'object' || depth > 32) return null
  const record = node as Record<string, unknown>
  if (depth > 0 && (record.$id === `#${name}` || record.$anchor === name)) return path
  for (const [key, value] of Object.entries(record)) {
    if (LITERALS.has(key)) continue
    const found = findAnchor(value, name, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1)
    if (found !== null) return found
  }
  return null
}

/** A route schema has no place in the document to point into: a local reference is replaced by its target. */
function inlineLocal(pointer: string, source: Record<string, unknown>, root: JsonSchema, options: { resolve: RefResolver; componentPath: string | null }, depth: number): unknown {
  let target: unknown = root
  for (const token of pointer.split('/').filter((t) => t !== '')) {
    target = target !== null && typeof target === 'object' ? (target as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
  }
  // A recursive local reference cannot be inlined: left as an open schema rather than looping.
  if (target === undefined || depth > 16) return {}
  const rest = { ...source }
  delete rest.$ref
  const inlined = convert(target, root, options, depth + 1) as Record<string, unknown>
  return Object.keys(rest).length === 0 ? inlined : { ...convert(rest, root, options, depth) as object, allOf: [inlined] }
}
