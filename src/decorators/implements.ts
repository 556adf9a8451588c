import type { Contract, ContractMembership, ContractRoute } from '../contract/define-contract'
import { membershipOf } from '../contract/define-contract'
import { contractError } from '../contract/contract-codes'
import { documentedSchema } from '../contract/implement'
import type { WithPath } from '../runtime/path-params-type'
import { memberName } from './declaration-error'
import type { HandlerFit, RouteMethodDecorator } from './handler-fit'
import { declareRouteMethod } from './route-method'

type SchemaOf<R> = R extends { readonly schema: infer S } ? S : {}

/** One `@Implements()` method: the contract route it serves. */
export interface ImplementationMeta {
  readonly propertyKey: string | symbol
  readonly membership: ContractMembership
}

// Own to each class (a subclass's list does not include its base's: the boot check walks the chain).
const implementations = new WeakMap<Function, ImplementationMeta[]>()

/** The `@Implements()` methods a class itself declares (not its base classes'). */
export function getOwnImplementations(type: Function): readonly ImplementationMeta[] {
  return implementations.get(type) ?? []
}

/**
 * `@Implements(api.getNote)`: the method serves that contract route, with its method, url (joined to
 * the controller's prefix, as `@Get(path)`'s) and schema; a method whose parameters or return do not
 * fit the schema does not compile, as with `@Get(path, { schema })`. At boot, every route of a
 * contract any controller implements must be implemented exactly once in the app
 * (ENC_ERR_CONTRACT_UNIMPLEMENTED, ENC_ERR_CONTRACT_DUPLICATE).
 */
export function Implements<const R extends ContractRoute>(route: R): RouteMethodDecorator<WithPath<SchemaOf<R>, R['url']>>
/**
 * `@Implements(api)` on a controller class: the class implements the whole contract, each route by
 * the method of the route's name (`getNote()` serves `api.getNote`), as `@Implements(api.getNote)` on
 * that method would. A route without a method of its name does not compile (the class is not
 * assignable to one with it), nor does a method whose parameters or return do not fit its route;
 * when the class loads, a route without a method fails with ENC_ERR_CONTRACT_UNIMPLEMENTED naming
 * it (JavaScript, a cast). Other methods of the class are its own (helpers, routes of its own).
 */
export function Implements<const C extends Contract>(contract: C): ContractClassDecorator<C>
export function Implements(arg: ContractRoute | Contract): unknown {
  if (membershipOf(arg) === undefined && isContract(arg)) return implementsContract(arg)
  const route = arg as ContractRoute
  return ((target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor) => {
    const membership = membershipOf(route)
    if (membership === undefined) {
      throw contractError('ENC_ERR_CONTRACT_UNKNOWN_ROUTE', { where: `@Implements() on ${memberName(target, propertyKey)}`, name: describe(route), known: [] })
    }
    implementRoute(target.constructor, target, propertyKey, descriptor, route, membership)
  }) as never
}

/** One route served by one method: declared as `@Get(url, { schema })` would, and remembered for the boot check. */
function implementRoute(type: Function, prototype: object, propertyKey: string | symbol, descriptor: PropertyDescriptor | undefined, route: ContractRoute, membership: ContractMembership): void {
  declareRouteMethod('Implements', prototype, propertyKey, descriptor, {
    methods: [route.method], path: route.url, options: { schema: documentedSchema(membership.name, route) },
  })
  implementations.set(type, [...getOwnImplementations(type), { propertyKey, membership }])
}

function describe(route: unknown): string {
  if (route === null || typeof route !== 'object') return String(route)
  const { method, url } = route as { method?: unknown; url?: unknown }
  return `${String(method)} ${String(url)} (an object not declared with defineContract())`
}

/** A class decorator for contract `C`: the class has a method per route, named as the route, each fitting its route. */
export type ContractClassDecorator<C extends Contract> = <T extends abstract new (...args: any[]) => ContractMethods<C>>(target: T & { readonly prototype: ContractFit<C, InstanceType<T>> }) => void
type ContractMethods<C> = { [K in keyof C]: (...args: any[]) => unknown }
// `unknown` per route whose method fits (HandlerFit, as `@Implements(api.route)` checks it), else the error object naming what does not.
type ContractFit<C, I> = { [K in keyof C & keyof I]: C[K] extends ContractRoute ? HandlerFit<WithPath<SchemaOf<C[K]>, C[K]['url']>, I[K]> : unknown }

/** A contract of defineContract(): an object of its routes (each marked), not a route itself. */
function isContract(value: unknown): value is Contract {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const routes = Object.values(value)
  return routes.length > 0 && routes.every((route) => membershipOf(route) !== undefined)
}

function implementsContract(contract: Contract): (target: Function) => void {
  return (target) => {
    const prototype = target.prototype as object
    const names = Object.keys(contract)
    const missing = names.filter((name) => typeof (prototype as Record<string, unknown>)[name] !== 'function')
    if (missing.length > 0) {
      throw contractError('ENC_ERR_CONTRACT_UNIMPLEMENTED', { where: `@Implements(contract) on class ${target.name}`, missing: missing.map((name) => `${name} (no method ${name}() on the class)`) })
    }
    for (const name of names) implementRoute(target, prototype, name, descriptorOf(prototype, name), contract[name], membershipOf(contract[name])!)
  }
}

/** The method's descriptor, on the class or a base class (an inherited method implements a route too). */
function descriptorOf(prototype: object, name: string): PropertyDescriptor | undefined {
  for (let p: object | null = prototype; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    const descriptor = Object.getOwnPropertyDescriptor(p, name)
    if (descriptor !== undefined) return descriptor
  }
  return undefined
}
