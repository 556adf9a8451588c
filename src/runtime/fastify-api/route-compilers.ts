import type { CompiledRoute } from '../serve/compiled-route'
import type { ScopeImpl } from '../declare/scope'
import { translateCompileError } from '../schemas/compile-errors'
import { describeValue, schemaError } from '../schemas/schema-codes'
import type { JsonSchema, SerializerCompiler, ValidatorCompiler } from '../schemas/types'

/**
 * The compilers a route's own schemas were built with, found again on demand for Fastify 4/5's
 * request.compileValidationSchema() and reply.compileSerializationSchema(): the route option,
 * else the nearest scope's setValidatorCompiler() / setSerializerCompiler(), else the builders'
 * compiler for the shared schemas visible from the route's scope (its ajv with its options and
 * addSchema() schemas; the schema cache applies as it does to routes). Nothing is looked up
 * before a handler asks: no route and no request pays for it.
 */

type Kind = 'validator' | 'serializer'

export function routeValidatorCompiler(route: CompiledRoute): ValidatorCompiler {
  return compilerOf(route, 'validator') as ValidatorCompiler
}

export function routeSerializerCompiler(route: CompiledRoute): SerializerCompiler {
  return compilerOf(route, 'serializer') as SerializerCompiler
}

function compilerOf(route: CompiledRoute, kind: Kind): Function {
  const own = route.routeOptions[kind === 'validator' ? 'validatorCompiler' : 'serializerCompiler']
  if (typeof own === 'function') return own
  const scope = route.scope as unknown as ScopeImpl
  for (let at: ScopeImpl | null = scope; at !== null; at = at.parent) {
    const set = kind === 'validator' ? at.ownValidatorCompiler : at.ownSerializerCompiler
    if (set !== null) return set
  }
  const compilers = scope.context.schemaCompilers
  if (compilers === null) throw new Error('the server has no schema compilers')
  return kind === 'validator' ? compilers.validatorFor(scope.schemas) : compilers.serializerFor(scope.schemas)
}

/**
 * A schema a handler gives gets the unknown-keyword check (ENC_ERR_SCH_UNKNOWN_KEYWORD) a route's
 * own schema gets at boot, on the same condition: the route compiles with the default compiler
 * (no route option, no scope's setValidatorCompiler()/setSerializerCompiler()). Before compiling,
 * once per schema object and route (the caller's cache), never on a cached call.
 */
export function checkGivenKeywords(route: CompiledRoute, kind: Kind, part: string, schema: JsonSchema): void {
  if (typeof route.routeOptions[kind === 'validator' ? 'validatorCompiler' : 'serializerCompiler'] === 'function') return
  const scope = route.scope as unknown as ScopeImpl
  for (let at: ScopeImpl | null = scope; at !== null; at = at.parent) {
    if ((kind === 'validator' ? at.ownValidatorCompiler : at.ownSerializerCompiler) !== null) return
  }
  scope.context.schemaCompilers?.checkKeywords(schema, scope.schemas, `The ${part} schema of route ${route.method} ${route.path ?? '(not found)'} in scope ${scope.path}`)
}

/**
 * Runs a compiler on a schema a handler gave, turning a failure into the coded error a route's
 * schema gets at boot (ENC_ERR_SCH_VALIDATION_BUILD, ENC_ERR_SCH_REF_NOT_VISIBLE ...).
 */
export function compileGiven<F>(route: CompiledRoute, kind: Kind, part: string, schema: JsonSchema, compile: () => F): F {
  const scope = route.scope as unknown as ScopeImpl
  const method = route.method
  const url = route.path ?? '(not found)'
  let fn: F
  try {
    fn = compile()
  } catch (error) {
    throw translateCompileError({ error, kind, method, url, part, scopePath: scope.path, store: scope.schemas, schema })
  }
  if (typeof fn !== 'function') {
    throw schemaError(kind === 'validator' ? 'ENC_ERR_SCH_VALIDATION_BUILD' : 'ENC_ERR_SCH_SERIALIZATION_BUILD',
      { case: 'returned', kind, got: describeValue(fn), part, method, url, scopePath: scope.path })
  }
  return fn
}

/** A cache per route, keyed by the schema object, as Fastify keeps one per route context; made on first use. */
export function cacheOf<V>(caches: WeakMap<CompiledRoute, WeakMap<object, V>>, route: CompiledRoute): WeakMap<object, V> {
  let cache = caches.get(route)
  if (cache === undefined) caches.set(route, cache = new WeakMap())
  return cache
}
