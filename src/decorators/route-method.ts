import { assertInstanceMethod, declarationError, decoratedWhere } from './declaration-error'
import { addRoute } from './metadata'
import { describeValue } from './module-options'
import { resolveRouteSchema } from './route-schema-classes'
import { withLeadingSlash } from './leading-slash'
import type { HttpMethodName } from './types'

const httpMethods: readonly HttpMethodName[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

export interface RouteDeclaration {
  readonly methods: readonly string[]
  readonly path: unknown
  readonly options: Record<string, unknown>
}

/**
 * Records one route on a controller method. Its shape is checked here, at declaration, so a bad
 * path or method fails when the class loads; option names are checked by the runtime at boot.
 */
export function declareRouteMethod(decorator: string, target: object, propertyKey: string | symbol,
  descriptor: PropertyDescriptor | undefined, route: RouteDeclaration): void {
  const where = decoratedWhere(`@${decorator}()`, target, propertyKey)
  assertInstanceMethod(target, descriptor, where, 'route')
  const given = route.path ?? ''
  if (typeof given !== 'string') {
    throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'path', got: describeValue(given) })
  }
  // NestJS's `@Get(':id')` is `@Get('/:id')`: the runtime API keeps Fastify's leading-slash rule.
  const path = withLeadingSlash(given)
  const methods = route.methods.map((m) => typeof m === 'string' ? m.toUpperCase() : m)
  const bad = methods.find((m) => !(httpMethods as readonly unknown[]).includes(m))
  if (methods.length === 0 || bad !== undefined) {
    throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'method', got: describeValue(bad), known: httpMethods })
  }
  if (route.options === null || typeof route.options !== 'object' || Array.isArray(route.options)) {
    throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'options', got: describeValue(route.options) })
  }
  // Option names are the runtime's to judge: a plugin's own options (`helmet: false`) are known
  // only once its onRoute hook reads them, at boot (the runtime's error names this method).
  const options = { ...route.options }
  const schema = resolveRouteSchema(target, propertyKey, where, options.schema)
  if (schema !== undefined) options.schema = schema
  addRoute(target.constructor, { propertyKey, methods: methods as HttpMethodName[], path, options: Object.freeze(options) })
}
