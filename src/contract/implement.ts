import type { RouteGeneric } from '../runtime/route-generic'
import type { NothingProvided, Provided } from '../runtime/shared/provided'
import type { RouteShorthandOptions, Scope, SeenIn, TypedRouteHandler } from '../runtime/types'
import { contractError } from './contract-codes'
import type { Contract, ContractRoute } from './define-contract'

type SchemaOf<R> = R extends { readonly schema: infer S } ? S : {}

/** The handler of contract route `R`: its request and answer typed from the route's schema and url, as `scope.route()` types them. */
export type ContractHandler<R extends ContractRoute, P extends Provided = NothingProvided> = TypedRouteHandler<RouteGeneric, SchemaOf<R>, P, R['url']>

/** A handler with route options of its own (hooks, config, bodyLimit): everything but what the contract states. */
export type ContractRouteImplementation<R extends ContractRoute, P extends Provided = NothingProvided> =
  Omit<RouteShorthandOptions<{}, P['request'], P['reply']>, 'schema'> & { readonly handler: ContractHandler<R, P> }

/** One implementation per route of `C`, by name: every route, no other name. */
export type ContractHandlers<C extends Contract, P extends Provided = NothingProvided> = {
  readonly [K in keyof C]: ContractHandler<C[K], P> | ContractRouteImplementation<C[K], P>
}

/**
 * Serves every route of a contract on `scope`, each with the contract's method, url and schema
 * (so validated and serialized as any route) and the handler given under its name. A name
 * missing or one the contract lacks fails here, at boot, naming it. Returns the scope.
 *
 * @example
 * implement(app, api, { getNote: async (request, reply) => notes.get(request.params.id) ?? reply.code(404).send({ message: 'no note' }) })
 */
export function implement<On extends Scope, const C extends Contract>(scope: On, contract: C, handlers: ContractHandlers<C, SeenIn<On>>): On {
  const where = 'implement(scope, contract, handlers)'
  const names = Object.keys(contract)
  if (handlers === null || typeof handlers !== 'object') throw contractError('ENC_ERR_CONTRACT_UNIMPLEMENTED', { where, missing: names })
  for (const name of Object.keys(handlers)) {
    if (!Object.hasOwn(contract, name)) throw contractError('ENC_ERR_CONTRACT_UNKNOWN_ROUTE', { where, name, known: names })
  }
  const missing = names.filter((name) => (handlers as Record<string, unknown>)[name] === undefined)
  if (missing.length > 0) throw contractError('ENC_ERR_CONTRACT_UNIMPLEMENTED', { where, missing })
  for (const name of names) {
    const route = contract[name]
    const given = (handlers as Record<string, unknown>)[name]
    const options = typeof given === 'function' ? { handler: given } : given as Record<string, unknown>
    // The contract's own keys last: an implementation does not change what the client was promised.
    ;(scope as Scope).route({ ...options, method: route.method, url: route.url, schema: documentedSchema(name, route) } as never)
  }
  return scope
}

/**
 * The route's schema with the route's name as its OpenAPI `operationId` (unless the schema names
 * one): a client generated from `app.openapi()` (openapi-typescript, orval) then calls
 * `getNote` as the typed client does, not `getNotesById` from the url.
 */
export function documentedSchema(name: string, route: ContractRoute): object {
  return { operationId: name, ...route.schema }
}
