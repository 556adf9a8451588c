import type { TypedRouteSchema } from '../runtime/typed-schemas'
import { contractError } from './contract-codes'

/*
 * A contract: the routes a server answers and a client calls, as plain data (method, url,
 * schema). A front end imports the contract and `createClient`; the server implements it with
 * `implement()` or `@Implements()`. Nothing here knows about servers or sockets.
 */

export type ContractMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

/** One route of a contract. The url is relative to where it is mounted (a prefix, the client's baseUrl). */
export interface ContractRoute {
  readonly method: ContractMethod
  readonly url: string
  readonly schema?: TypedRouteSchema
}

/** A contract: routes by name. */
export type Contract = { readonly [name: string]: ContractRoute }

/** What defineContract stamps on each route: its name and contract, read by @Implements and the boot check. */
export interface ContractMembership {
  readonly name: string
  readonly contract: Contract
}

// A registered symbol, not a module-level WeakMap: `enclave` and `enclave/client` are two bundles,
// and a contract defined through one is implemented through the other.
const kMembership = Symbol.for('enclave.contractRoute')
const methods: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/**
 * Declares a contract. The `const` type parameter keeps the schemas' literal types, as `as const`
 * would, so the handler and the client are typed from them.
 *
 * @example
 * export const api = defineContract({
 *   getNote: { method: 'GET', url: '/notes/:id', schema: { response: { 200: Note, 404: NotFound } } },
 * })
 */
export function defineContract<const C extends Contract>(routes: C): C {
  if (routes === null || typeof routes !== 'object' || Array.isArray(routes)) {
    throw contractError('ENC_ERR_CONTRACT_INVALID', { name: '(the contract)', problem: `is ${Array.isArray(routes) ? 'an array' : String(routes)}, not an object of routes by name` })
  }
  for (const [name, route] of Object.entries(routes)) {
    const problem = routeProblem(route)
    if (problem !== null) throw contractError('ENC_ERR_CONTRACT_INVALID', { name, problem })
    // A route already in a contract keeps its first one: a merged contract (`{ ...notes, ...users }`)
    // for one client leaves each route implemented against the contract it was declared in.
    if (membershipOf(route) === undefined) {
      Object.defineProperty(route, kMembership, { value: { name, contract: routes } satisfies ContractMembership, enumerable: false })
    }
  }
  return routes
}

/** The name and contract of a route defineContract() declared; undefined for anything else. */
export function membershipOf(route: unknown): ContractMembership | undefined {
  if (route === null || typeof route !== 'object') return undefined
  return (route as { [kMembership]?: ContractMembership })[kMembership]
}

function routeProblem(route: unknown): string | null {
  if (route === null || typeof route !== 'object' || Array.isArray(route)) return `is ${String(route)}, not a route object`
  const { method, url, schema } = route as Record<string, unknown>
  if (typeof method !== 'string' || !methods.includes(method)) return `has method ${JSON.stringify(method)}; expected one of ${methods.join(', ')} (upper case)`
  if (typeof url !== 'string' || !url.startsWith('/')) return `has url ${JSON.stringify(url)}; expected a path starting with '/'`
  if (schema !== undefined && (schema === null || typeof schema !== 'object')) return `has schema ${String(schema)}; expected an object`
  // The route is marked with its name (non-enumerable): a frozen object cannot be.
  if (membershipOf(route) === undefined && !Object.isExtensible(route)) return 'is frozen (Object.freeze): give defineContract() the route unfrozen, it marks each route with its name'
  return null
}
