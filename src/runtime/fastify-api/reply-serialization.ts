import type { CompiledRoute } from '../serve/compiled-route'
import type { ReplyImpl } from '../serve/reply'
import { runtimeError } from '../errors/runtime-codes'
import type { JsonSchema, SerializeFunction } from '../schemas/types'
import { cacheOf, checkGivenKeywords, compileGiven, routeSerializerCompiler } from './route-compilers'

/**
 * Fastify 4/5's reply.getSerializationFunction(), compileSerializationSchema() and
 * serializeInput() (Fastify 5's lib/reply.js semantics), installed on the reply prototype.
 *
 * A status names a response schema key as the route declared it (`201`, `2xx`, `default`),
 * looked up as is, as Fastify does: `getSerializationFunction(204)` is undefined on a route that
 * declares only `2xx`. Enclave's response schemas are per status, not per content type (Fastify
 * 5's `content: { 'application/json': { schema } }`), so a status with a content type has no
 * function: undefined from getSerializationFunction(), ENC_ERR_REPLY_MISSING_SERIALIZATION_FN
 * from serializeInput(). compileSerializationSchema() hands the content type to the compiler.
 */

const compiledBySchema = new WeakMap<CompiledRoute, WeakMap<object, SerializeFunction>>()

/** The route's serializer for a declared key, the one the route itself sends with (built on demand on a lazy route). */
function routeStatusSerializer(route: CompiledRoute, status: string | number): SerializeFunction | undefined {
  route.lazy?.compile('first request')
  const serializers = route.serializers
  if (serializers === null) return undefined
  const key = String(status).toLowerCase()
  if (!serializers.keys.includes(key)) return undefined
  if (key === 'default') return serializers.fallback ?? undefined
  if (/^[0-9]+$/.test(key)) return serializers.exact?.get(Number(key))
  // `2xx`: its slot holds the range's serializer (the key is declared, so not `default`'s).
  return serializers.byHundred[Number(key[0])] ?? undefined
}

export function getSerializationFunction(this: ReplyImpl, schemaOrStatus: unknown, contentType?: string): SerializeFunction | undefined {
  if (typeof schemaOrStatus === 'string' || typeof schemaOrStatus === 'number') {
    return typeof contentType === 'string' ? undefined : routeStatusSerializer(this.route, schemaOrStatus)
  }
  if (typeof schemaOrStatus === 'object' && schemaOrStatus !== null) return compiledBySchema.get(this.route)?.get(schemaOrStatus)
  return undefined
}

/**
 * Compiles `schema` with the route's serializer compiler (fast-json-stringify with the scope's
 * shared schemas and serializerOpts, unless a compiler was set), once per schema object and route.
 */
export function compileSerializationSchema(this: ReplyImpl, schema: JsonSchema, httpStatus: string | number | null = null,
  contentType: string | null = null): SerializeFunction {
  const route = this.route
  const cache = cacheOf(compiledBySchema, route)
  const cached = cache.get(schema)
  if (cached !== undefined) return cached
  const compiler = routeSerializerCompiler(route)
  const request = this.request
  checkGivenKeywords(route, 'serializer', `response ${httpStatus ?? 'given'} (compileSerializationSchema)`, schema)
  const fn = compileGiven(route, 'serializer', `response ${httpStatus ?? 'given'} (compileSerializationSchema)`, schema,
    () => compiler({ schema, method: request.method, url: request.url, httpStatus: httpStatus ?? undefined, contentType: contentType ?? undefined } as never))
  cache.set(schema, fn)
  return fn
}

/**
 * serializeInput(input, schema), serializeInput(input, status), serializeInput(input, status,
 * contentType) or serializeInput(input, schema, status, contentType), as Fastify reads them.
 */
export function serializeInput(this: ReplyImpl, input: unknown, schema: unknown, httpStatus?: string | number, contentType?: string): string {
  const second = httpStatus
  const status = typeof schema === 'string' || typeof schema === 'number' ? schema : httpStatus
  // serializeInput(input, 200, 'application/json'): the third argument is the content type.
  const type = status !== undefined && status !== null && second !== status ? second as string | undefined : contentType
  if (status !== undefined && status !== null && status !== '') {
    const serialize = type === undefined || type === null ? routeStatusSerializer(this.route, status) : undefined
    if (serialize === undefined) {
      throw runtimeError('ENC_ERR_REPLY_MISSING_SERIALIZATION_FN', { at: `${this.request.method} ${this.route.path ?? this.request.url}`,
        status: String(status), contentType: type === undefined || type === null ? undefined : String(type) })
    }
    return serialize(input)
  }
  return compileSerializationSchema.call(this, schema as JsonSchema, null, type ?? null)(input)
}
