import type { OpenApiDocument } from '../../shared/openapi-types'

const PREFIX = '#/components/schemas/'

/**
 * Moves each component's `definitions` / `$defs` entries into components of their own
 * (`catalog` + `tag` -> `catalog.tag`) and repoints every `$ref` of the document at them.
 * A pointer into `definitions` is valid OpenAPI, but client generators (openapi-typescript)
 * read a component's members as its properties and cannot follow it.
 */
export function hoistDefinitions(document: OpenApiDocument): void {
  const schemas = document.components.schemas
  const moved = new Map<string, string>()
  for (const name of Object.keys(schemas)) {
    const schema = schemas[name]
    for (const keyword of ['definitions', '$defs']) {
      const defs = schema[keyword]
      if (defs === null || typeof defs !== 'object' || Array.isArray(defs)) continue
      for (const [def, sub] of Object.entries(defs as Record<string, Record<string, unknown>>)) {
        let target = `${name}.${def.replace(/[^A-Za-z0-9._-]+/g, '_')}`
        for (let i = 2; target in schemas; i++) target = `${name}.${def}_${i}`
        schemas[target] = sub
        moved.set(`${PREFIX}${name}/${keyword}/${def}`, `${PREFIX}${target}`)
      }
      delete schema[keyword]
    }
  }
  if (moved.size > 0) repoint(document, moved)
}

function repoint(node: unknown, moved: ReadonlyMap<string, string>): void {
  if (Array.isArray(node)) { for (const item of node) repoint(item, moved); return }
  if (node === null || typeof node !== 'object') return
  const record = node as Record<string, unknown>
  if (typeof record.$ref === 'string') {
    for (const [from, to] of moved) {
      if (record.$ref === from || record.$ref.startsWith(`${from}/`)) { record.$ref = to + record.$ref.slice(from.length); break }
    }
  }
  for (const value of Object.values(record)) repoint(value, moved)
}
