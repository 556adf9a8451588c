import type { JsonSchema } from './schemas/types'
import type { Opaque, SchemaType } from './typed-schemas'

/*
 * Types of Fastify 4/5's request, reply and scope methods beyond Fastify 3's (the runtime is in
 * fastify-api/ and declare/route-lookup.ts). In a file of their own so that types.ts only names
 * them in its `extends` clauses.
 */

/** A request part Fastify names: `query` is another name for `querystring`. */
export type FastifyHttpPart = 'body' | 'headers' | 'querystring' | 'query' | 'params'

/**
 * One failure as ajv reports it (Fastify's FastifySchemaValidationError): the default validator
 * (ajv 6) names the place in `dataPath`, an ajv 8 validator compiler in `instancePath`.
 */
export interface ValidationIssue {
  keyword: string
  dataPath?: string
  instancePath?: string
  schemaPath: string
  params: Record<string, unknown>
  message?: string
}

/**
 * A validation function as Fastify hands it out: ajv's shape, true or false with `errors`. A custom
 * validator compiler's Error is the one item of `errors`, so an item is an issue or an Error (both
 * have `message`; `'keyword' in item` tells them apart). `T`: the type its schema describes, when
 * TypeScript can read it (TypeBox, `as const`, a schema class): `true` narrows the input to it, as
 * ajv's `ValidateFunction<T>` does; `unknown` (no narrowing) otherwise, and for a route's own part.
 */
export interface ValidationFunction<T = unknown> {
  (data: unknown): data is T
  errors?: Array<ValidationIssue | Error> | null
}

/** What a schema given to compileValidationSchema() validates: its type, or `unknown` where it cannot be read. */
export type ValidatedBy<S> = SchemaType<S> extends Opaque ? unknown : SchemaType<S>

/** A serialization function: the payload as JSON text. */
export type SerializationFunction = (data: unknown) => string

/** Fastify 4/5's schema methods of the request (docs/fastify-compat.md, "Coming from Fastify 4 or 5"). */
export interface RequestSchemaApi {
  /**
   * The route's own validator for a part (as the route applies it: true, or false with `errors`),
   * or the function compileValidationSchema() made for this schema object; undefined when none.
   */
  getValidationFunction(httpPart: FastifyHttpPart): ValidationFunction | undefined
  getValidationFunction<const S extends JsonSchema>(schema: S): ValidationFunction<ValidatedBy<NoInfer<S>>> | undefined
  /**
   * Compiles a schema with the route's validator compiler (its ajv, options and shared schemas), once
   * per schema object. Given the schema alone, the function is a type guard for what it describes.
   */
  // NoInfer: an annotated result (`const f: ValidationFunction = ...`) does not infer `S` back.
  compileValidationSchema<const S extends JsonSchema>(schema: S): ValidationFunction<ValidatedBy<NoInfer<S>>>
  // With a part too, no guard: an annotated result with a part made the guard's schema reading
  // "excessively deep" (TS2589) on `{ type: 'integer' }` in TypeScript 5.9.
  compileValidationSchema(schema: JsonSchema, httpPart?: FastifyHttpPart): ValidationFunction
  /**
   * Validates `input` with the route's validator for `httpPart` when it has one, else with `schema`
   * (compiled once); true or false. Throws ENC_ERR_REQUEST_VALIDATION_INVOCATION when there is neither.
   * Given a schema alone, a type guard for what it describes.
   */
  validateInput<const S extends JsonSchema>(input: unknown, schema: S): input is ValidatedBy<NoInfer<S>>
  // With a part, the route's own validator for it may be the one used: no narrowing by `schema`.
  validateInput(input: unknown, schema: JsonSchema, httpPart: FastifyHttpPart): boolean
  validateInput(input: unknown, httpPart: FastifyHttpPart): boolean
}

/** Fastify 4/5's serialization methods of the reply. */
export interface ReplySerializationApi {
  /**
   * The route's serializer for a response key as declared (`200`, `'2xx'`, `'default'`), or the
   * function compileSerializationSchema() made for this schema object; undefined when none. Response
   * schemas are per status: with a content type there is none.
   */
  getSerializationFunction(httpStatus: number | string, contentType?: string): SerializationFunction | undefined
  getSerializationFunction(schema: JsonSchema): SerializationFunction | undefined
  /** Compiles a schema with the route's serializer compiler (fast-json-stringify with the shared schemas), once per schema object. */
  compileSerializationSchema(schema: JsonSchema, httpStatus?: number | string | null, contentType?: string | null): SerializationFunction
  /**
   * `input` serialized by `schema` (compiled once) or by the route's serializer for `httpStatus`;
   * ENC_ERR_REPLY_MISSING_SERIALIZATION_FN when the route has none for that key (or a content type is given).
   */
  serializeInput(input: unknown, schema: JsonSchema, httpStatus?: number | string, contentType?: string): string
  serializeInput(input: unknown, httpStatus: number | string, contentType?: string): string
}

/** A route lookup: the method, the path (hasRoute: as declared; findRoute: a URL) and the route's constraints. */
export interface RouteLookup {
  method: string
  url: string
  constraints?: { version?: string; host?: string } & Record<string, unknown>
}

/** What findRoute() answers: the route's handler, the params the URL gives, its query. */
export interface FoundRoute {
  readonly handler: Function
  readonly params: Record<string, string | undefined>
  readonly searchParams: Record<string, string>
}

/** Fastify 5's route lookups of the scope, over the routes declared so far in the whole server. */
export interface ScopeRouteLookup {
  hasRoute(options: RouteLookup): boolean
  findRoute(options: RouteLookup): FoundRoute | null
  /**
   * Fastify 4/5's `withTypeProvider<TypeBoxTypeProvider>()`, kept so ported code runs: the same
   * scope, typed as before. Nothing to register here: a TypeBox or `as const` schema already types
   * the handler where it is written, so the provider argument is ignored.
   */
  withTypeProvider<Provider = unknown>(): this
}
