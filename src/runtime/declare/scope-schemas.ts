import { runtimeError } from '../errors/runtime-codes'
import type { ScopeImpl } from './scope'
import { checkSchemaControllerOptions, plainSchema } from '../schemas'
import { checkSchemaCompilation, type SchemaCompilation } from '../shared/schema-compilation'
import { isAsyncFunction } from './option-checks'
import { checkSetter } from './scope-handlers'
import { currentOrigin } from './scope-origin'
import type { SchemaControllerOptions, SchemaErrorFormatter, SerializerCompiler, SharedSchema, ValidatorCompiler } from '../schemas/types'

export function addSchema(scope: ScopeImpl, schema: SharedSchema): void {
  scope.assertDeclarable('addSchema()')
  scope.schemas.add(schema)
  scope.origins.set(`schema:${(plainSchema(schema) as { $id?: unknown } | null)?.$id}`, currentOrigin(scope))
}

/**
 * Fastify's `fastify.validatorCompiler`: the compiler set here or in the nearest ancestor, else the
 * one the builders made for this scope's routes at boot; undefined before boot, or when no route
 * needed one. Read-only: setValidatorCompiler() sets it.
 */
export function visibleValidatorCompiler(from: ScopeImpl): ValidatorCompiler | undefined {
  for (let scope: ScopeImpl | null = from; scope !== null; scope = scope.parent) if (scope.ownValidatorCompiler !== null) return scope.ownValidatorCompiler
  return from.schemas.activeCompiler('validator') as ValidatorCompiler | undefined
}

/** Fastify's `fastify.serializerCompiler`, as visibleValidatorCompiler(). */
export function visibleSerializerCompiler(from: ScopeImpl): SerializerCompiler | undefined {
  for (let scope: ScopeImpl | null = from; scope !== null; scope = scope.parent) if (scope.ownSerializerCompiler !== null) return scope.ownSerializerCompiler
  return from.schemas.activeCompiler('serializer') as SerializerCompiler | undefined
}

/**
 * Fastify 3.27.4's setSchemaController(): this scope's (and its descendants') shared-schema bucket
 * and compiler builders. What is left out is inherited; a new bucket starts from the schemas
 * visible here so far.
 */
export function setSchemaController(scope: ScopeImpl, options: SchemaControllerOptions): void {
  scope.assertDeclarable('setSchemaController()')
  const checked = checkSchemaControllerOptions(options, `setSchemaController() in ${scope.path}`)
  scope.schemas.useController(checked, scope.schemas.getSchemas())
  scope.origins.set('setSchemaController', currentOrigin(scope))
}

export function setSchemaErrorFormatter(scope: ScopeImpl, fn: SchemaErrorFormatter): void {
  checkSetter(scope, 'setSchemaErrorFormatter', fn)
  // Its Error is needed at once to answer the 400: a promise would be no error at all.
  if (isAsyncFunction(fn)) throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `setSchemaErrorFormatter() in ${scope.path}`, problem: 'the formatter must be synchronous and return an Error; it is async' })
  scope.schemaErrorFormatter = fn
}

/** 'eager' or 'lazy' for the routes of this scope and its descendants (issue 16). */
export function setSchemaCompilation(scope: ScopeImpl, mode: SchemaCompilation): void {
  scope.assertDeclarable('setSchemaCompilation()')
  scope.schemaCompilation = checkSchemaCompilation(mode, `setSchemaCompilation() in ${scope.path}`)
}
