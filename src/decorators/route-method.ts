import type { RouteShorthandOptions } from '../runtime/types'
import { declarationError, memberName } from './declaration-error'
import { addRoute } from './metadata'
import { describeValue } from './module-options'
import { resolveRouteSchema } from './route-schema-classes'
import type { HttpMethodName } from './types'

const httpMethods: readonly HttpMethodName[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

const routeOptionKeys = ['schema', 'attachValidation', 'validatorCompiler', 'serializerCompiler', 'schemaErrorFormatter',
  'bodyLimit', 'errorHandler', 'config', 'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization',
  'onSend', 'onResponse', 'onRequestAbort', 'onError', 'onTimeout', 'logLevel', 'exposeHeadRoute', 'prefixTrailingSlash', 'constraints', 'version'] as const
// Keeps the list in step with the runtime's RouteShorthandOptions, in both directions.
type Missing = Exclude<keyof RouteShorthandOptions, typeof routeOptionKeys[number]>
type Extra = Exclude<typeof routeOptionKeys[number], keyof RouteShorthandOptions>
const complete: [Missing, Extra] extends [never, never] ? true : [Missing, Extra] = true
void complete

export interface RouteDeclaration {
  readonly methods: readonly string[]
  readonly path: unknown
  readonly options: Record<string, unknown>
}

/**
 * Records one route on a controller method. Everything about the route is checked here, at
 * declaration, so a typo in an option fails when the class loads, not at the first request.
 */
export function declareRouteMethod(decorator: string, target: object, propertyKey: string | symbol,
  descriptor: PropertyDescriptor | undefined, route: RouteDeclaration): void {
  const where = `@${decorator}() on ${memberName(target, propertyKey)}`
  if (typeof target === 'function') {
    throw declarationError('ENC_ERR_DECL_STATIC_MEMBER', { where, member: 'route' })
  }
  if (descriptor === undefined || typeof descriptor.value !== 'function') {
    throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'route-on-property' })
  }
  const path = route.path ?? ''
  if (typeof path !== 'string' || (path !== '' && !path.startsWith('/'))) {
    throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'path', got: describeValue(path) })
  }
  const methods = route.methods.map((m) => typeof m === 'string' ? m.toUpperCase() : m)
  const bad = methods.find((m) => !(httpMethods as readonly unknown[]).includes(m))
  if (methods.length === 0 || bad !== undefined) {
    throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'method', got: describeValue(bad), known: httpMethods })
  }
  if (route.options === null || typeof route.options !== 'object' || Array.isArray(route.options)) {
    throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'options', got: describeValue(route.options) })
  }
  for (const key of Object.keys(route.options)) {
    if (!(routeOptionKeys as readonly string[]).includes(key)) {
      throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'unknown-option', key, known: routeOptionKeys })
    }
  }
  const options = { ...route.options }
  const schema = resolveRouteSchema(target, propertyKey, where, options.schema)
  if (schema !== undefined) options.schema = schema
  addRoute(target.constructor, { propertyKey, methods: methods as HttpMethodName[], path, options: Object.freeze(options) })
}
