import type { JsonSchema } from './types'

/**
 * How schema classes nested in a schema are placed (a `$ref` to the class's `$id`, else its schema
 * inlined). The decorator layer, which defines schema classes, sets it when it loads: the runtime
 * cannot import it (the decorators are built on the runtime), and without it no schema class exists.
 */
let placer: ((schema: JsonSchema) => JsonSchema) | null = null

export function setSchemaClassPlacer(place: (schema: JsonSchema) => JsonSchema): void {
  placer = place
}

// One placed copy per schema object: the same Pet.schema added in two scopes stays the same object
// (addSchema() takes the very same schema again in a descendant as already there).
const placedBy = new WeakMap<JsonSchema, JsonSchema>()

/** `schema` with its nested schema classes placed (itself when it nests none); as it is when no schema class was ever defined. */
export function placeSchemaClasses(schema: JsonSchema): JsonSchema {
  if (placer === null) return schema
  let placed = placedBy.get(schema)
  if (placed === undefined) {
    placed = placer(schema)
    placedBy.set(schema, placed)
  }
  return placed
}
