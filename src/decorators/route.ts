import 'reflect-metadata' // before tsyringe, which refuses to load without it
import { injectable } from 'tsyringe'
import { assertLegacyDecorator, declarationError } from './declaration-error'
import { setControllerMeta } from './metadata'
import { describeValue } from './module-options'
import { declareRouteMethod } from './route-method'
import { withLeadingSlash } from './leading-slash'
import type { RouteMethodOptions } from './types'
import type { RouteSchema } from '../runtime/schemas/types'
import type { TypedRouteSchema } from '../runtime/typed-schemas'
import type { WithPath } from '../runtime/path-params-type'
import type { RouteMethodDecorator } from './handler-fit'
import type { RouteDecoratorFor } from './socket-fit'

/**
 * On a class: declares a controller whose routes live under `prefix` (`'/users'`, or `'users'`
 * as in NestJS: decorator paths get their leading slash). The class becomes
 * injectable (constructor dependencies come from its module's providers); it is instantiated
 * once, at boot. On a method: declares a route, `@Route({ method, path, ...routeOptions })`.
 *
 * @example
 * @Route('/users')
 * class UserController {
 *   constructor(private readonly users: UserService) {}
 *   @Route({ method: 'GET', path: '/:id', schema: { params: { id: { type: 'integer' } } } })
 *   find(request: Request) { return this.users.find(request.params.id) }
 * }
 */
export function Route(prefix?: string): ClassDecorator
// `Path`: the path literal, as `@Get(path)` takes it (http-methods.ts). The class form's prefix
// cannot type the methods: a class decorator is applied after them and changes no member's type.
export function Route<S extends TypedRouteSchema = RouteSchema, W extends boolean = false, const Path extends string = string, FO = never, FV = never, FH = never>(options: RouteMethodOptions<S, W, Path, FO, FV, FH>): RouteDecoratorFor<WithPath<S, Path>, W>
// The implementation takes any hook: the overloads above checked them.
export function Route(arg?: string | RouteMethodOptions<RouteSchema, boolean, string, any, any, any>): ClassDecorator | RouteMethodDecorator<RouteSchema> | RouteDecoratorFor<RouteSchema, true> {
  return ((target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => {
    assertLegacyDecorator('@Route()', propertyKey)
    if (propertyKey === undefined) {
      declareController(target as Function, arg)
      return
    }
    if (arg === null || typeof arg !== 'object') {
      throw declarationError('ENC_ERR_DECL_TARGET', { case: 'route-method-arg', arg: describeValue(arg), method: String(propertyKey) })
    }
    const { method, path, ...options } = arg
    declareRouteMethod('Route', target, propertyKey, descriptor, { methods: Array.isArray(method) ? method : [method], path, options })
  }) as never
}

function declareController(target: Function, prefix: unknown): void {
  if (prefix !== undefined && typeof prefix !== 'string') {
    throw declarationError('ENC_ERR_DECL_TARGET', { case: 'route-class-arg', arg: describeValue(prefix), className: target.name })
  }
  const p = withLeadingSlash(prefix ?? '')
  setControllerMeta(target, { prefix: p.endsWith('/') ? p.slice(0, -1) : p })
  injectable()(target as never)
}
