import type { CompiledRoute } from '../serve/compiled-route'
import type { RequestImpl } from '../serve/request'
import { runtimeError } from '../errors/runtime-codes'
import type { JsonSchema, PartValidator } from '../schemas/types'
import { cacheOf, checkGivenKeywords, compileGiven, routeValidatorCompiler } from './route-compilers'

/**
 * Fastify 4/5's request.getValidationFunction(), compileValidationSchema() and validateInput()
 * (Fastify 5's lib/request.js semantics), installed on the request prototype: a request carries
 * nothing for them, and a route pays nothing until a handler calls one.
 */

/** What Fastify's getValidationFunction() hands out: ajv's shape, true or false with `.errors`. */
export type FastifyValidate = ((data: unknown) => unknown) & { errors?: unknown }

/** Fastify's HTTP_PART_SYMBOL_MAP: `query` is another name for the query string. */
const PART_FIELDS: Readonly<Record<string, 'validateBody' | 'validateHeaders' | 'validateQuery' | 'validateParams'>> = {
  body: 'validateBody', headers: 'validateHeaders', querystring: 'validateQuery', query: 'validateQuery', params: 'validateParams',
}

const compiledBySchema = new WeakMap<CompiledRoute, WeakMap<object, FastifyValidate>>()
const shapedByValidator = new WeakMap<PartValidator, FastifyValidate>()

/**
 * The route's own validator for a part, as the route applies it (the finite-number guard and the
 * coercion included), in ajv's shape: true, or false with `.errors` (an Error a custom validator
 * returned is the one item of `.errors`). A value a custom validator substitutes (`{ value }`) is
 * not handed back: the request part has it after validation.
 */
function routePartValidator(route: CompiledRoute, part: string): FastifyValidate | undefined {
  const field = Object.prototype.hasOwnProperty.call(PART_FIELDS, part) ? PART_FIELDS[part] : undefined
  if (field === undefined) return undefined
  // A lazy route built its schemas before onRequest; this covers a call from elsewhere (a timer).
  route.lazy?.compile('first request')
  const validator = route[field]
  if (validator === null) return undefined
  let shaped = shapedByValidator.get(validator)
  if (shaped === undefined) {
    const fn: FastifyValidate = (data: unknown): boolean => {
      const outcome = validator(data)
      if (outcome === undefined || 'value' in outcome) { fn.errors = null; return true }
      fn.errors = 'error' in outcome ? [outcome.error] : outcome.errors
      return false
    }
    fn.errors = null
    shapedByValidator.set(validator, shaped = fn)
  }
  return shaped
}

function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function getValidationFunction(this: RequestImpl, partOrSchema: unknown): FastifyValidate | undefined {
  if (typeof partOrSchema === 'string') return routePartValidator(this.route, partOrSchema)
  if (typeof partOrSchema === 'object' && partOrSchema !== null) return compiledBySchema.get(this.route)?.get(partOrSchema)
  return undefined
}

/**
 * Compiles `schema` with the route's validator compiler (the same ajv, options and shared schemas
 * as the route's own schemas), once per schema object and route, as Fastify caches it. The function
 * is the compiler's own: for ajv, true or false with `.errors`.
 */
export function compileValidationSchema(this: RequestImpl, schema: JsonSchema, httpPart?: string | null): FastifyValidate {
  const route = this.route
  const cache = cacheOf(compiledBySchema, route)
  const cached = cache.get(schema)
  if (cached !== undefined) return cached
  const compiler = routeValidatorCompiler(route)
  const part = typeof httpPart === 'string' ? httpPart : 'given'
  checkGivenKeywords(route, 'validator', `${part} (compileValidationSchema)`, schema)
  const fn = compileGiven(route, 'validator', `${part} (compileValidationSchema)`, schema,
    () => compiler({ schema, method: this.method, url: this.url, httpPart: httpPart ?? undefined } as never) as FastifyValidate)
  cache.set(schema, fn)
  return fn
}

/**
 * validateInput(input, schema), validateInput(input, httpPart) or validateInput(input, schema,
 * httpPart): the route's validator for the part when it has one, else `schema` compiled (and
 * cached). Answers what the validator answers (true or false for ajv); the input may be coerced in place.
 */
export function validateInput(this: RequestImpl, input: unknown, schema: unknown, httpPart?: string): unknown {
  const part = typeof schema === 'string' ? schema : httpPart
  let validate = typeof part === 'string' ? routePartValidator(this.route, part) : undefined
  if (validate === undefined) {
    if (!isSchemaObject(schema)) {
      throw runtimeError('ENC_ERR_REQUEST_VALIDATION_INVOCATION', { at: `${this.method} ${this.route.path ?? this.url}`, part: typeof part === 'string' ? part : '' })
    }
    validate = compileValidationSchema.call(this, schema, part)
  }
  return validate(input)
}
