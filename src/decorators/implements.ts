import type { ContractMembership, ContractRoute } from '../contract/define-contract'
import { membershipOf } from '../contract/define-contract'
import { contractError } from '../contract/contract-codes'
import { documentedSchema } from '../contract/implement'
import type { WithPath } from '../runtime/path-params-type'
import { memberName } from './declaration-error'
import type { RouteMethodDecorator } from './handler-fit'
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
export function Implements<const R extends ContractRoute>(route: R): RouteMethodDecorator<WithPath<SchemaOf<R>, R['url']>> {
  return ((target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor) => {
    const membership = membershipOf(route)
    if (membership === undefined) {
      throw contractError('ENC_ERR_CONTRACT_UNKNOWN_ROUTE', { where: `@Implements() on ${memberName(target, propertyKey)}`, name: describe(route), known: [] })
    }
    declareRouteMethod('Implements', target, propertyKey, descriptor, {
      methods: [route.method], path: route.url, options: { schema: documentedSchema(membership.name, route) },
    })
    const type = target.constructor
    implementations.set(type, [...getOwnImplementations(type), { propertyKey, membership }])
  }) as never
}

function describe(route: unknown): string {
  if (route === null || typeof route !== 'object') return String(route)
  const { method, url } = route as { method?: unknown; url?: unknown }
  return `${String(method)} ${String(url)} (an object not declared with defineContract())`
}
