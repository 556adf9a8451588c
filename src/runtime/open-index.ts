/*
 * Types only. A response schema that does not say `additionalProperties: false` reads as an open
 * object (`{ [x: string]: unknown; id?: string }`, json-schema-to-ts's reading of JSON Schema's
 * default). An `interface` has no implicit index signature, so a handler returning an entity
 * typed by an interface (`interface StoredFile { id: string; path: string }`, the usual NestJS
 * entity) would not fit that schema, while the same shape declared with `type` does. The
 * serializer writes only the properties the schema names, so what else the value carries is
 * never sent: the return checks also accept the schema's type without its `unknown` string index,
 * at every depth (a typed index, from `additionalProperties: { ... }`, is kept: those properties
 * are written).
 */
export type WithoutOpenIndex<T> = T extends readonly unknown[] ? { [K in keyof T]: WithoutOpenIndex<T[K]> }
  : T extends (...args: never[]) => unknown ? T
  : T extends object ? NonEmpty<{ [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: WithoutOpenIndex<T[K]> }>
  : T

/**
 * What a handler may return or `reply.send()` take for a response type `T`: `T` itself (an object
 * literal with more properties fits its open index), or `T` without that index (an interface).
 * A type with no open index stays itself, so a closed schema's message names it once.
 */
export type OrWithoutOpenIndex<T> = T extends unknown ? (Same<T, WithoutOpenIndex<T>> extends true ? T : T | WithoutOpenIndex<T>) : never
// Identical, not mutually assignable: an open object and the same without its index are that.
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends (<X>() => X extends B ? 1 : 2) ? true : false
/** Each status's response type, as {@link OrWithoutOpenIndex}: what `reply.code(c).send()` takes. */
export type EachWithoutOpenIndex<M> = { [K in keyof M]: OrWithoutOpenIndex<M[K]> }
/**
 * An open schema that names no property (`{ type: 'object' }`) leaves `{}` once its index is gone,
 * which a string, a number or an array would fit: it stays an object that is not a list (the
 * index had refused those; a schema naming properties refuses them by its properties).
 */
type NonEmpty<M> = [keyof M] extends [never] ? PlainObject : M
/**
 * An object that is not iterable (arrays, Map, Set are not what `type: 'object'` serializes), nor a
 * function (JSON has none: fast-json-stringify writes `{}` or drops it) nor a Date (a string once
 * serialized, refused by `type: 'object'` schemas in the runtime's own reading).
 */
type PlainObject = object & { readonly [Symbol.iterator]?: never; readonly apply?: never; readonly getTime?: never }
