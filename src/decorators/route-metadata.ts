import { declarationError, decoratedWhere } from './declaration-error'
import { setClassRouteConfig, setMethodRouteConfig } from './metadata'

/** On a controller class (every route of it) or one of its route methods. */
export type RouteMetadataDecorator = (target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => void

/** What `of()` reads: a request or a reply (both carry the route's `context.config`). */
export interface RouteConfigHolder { readonly context: { readonly config: Readonly<Record<string, unknown>> } }

/**
 * A typed piece of route metadata (NestJS's `SetMetadata` / `Reflector.createDecorator`):
 * `Roles(['admin'])` decorates a route method or a controller class, and `Roles.of(request)` reads
 * the value of the route being served in a guard or hook.
 */
export interface RouteMetadata<T> {
  (value: T): RouteMetadataDecorator
  /** The key of the route's `config` that holds the value. */
  readonly key: string
  /** The value the served route carries (the method's, else its controller's), or undefined. */
  of(requestOrReply: RouteConfigHolder): T | undefined
}

/**
 * Declares route metadata stored under `key` in each route's `config` (Fastify's route config),
 * written once at boot: a method's value wins over its controller's (and over `config[key]` in
 * the route options, which wins over the controller's), so NestJS's
 * `reflector.getAllAndOverride(key, [handler, class])` is `of(request)`, a property read per request.
 * Plugins and hooks that read `request.routeOptions.config` see it too.
 *
 * @example
 * export const Roles = routeMetadata<readonly string[]>('roles')
 * \@Roles(['admin']) @Post('/') create() { ... }
 * // in a guard class: const roles = Roles.of(request)
 */
export function routeMetadata<T>(key: string): RouteMetadata<T> {
  if (typeof key !== 'string' || key === '') {
    throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where: 'routeMetadata(key)', case: 'property-name' })
  }
  const decorator = (value: T): RouteMetadataDecorator => (target, propertyKey, descriptor) => {
    const where = decoratedWhere(`routeMetadata('${key}')`, target, propertyKey)
    if (propertyKey === undefined) {
      setClassRouteConfig(target as Function, key, value)
      return
    }
    if (typeof target === 'function') throw declarationError('ENC_ERR_DECL_STATIC_MEMBER', { where, member: 'route' })
    if (descriptor === undefined || typeof descriptor.value !== 'function') {
      throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'route-on-property' })
    }
    setMethodRouteConfig(target.constructor, propertyKey, key, value)
    // Also by the method itself, for Reflector.get(key, context.handler) (NestJS reads the handler's metadata).
    const method = descriptor.value as Function
    byFunction.set(method, { ...byFunction.get(method), [key]: value })
  }
  return Object.assign(decorator, { key, of: (holder: RouteConfigHolder): T | undefined => ownConfigValue(holder.context.config, key) as T | undefined })
}

/**
 * `config[key]` when the config itself has it. Own values only: a route config is a plain object, so
 * `routeMetadata('constructor').of(request)` read Object.prototype's and was truthy on every route
 * (a `@Public()` guard then opened them all). Reflector reads through it too.
 */
export function ownConfigValue(config: Readonly<Record<string, unknown>> | undefined, key: string): unknown {
  return config !== undefined && Object.prototype.hasOwnProperty.call(config, key) ? config[key] : undefined
}

const byFunction = new WeakMap<Function, Readonly<Record<string, unknown>>>()

/** The routeMetadata() values set on this route method (the function itself), for Reflector; undefined for anything else. */
export function functionRouteConfig(method: Function): Readonly<Record<string, unknown>> | undefined {
  return byFunction.get(method)
}
