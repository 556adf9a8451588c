import type { FromSchema, JSONSchema } from 'json-schema-to-ts'
import type { AsTypeBoxReadsIt, InlineClasses, SchemaClassInstance, TypeBoxSchema } from '../runtime/typed-schemas'
import type { JsonSchema } from '../runtime/schemas/types'
import { declarationError } from './declaration-error'
import { describeValue } from './module-options'
import { setSchemaClassPlacer } from '../runtime/internal'

const kSchemaClass = Symbol('enclave.schemaClass')

/**
 * The base class `SchemaClass(schema)` returns. Its instances have the schema's type; the class
 * carries the schema as `schema` (inherited by subclasses, as statics are).
 */
export interface SchemaClassBase<S extends object, T, Input = T> {
  /** Copies `data` onto a new instance; handy in tests and seeds, never needed by the framework. */
  new (data: Input): T & SchemaClassInstance<S>
  /** The JSON Schema, exactly as given: what ajv 6 and fast-json-stringify compile. */
  readonly schema: S
}

type JSONSchemaReference = JSONSchema & { readonly $id: string }
/** What another schema refers to with `$ref: '<$id>#...'`: a schema class, or an `as const` schema with `$id`. */
export type SchemaReference = { readonly schema: JSONSchemaReference } | JSONSchemaReference
type Refs<R extends readonly SchemaReference[]> =
  Extract<{ -readonly [K in keyof R]: R[K] extends { readonly schema: infer X } ? X : R[K] }, JSONSchemaReference[]>

/**
 * The schema as json-schema-to-ts reads it: a schema class nested where a subschema goes
 * (`properties: { owner: Owner }`, `items: Cat`) stands for its schema, as boot places it
 * (inlineSchemaClasses). Only a schema that is no JSON Schema as it is pays for the walk.
 */
type Readable<S> = S extends JSONSchema ? Closed<S> : InlineClasses<S> extends infer Y extends JSONSchema ? Y : never
type Closed<S extends JSONSchema> = AsTypeBoxReadsIt<S> extends infer Y extends JSONSchema ? Y : S
/** What a schema given to SchemaClass must be once its nested classes are read as their schemas. */
type ValidSchema<S> = S extends JSONSchema ? unknown : InlineClasses<S> extends JSONSchema ? unknown : JSONSchema

// A TypeBox 0.x schema carries its own type (TypeBox's Static): taken as it is, references included.
type InstanceOf<S, R extends readonly SchemaReference[]> = S extends TypeBoxSchema<infer T> ? T
  : FromSchema<Readable<S>, { references: Refs<R> }>
type InputOf<S, R extends readonly SchemaReference[]> = S extends TypeBoxSchema<infer T> ? T
  : FromSchema<Readable<S>, { references: Refs<R>; keepDefaultedPropertiesOptional: true }>

type IsUnion<T, All = T> = [T] extends [never] ? false : T extends unknown ? ([All] extends [T] ? false : true) : never
type IsUnionOf<T> = [IsUnion<T>] extends [false] ? false : true
/**
 * A class's instances have one type, never a union (TypeScript refuses `class X extends <union>`
 * with TS2509 and a page of the schema's type), so a schema whose type is one (`oneOf`/`anyOf`
 * branches, a discriminated union) is refused at the argument, with the way out as the message.
 */
type OneObjectType<T> = IsUnionOf<T> extends true
  ? { 'SchemaClass needs a schema of one object type; this one is a union (oneOf/anyOf): declare it `as const` and name its type SchemaType<typeof schema> (docs/schemas-and-types.md, "Discriminated unions")': never }
  : unknown
/** What the class's instances are: the schema's type, or `{}` where it is a union (refused at the argument instead). */
type Instance<T> = IsUnionOf<T> extends true ? object : T

export interface SchemaClassOptions<R extends readonly SchemaReference[]> {
  /**
   * Schemas this schema refers to by `$ref`, for the TypeScript type only (json-schema-to-ts cannot
   * see the module's shared schemas; an unlisted reference types as `never`, a `#name` anchor as
   * `unknown`; list what the referenced schemas refer to as well). At run time the referenced
   * schemas must be listed in the `schemas` of the module or an ancestor.
   */
  references?: R
}

/**
 * Declares a schema once, as a class that is at the same time a JSON Schema and the TypeScript
 * type of its instances (typed by json-schema-to-ts). Use the class:
 * - as a handler parameter type: `create(@Body() note: NewNote)` validates the body with it;
 * - in route options (`schema: { response: { 201: Note } }`), where the return type is checked;
 * - in a module's `schemas` list when it has an `$id`: it is then shared, and routes refer to it by `$id`.
 *
 * @example
 * export class NewNote extends SchemaClass({
 *   $id: 'newNote', type: 'object', required: ['title'], additionalProperties: false,
 *   properties: { title: { type: 'string', minLength: 1 }, tags: { type: 'array', items: { type: 'string' } } },
 * }) {}
 * const n: NewNote = { title: 'buy milk' }   // the class is the type
 * export class NoteList extends SchemaClass({ type: 'array', items: { $ref: 'note#' } }, { references: [Note] }) {}
 */
export function SchemaClass<const S extends object, const R extends readonly SchemaReference[] = []>(
  schema: S & NoInfer<ValidSchema<S>> & NoInfer<OneObjectType<InstanceOf<S, R>>>, options?: SchemaClassOptions<R>): SchemaClassBase<S, Instance<InstanceOf<S, R>>, InputOf<S, R>> {
  void options
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw declarationError('ENC_ERR_DECL_SCHEMA_CLASS', { got: describeValue(schema) })
  }
  class SchemaClassRoot {
    static readonly schema = schema
    static readonly [kSchemaClass] = true
    constructor(data?: object) {
      if (data !== undefined && data !== null) Object.assign(this, data)
    }
  }
  return SchemaClassRoot as never
}

/** Whether `value` is the base class SchemaClass() returned itself (not a subclass of it). */
export function isSchemaClassRoot(value: unknown): boolean {
  return typeof value === 'function' && Object.hasOwn(value, kSchemaClass)
}

/** Whether `value` is a class made by {@link SchemaClass} (or a subclass of one). */
export function isSchemaClass(value: unknown): value is Function & { readonly schema: JsonSchema } {
  return typeof value === 'function' && (value as unknown as Record<symbol, unknown>)[kSchemaClass] === true
}

/** The JSON Schema of a schema class, `undefined` for anything else. */
export function schemaOfClass(value: unknown): JsonSchema | undefined {
  return isSchemaClass(value) ? value.schema : undefined
}

/**
 * How a schema class appears inside a route schema: `{ $ref: '<$id>#' }` when it has an `$id`
 * (so it must be listed in the `schemas` of the module or an ancestor, like any shared schema),
 * else the schema itself, inlined.
 */
export function routeSchemaOfClass(value: Function & { readonly schema: JsonSchema }): JsonSchema {
  const id = value.schema.$id
  if (typeof id !== 'string' || id === '') return inlinedSchemaOfClass(value)
  const ref = { $ref: `${id}#` }
  refClasses.set(ref, value)
  return ref
}

/**
 * A class's schema with the schema classes nested in it (`items: Cat`, `properties: { owner: Owner }`)
 * placed as routeSchemaOfClass places a part's class; the schema itself when it nests none. This is
 * what ajv and fast-json-stringify compile for the class, as a route part or as a shared schema.
 */
export function inlinedSchemaOfClass(value: Function & { readonly schema: JsonSchema }): JsonSchema {
  let inlined = inlinedByClass.get(value)
  // (A class cannot nest itself: it does not exist yet while its schema literal is evaluated.)
  if (inlined === undefined) {
    inlined = inlineSchemaClasses(value.schema)
    inlinedByClass.set(value, inlined)
  }
  return inlined
}

const inlinedByClass = new WeakMap<Function, JsonSchema>()
// Keywords whose values are data, not subschemas: a function there is left to the schema compiler's own check.
const dataKeywords = new Set(['const', 'enum', 'default', 'examples', 'example'])

/**
 * `value` with every schema class found where a subschema goes replaced as routeSchemaOfClass places
 * it (a `$ref` to its `$id`, else its schema inlined). NestJS DTOs nest classes (`@ValidateNested()
 * @Type(() => Owner) owner: Owner`, `@ApiProperty({ type: [Cat] })`), so a schema class is accepted
 * wherever a schema is. Only what changes is copied: a schema without classes comes back as it is.
 */
export function inlineSchemaClasses<T>(value: T): T {
  if (isSchemaClass(value)) return routeSchemaOfClass(value) as T
  if (Array.isArray(value)) {
    const items = value.map((item) => inlineSchemaClasses(item))
    return (items.some((item, i) => item !== value[i]) ? items : value) as T
  }
  if (value === null || typeof value !== 'object') return value
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  let copy: Record<string, unknown> | undefined
  for (const [key, sub] of Object.entries(value)) {
    if (dataKeywords.has(key)) continue
    const inlined = inlineSchemaClasses(sub)
    if (inlined === sub) continue
    copy ??= { ...(value as Record<string, unknown>) }
    copy[key] = inlined
  }
  return (copy ?? value) as T
}

// The class behind each `{ $ref }` made above: boot errors about the reference name the class.
const refClasses = new WeakMap<object, Function & { readonly schema: JsonSchema }>()

/** The schema class a route schema part stands for when it is a class's `{ $ref }`. */
export function schemaClassOfRef(part: unknown): (Function & { readonly schema: JsonSchema }) | undefined {
  return part !== null && typeof part === 'object' ? refClasses.get(part) : undefined
}

// The runtime API (`app.post(path, { schema: { body: Cat.schema } })`) places nested classes as routes declared here do.
setSchemaClassPlacer(inlineSchemaClasses)
