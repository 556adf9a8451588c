/** A JSON Schema object. Schemas are application code (spec §1.6): never build them from user input. */
export type JsonSchema = Record<string, unknown>

/** A schema added with `addSchema`: `$id` is required (spec §2.2). */
export interface SharedSchema extends JsonSchema {
  $id: string
}

/** The request parts a validator can be compiled for (spec §3.2 `httpPart`). */
export type HttpPart = 'body' | 'querystring' | 'params' | 'headers'

/** The route option `schema` (spec §2.1). */
/**
 * What a route schema may carry besides its parts: the keys OpenAPI generators (@fastify/swagger,
 * Enclave's openapi()) read, and `x-` extensions. Any other key is refused at boot
 * (ENC_ERR_SCH_UNKNOWN_PART, route-schema.ts), so the types refuse it too.
 */
export interface RouteSchemaAnnotations {
  summary?: string
  description?: string
  tags?: readonly string[]
  operationId?: string
  deprecated?: boolean
  /** Left out of the OpenAPI document. */
  hide?: boolean
  consumes?: readonly string[]
  produces?: readonly string[]
  /** OpenAPI security requirements: scheme name to scopes. */
  security?: ReadonlyArray<Readonly<Record<string, readonly string[]>>>
  externalDocs?: { readonly url: string; readonly description?: string }
  servers?: readonly object[]
  callbacks?: object
  links?: object
  examples?: unknown
  [extension: `x-${string}`]: unknown
}

export interface RouteSchema extends RouteSchemaAnnotations {
  body?: JsonSchema
  querystring?: JsonSchema
  query?: JsonSchema
  params?: JsonSchema
  headers?: JsonSchema
  response?: Record<string | number, JsonSchema>
}

/**
 * `S`: the schema the compiler reads, JSON Schema unless it says otherwise (Fastify's
 * `FastifySchemaCompiler<T>`): fastify-type-provider-zod's compilers read zod schemas.
 */
export interface ValidatorCompilerInput<S = JsonSchema> {
  schema: S
  method: string
  url: string
  httpPart?: HttpPart | string
}

/**
 * What a compiled validator may return (spec §4.2 "Validation function contract"):
 * ajv style `true` / `false` with `.errors` on the function, `{ value }` (replaces the part with
 * the coerced value), `{ error }`, or an Error.
 */
export type ValidateFunction = ((data: unknown) => unknown) & { errors?: unknown }
export type ValidatorCompiler<S = JsonSchema> = (input: ValidatorCompilerInput<S>) => ValidateFunction

export interface SerializerCompilerInput<S = JsonSchema> {
  schema: S
  method: string
  url: string
  httpStatus: string
}
export type SerializeFunction = (data: unknown) => string
/** setReplySerializer(fn): serializes a reply payload of a route of the scope (Fastify's `(payload, statusCode)`). */
export type ReplySerializer = (payload: unknown, statusCode: number) => string
export type SerializerCompiler<S = JsonSchema> = (input: SerializerCompilerInput<S>) => SerializeFunction
/**
 * Where no generic can say which schemas a compiler will be given (a route's or a module's
 * option), any compiler fits; an inline one reads its schema untyped, as Fastify 3's did.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyValidatorCompiler = ValidatorCompiler<any>
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySerializerCompiler = SerializerCompiler<any>

/** `dataVar` is `body`, `params`, `querystring` or `headers` (spec §4.2). */
export type SchemaErrorFormatter = (this: unknown, errors: unknown[], dataVar: string) => Error

/** An ajv 6 plugin, or `[plugin, options]`. */
export type ValidatorPlugin = ((ajv: any, options?: any) => unknown) | [(ajv: any, options?: any) => unknown, unknown]

export interface ValidatorOptions {
  /** Merged over the baseline `{ removeAdditional, useDefaults, coerceTypes, nullable, jsonPointers }` (spec §2.7). */
  customOptions?: Record<string, unknown>
  plugins?: ValidatorPlugin[]
  /**
   * JSON Schema keywords to accept beyond the validator's own and its plugins' (unknown ones fail
   * boot with ENC_ERR_SCH_UNKNOWN_KEYWORD, since ajv 6 would silently ignore a typo); `true` turns
   * that check off.
   */
  customKeywords?: readonly string[] | true
}

/**
 * Builds the compilers for one set of visible shared schemas. Called once per distinct set
 * (a scope that adds schemas starts a new set), never per route.
 */
export interface CompilersFactory {
  buildValidator?(externalSchemas: Record<string, SharedSchema>, options: ValidatorOptions): ValidatorCompiler
  /** `options` is the server's `serializerOpts` (an empty object when none was given), as in Fastify. */
  buildSerializer?(externalSchemas: Record<string, SharedSchema>, options: SerializerOptions): SerializerCompiler
}

/** The server option `serializerOpts`: fast-json-stringify's options (`rounding`, `largeArrayMechanism` ...). */
export type SerializerOptions = Readonly<Record<string, unknown>>

/**
 * One scope's shared schemas when a `schemaController.bucket` is given (Fastify 3.27.4's shape):
 * `addSchema()` calls `add`, `getSchema()` calls `getSchema`, and `getSchemas()` is what the
 * compilers are built with (an object keyed by `$id`, or a Map). A method Enclave never needs may be
 * left out: a bucket holding schemas the user's own ajv already has may offer only `getSchemas`.
 */
export interface SchemaBucket {
  add?(schema: unknown): unknown
  getSchema?(id: string): unknown
  getSchemas?(): unknown
}

/**
 * Builds a scope's bucket, once per scope: the root's with no argument, a child's with what its
 * parent's `getSchemas()` returns (so it may start from the parent's schemas).
 */
export type SchemaBucketFactory = (parentSchemas?: unknown) => SchemaBucket

/**
 * The server option `schemaController` and `scope.setSchemaController()` (Fastify 3.27.4's shape).
 * Both keys are optional: what is left out is inherited from the parent scope (the server option
 * at the root; Enclave's default store and ajv 6 / fast-json-stringify 7 builders below that).
 */
export interface SchemaControllerOptions {
  bucket?: SchemaBucketFactory
  compilersFactory?: CompilersFactory
}

/** The `validationContext` of a validation error (spec §2.5): `querystring` is reported as `query`. */
export type ValidationContext = 'body' | 'params' | 'headers' | 'query'

/** A validation failure as the runtime receives it (spec §2.5). Structurally the runtime's `ValidationError`. */
export interface SchemaValidationError extends Error {
  statusCode: number
  validation: unknown
  validationContext: ValidationContext
}

/**
 * The outcome of a failed part validation: `errors` in the default engine's structure (handed to the
 * schema error formatter), or `error`, an Error from another library that is used as is.
 */
export type PartFailure = { errors: unknown[] } | { error: Error }

/**
 * Validates one request part. `undefined`: valid, keep the data (which the default engine may have
 * coerced in place); `{ value }`: valid, replace the part with `value`; otherwise a PartFailure.
 */
export type PartValidator = (data: unknown) => PartFailure | { value: unknown } | undefined

/** A route schema after `normalizeRouteSchema`: shorthand expanded, `query` folded into `querystring`. */
export interface NormalizedRouteSchema {
  body: JsonSchema | null
  querystring: JsonSchema | null
  params: JsonSchema | null
  headers: JsonSchema | null
  /** Keys are `'100'`..`'599'`, `'1xx'`..`'5xx'` (lower case) or `'default'`. */
  response: Record<string, JsonSchema> | null
}
