import type { FromSchema, JSONSchema } from 'json-schema-to-ts'
import type { RouteSchemaAnnotations } from './schemas/types'

/*
 * Types only: how a route schema becomes the TypeScript types of a request's parts and of the
 * handler's answer (a "type provider", in Fastify's words). Built on json-schema-to-ts so that a
 * schema class (src/decorators/schema-class.ts) and an `as const` schema given to `app.post()`
 * go through one mechanism. Nothing here exists at run time.
 *
 * A schema TypeScript cannot read (a `$ref` to a shared schema, or an object literal without
 * `as const`, whose `type` widened to `string`) is "opaque": its part reads as it did before
 * typing existed (`unknown` / `Record<string, unknown>`) and accepts any declared parameter type,
 * so every untyped call site keeps compiling.
 */

/** Marks schema-class instances at the type level; never present at run time. */
export declare const schemaClassMark: unique symbol

/**
 * The instance side of a schema class: the schema's type plus an optional, type-only mark (the
 * same for every class, so a NewItem spreads into an Item as plain data would).
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface SchemaClassInstance<S = unknown> { readonly [schemaClassMark]?: true }

/** The static side of a schema class: constructible and carrying its JSON Schema. */
export interface SchemaClassType<S extends object = object, T = unknown> {
  new (...args: never[]): T
  readonly schema: S
}

/** A route schema part as the types see it: a JSON Schema object or a schema class. */
export type SchemaLike = object

declare const opaqueMark: unique symbol
/** Stands for a schema TypeScript cannot read. Resolved to a default by each use. */
export interface Opaque { readonly [opaqueMark]: true }

type IsLiteralType<T> = [T] extends [string] ? (string extends T ? false : true)
  : [T] extends [readonly string[]] ? (string extends T[number] ? false : true) : false

/** Whether `X` reads as a complete schema rather than shorthand (mirrors isCompleteSchema at run time). */
type IsComplete<X> = X extends { readonly type: string | readonly string[] } ? true
  : X extends { readonly $ref: string } ? true
  : X extends { readonly properties: object } ? true
  : X extends { readonly anyOf: unknown } | { readonly oneOf: unknown } | { readonly allOf: unknown } | { readonly not: unknown } ? true
  : X extends { readonly if: unknown } | { readonly enum: unknown } | { readonly const: unknown } ? true : false

type Readable<X> = X extends { readonly $ref: string } ? false
  : X extends { readonly type: infer T } ? IsLiteralType<T>
  : X extends { readonly properties: infer P } ? AllReadable<P>
  : X extends { readonly anyOf: readonly unknown[] } | { readonly oneOf: readonly unknown[] } | { readonly enum: readonly unknown[] } | { readonly const: unknown } ? true
  : false
type AllReadable<P> = false extends { [K in keyof P]: Readable<P[K]> }[keyof P] ? false : true

type Expanded<X> = { readonly type: 'object'; readonly properties: X }
type Shorthand<X> = Expanded<X> extends JSONSchema ? FromSchema<Expanded<X>> : Opaque

type IsAny<T> = 0 extends 1 & T ? true : false

/**
 * A TypeBox 0.x schema (`@sinclair/typebox`: `Type.Object(...)` and the rest): each carries its
 * TypeScript type in a phantom `static` property (never present at run time) next to `params`,
 * which is exactly what TypeBox's own `Static<T>` reads. Matched by shape, so Enclave needs no
 * TypeBox at all; a JSON Schema cannot match (its `params` would be a subschema, not an array).
 * TypeBox 1.x (`typebox`) has no phantom: its schema types are literal JSON Schema types, which
 * the json-schema-to-ts path below reads.
 */
export interface TypeBoxSchema<T = unknown> { readonly static: T; readonly params: readonly unknown[] }
/**
 * A TypeBox 1.x schema (`typebox`): an interface (so without the index signature a JSON Schema
 * record has) that names its kind in a non-enumerable `~kind` (invisible to the boot checks).
 */
export interface TypeBoxKinded { readonly '~kind': string }
/** Either TypeBox line's schema, accepted where a JSON Schema record is (addSchema, route parts). */
export type TypeBoxLike = TypeBoxSchema | TypeBoxKinded

/**
 * A Standard Schema (standardschema.dev: zod 3.24+/4, valibot, ArkType): no JSON Schema, so it
 * runs only under a validatorCompiler/serializerCompiler that reads it (fastify-type-provider-zod's),
 * but it types the part where it is written, as Fastify's type providers do: the handler reads the
 * schema's output type (what a zod compiler returns as `{ value }`, and what ZodTypeProvider types
 * for both directions). Matched by shape, so Enclave depends on none of these libraries.
 */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': { readonly version: 1; readonly vendor: string; readonly types?: { readonly output: Output } | undefined }
}
type StandardOutput<X> = X extends { readonly '~standard': { readonly types?: infer T } } ? (NonNullable<T> extends { readonly output: infer O } ? O : Opaque) : Opaque

/**
 * A schema with the schema classes nested in it (`items: Cat`) replaced by their schemas, as boot
 * places them (inlineSchemaClasses; one with `$id` becomes a `$ref` there, same shape). Only read
 * for a schema that is no JSON Schema as it is, so plain schemas never pay for the walk.
 */
export type InlineClasses<X> = X extends SchemaClassType<infer S> ? InlineClasses<S>
  : X extends (...args: never[]) => unknown ? X
  : X extends object ? { readonly [K in keyof X]: InlineClasses<X[K]> } : X
type FromInlined<X> = InlineClasses<X> extends infer Y ? (Y extends JSONSchema ? FromSchema<Y> : Opaque) : Opaque

/**
 * A typebox 1.x schema read as TypeBox's own Static types it: an object schema that says nothing
 * of `additionalProperties` has no index for other properties (json-schema-to-ts gives it
 * `[x: string]: unknown`, right for a JSON Schema, where they are allowed; TypeBox's types, as
 * 0.34's phantom ones, leave them out). Every other schema is left as it is, unwalked.
 */
export type AsTypeBoxReadsIt<X> = X extends TypeBoxKinded ? Closed<X> : X
type Closed<X> = X extends readonly unknown[] ? { readonly [K in keyof X]: Closed<X[K]> }
  : X extends object
    ? { readonly [K in keyof X]: Closed<X[K]> } & (X extends { readonly type: 'object' }
      ? ('additionalProperties' extends keyof X ? unknown : { readonly additionalProperties: false }) : unknown)
    : X
type FromJson<X extends JSONSchema> = X extends TypeBoxKinded
  ? (Closed<X> extends infer Y extends JSONSchema ? FromSchema<Y> : FromSchema<X>)
  : HoldsKinded<X> extends true ? (CloseKinded<X> extends infer Y extends JSONSchema ? FromSchema<Y> : FromSchema<X>) : FromSchema<X>
/**
 * typebox 1.x schemas nested in an `as const` one (`properties: { note: Type.Object(...) }`) are
 * read as TypeBox types them too, closed; the plain parts around them stay JSON Schema's. Only a
 * schema that holds one pays for the rewrite.
 */
type CloseKinded<X> = X extends TypeBoxKinded ? Closed<X>
  : X extends readonly unknown[] ? { readonly [K in keyof X]: CloseKinded<X[K]> }
  : X extends object ? { readonly [K in keyof X]: CloseKinded<X[K]> } : X
type HoldsKinded<X> = X extends TypeBoxKinded ? true
  : X extends object ? (true extends { [K in keyof X]-?: HoldsKinded<X[K]> }[keyof X] ? true : false) : false

/** The TypeScript type a schema part describes, or Opaque. */
export type SchemaType<X> = IsAny<X> extends true ? Opaque
  // First: a zod object also has a literal `type: 'object'`, which the JSON Schema reading below would take.
  : X extends StandardSchemaLike ? StandardOutput<X>
  : X extends TypeBoxSchema<infer T> ? T
  : X extends SchemaClassType<object, infer T> ? T
  : IsComplete<X> extends true
    ? (Readable<X> extends true ? (X extends JSONSchema ? FromJson<X> : FromInlined<X>) : Opaque)
    : X extends object
      ? (keyof X extends never ? Opaque : AllReadable<X> extends true ? Shorthand<X> : Opaque)
      : Opaque

/** The route option `schema` as the types read it (classes and `as const` objects in any part), with its annotations. */
export interface TypedRouteSchema extends RouteSchemaAnnotations {
  body?: SchemaLike
  querystring?: SchemaLike
  query?: SchemaLike
  params?: SchemaLike
  headers?: SchemaLike
  response?: { readonly [status: string | number]: SchemaLike }
}

/**
 * Each key of `S` that is no route schema part or annotation, typed `never`. A schema given as a
 * literal is inferred as the type parameter `S`, and inference keeps extra keys that an excess
 * property check would have refused (`securty` next to a `response`); intersected with this, the
 * misspelt key fails to compile, as it fails at boot (ENC_ERR_SCH_UNKNOWN_PART).
 */
export type NoUnknownSchemaKeys<S> = string extends keyof S
  // A schema typed with an index signature (Record<string, JsonSchema>) names no keys to check: left to the boot check.
  ? unknown
  : { [K in Exclude<keyof S, keyof TypedRouteSchema>]: never }

type PartSchema<S, K extends string> = IsAny<S> extends true ? any : S extends { readonly [P in K]: infer X } ? X : undefined
type PartOf<S, K extends string> = PartSchema<S, K> extends undefined ? undefined : SchemaType<PartSchema<S, K>>
type QueryPart<S> = PartSchema<S, 'querystring'> extends undefined ? PartOf<S, 'query'> : PartOf<S, 'querystring'>

/**
 * Header names arrive lowercased and a headers schema's names are matched so (Fastify's rule:
 * `required: ['X-Api-Version']` passes for `x-api-version`), so the part has the lowercase keys.
 */
type LowercaseKeys<T> = T extends Opaque ? T
  : T extends object ? { [K in keyof T as K extends string ? (string extends K ? K : Lowercase<K>) : K]: T[K] } : T

/** Each request part's type: the schema's type, Opaque, or `undefined` when the route has no schema for it. */
export interface RouteParts<S> {
  body: PartOf<S, 'body'>
  query: QueryPart<S>
  params: PartOf<S, 'params'>
  headers: LowercaseKeys<PartOf<S, 'headers'>>
}

/** True when at least one request part has a schema TypeScript can read. */
export type HasTypedParts<S> = { [K in keyof RouteParts<S>]: RouteParts<S>[K] extends Opaque ? never : [RouteParts<S>[K]] extends [undefined] ? never : K }[keyof RouteParts<S>] extends never ? false : true

type ResponseSchemas<S> = IsAny<S> extends true ? { default: any } : S extends { readonly response: infer R } ? R : undefined
/**
 * What the handler may answer: the union of the declared response schemas' types, or `unknown`
 * when no response schema is declared or one of them is opaque (an unreadable schema accepts anything).
 */
export type ResponseOf<S> = ResponseSchemas<S> extends undefined ? unknown
  : ResponseSchemas<S> extends object
    ? (ResponseTypes<S>[keyof ResponseSchemas<S>] extends infer U
      ? (Opaque extends U ? unknown : [U] extends [never] ? unknown : U) : unknown)
    : unknown
/** Each declared response status's type (the map ResponseOf takes the union of); read only once ResponseOf is known. */
export type ResponseTypes<S> = { [K in keyof ResponseSchemas<S>]: SchemaType<ResponseSchemas<S>[K]> }
