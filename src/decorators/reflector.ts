import { ownConfigValue as own, routeMetadata, functionRouteConfig, type RouteConfigHolder, type RouteMetadataDecorator } from './route-metadata'
import { getClassRouteConfig } from './metadata'

/** A metadata key, or a decorator made by `routeMetadata()` / `Reflector.createDecorator()` (its `key`; its value type types the read). */
export type MetadataKey<T = unknown> = string | { readonly key: string; of(holder: RouteConfigHolder): T | undefined }

/** What `Reflector.createDecorator<T, V>()` makes: `@Decorator(value)` stores `transform(value)` (a `V`); `of(request)` reads it. */
export interface ReflectorDecorator<T, V = T> {
  (value?: T): RouteMetadataDecorator
  /** The route config key (NestJS's `KEY`). */
  readonly KEY: string
  readonly key: string
  of(holder: RouteConfigHolder): V | undefined
}

/** Where a value is read: a route method, a controller class, or the request or reply being served (its route's value). */
export type MetadataTarget = Function | RouteConfigHolder | undefined

/**
 * NestJS's `SetMetadata(key, value)`: `routeMetadata(key)(value)`, on a route method or a controller
 * class. The value is the route's `config[key]`, read with `Reflector` or `routeMetadata(key).of(request)`.
 */
export function SetMetadata<T>(key: string, value: T): RouteMetadataDecorator {
  return routeMetadata<T>(key)(value)
}

let unnamed = 0

/**
 * NestJS's Reflector, over `routeMetadata()`'s values: inject it (`constructor(private readonly
 * reflector: Reflector)`, every module sees it, no provider entry needed) in a guard, hook class or
 * interceptor. A target is what NestJS passes (`context.getHandler()` is an interceptor context's
 * `handler`, `context.getClass()` its `controller`), or the request itself: a guard's `handle(request)`
 * has no ExecutionContext, and `reflector.get(ROLES_KEY, request)` gives the served route's value (the
 * method's, else its controller's: `getAllAndOverride(key, [handler, class])` in one read).
 */
export class Reflector {
  /** NestJS's `Reflector.createDecorator<T>()`: a typed decorator with its own key (`options.key`, else a generated one). */
  static createDecorator<T, V = T>(options: { key?: string; transform?: (value: T) => V } = {}): ReflectorDecorator<T, V> {
    const key = options.key ?? `Reflector.createDecorator#${++unnamed}`
    const metadata = routeMetadata<V>(key)
    const decorator = (value?: T): RouteMetadataDecorator => {
      const stored = options.transform === undefined ? value : options.transform(value as T)
      // NestJS's marker for an argument-less decorator (`@Public()`): `{}`, so a check for the value holds.
      return metadata((stored === undefined ? {} : stored) as V)
    }
    return Object.assign(decorator, { key, KEY: key, of: metadata.of })
  }

  /** The value `key` has on `target`: a route method's own, a controller class's own, or the served route's (a request or reply). */
  get<T = any>(key: MetadataKey<T>, target: MetadataTarget): T | undefined {
    const name = typeof key === 'string' ? key : key.key
    if (target === undefined || target === null) return undefined
    if (typeof target !== 'function') return own(target.context.config, name) as T | undefined
    const method = functionRouteConfig(target)
    if (method !== undefined) return own(method, name) as T | undefined
    // A controller class, else the nearest base class with a value (NestJS reads inherited metadata).
    for (let c: Function | null = target; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c) as Function | null) {
      const value = own(getClassRouteConfig(c), name)
      if (value !== undefined) return value as T
    }
    return undefined
  }

  /** `get()` for each target, in order. */
  getAll<T = any>(key: MetadataKey<T>, targets: readonly MetadataTarget[]): Array<T | undefined> {
    return targets.map((target) => this.get(key, target))
  }

  /** The first target's value that is not undefined (NestJS's: the handler's over the class's). */
  getAllAndOverride<T = any>(key: MetadataKey<T>, targets: readonly MetadataTarget[]): T | undefined {
    for (const target of targets) {
      const value = this.get(key, target)
      if (value !== undefined) return value
    }
    return undefined
  }

  /** NestJS's merge: arrays concatenated, objects merged (the later target's keys win), else the values as an array; `[]` when none has one. */
  getAllAndMerge<T = any>(key: MetadataKey<T>, targets: readonly MetadataTarget[]): T {
    const values: unknown[] = this.getAll(key, targets).filter((value) => value !== undefined)
    if (values.length === 0) return values as T
    if (values.length === 1) return (isObject(values[0]) ? values[0] : values) as T
    return values.reduce((a: unknown, b: unknown) => {
      if (Array.isArray(a)) return a.concat(b)
      if (isObject(a) && isObject(b) && !Array.isArray(b)) return { ...a, ...b }
      return [a].concat(b)
    }) as T
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}
