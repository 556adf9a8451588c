import { declarationError } from './declaration-error'
import { describeValue } from './module-options'

type SchemaOf<X> = X extends { readonly schema: infer S } ? S : X
type WithoutDefault<P> = { [K in keyof P]: P[K] extends object ? Omit<P[K], 'default'> : P[K] }

/**
 * An object schema with every property optional and no top-level `default`s, without `$id`
 * (it is a new shape, not the shared one): what `partialSchema()` returns, typed from the source.
 */
export type PartialSchema<S> = {
  [K in keyof S as K extends 'required' | '$id' ? never : K]: K extends 'properties' ? WithoutDefault<S[K]> : S[K]
}

/**
 * NestJS's `PartialType(CreateBookDto)` for schema classes: the same object schema with no
 * `required`, so a PATCH body may carry any subset of the fields, each still validated as in the
 * source. Top-level `default`s are dropped too: ajv would otherwise fill them into every partial
 * update (`tags: []` overwriting the stored tags). `$id` is dropped: the result is another shape.
 *
 * @example
 * class UpdateBook extends SchemaClass(partialSchema(CreateBook)) {}
 * class PatchBook extends SchemaClass({ ...partialSchema(CreateBook), minProperties: 1 }) {}   // not empty
 */
export function partialSchema<const X extends object>(source: X): PartialSchema<SchemaOf<X>> {
  const schema = (typeof source === 'function' ? (source as { schema?: unknown }).schema : source) as Record<string, unknown> | undefined
  const properties = schema?.properties
  if (schema === null || typeof schema !== 'object' || properties === null || typeof properties !== 'object' || Array.isArray(properties)) {
    throw declarationError('ENC_ERR_DECL_SCHEMA_CLASS', { case: 'partial', got: describeValue(source) })
  }
  const { required: _required, $id: _id, ...rest } = schema
  const optional: Record<string, unknown> = {}
  for (const [name, property] of Object.entries(properties)) {
    if (property === null || typeof property !== 'object') { optional[name] = property; continue }
    const { default: _default, ...kept } = property as Record<string, unknown>
    optional[name] = kept
  }
  return { ...rest, properties: optional } as never
}
