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

/** `schema` with its nested schema classes placed; as it is when no schema class was ever defined. */
export function placeSchemaClasses(schema: JsonSchema): JsonSchema {
  return placer === null ? schema : placer(schema)
}
