/**
 * The schema subsystem: shared-schema stores per scope, route schema normalization, the default
 * compilers (ajv 6, fast-json-stringify 7), route compilation into per-part validators and response
 * serializers, and validation errors. Pure library code: no HTTP, no decorators, no DI.
 */
export { SchemaStore } from './schema-store'
export type { SchemaStoreOptions } from './schema-store'
export { normalizeRouteSchema } from './route-schema'
export type { RouteIdentity } from './route-schema'
export { SchemaCompilers } from './schema-compilers'
export { SCHEMA_CACHE_FILE } from './code-cache/cache-file'
export { loadCacheCode } from './code-cache/load-cache-code'
export { checkSchemaControllerOptions } from './schema-controller-options'
export { plainSchema } from './fluent-schema'
export type { SchemaCompilersOptions } from './schema-compilers'
export { baselineValidatorOptions, buildDefaultSerializer, buildDefaultValidator } from './default-compilers'
export { compileRouteSchemas } from './compile-route-schemas'
export type { CompileRouteSchemasInput, CompiledRouteSchemas } from './compile-route-schemas'
export { pickSerializer } from './response-serializers'
export type { ResponseSerializers } from './response-serializers'
export { defaultSchemaErrorFormatter, toValidationError } from './validation-error'
export { partValidatorCompiler } from './part-validator-compiler'
export type { PartValidators, PartValidatorSource } from './part-validator-compiler'
export { ajv8CompilersFactory, ajv8BaselineOptions } from './ajv8'
export type { Ajv8FactoryOptions } from './ajv8'
export { schemaErrorCodes } from './schema-codes'
export { didYouMean, closestName } from './did-you-mean'
export { unknownOptions } from './unknown-options'
export type { SchemaErrorCode } from './schema-codes'
export type {
  JsonSchema, SharedSchema, HttpPart, RouteSchema, NormalizedRouteSchema, ValidatorCompilerInput, ValidateFunction,
  ValidatorCompiler, SerializerCompilerInput, SerializeFunction, SerializerCompiler, SchemaErrorFormatter,
  ValidatorPlugin, ValidatorOptions, CompilersFactory, SchemaControllerOptions, SchemaBucket, SchemaBucketFactory, ValidationContext,
  SchemaValidationError, PartFailure, PartValidator,
} from './types'
