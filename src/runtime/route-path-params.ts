import type { PathParams } from './path-params-type'
import type { NamesParams } from './route-generic'
import type { RouteParts } from './typed-schemas'

/*
 * Types only: what a runtime route's path literal adds to its handler's request, `{ params:
 * PathParams<Path> }`, intersected with the request the schema and generic give (whose params
 * are then `Record<string, unknown>`, so the names read `string` and any other name `unknown`).
 *
 * Kept beside the schema `S`, not folded into it (as the decorator layer's WithPath does): a route
 * type folding the path in is a new schema type per path, and everything read from it (the reply,
 * what the handler may return, which parts are typed) was worked out again for every route. This
 * way only the request's params depend on the path, and a path naming no parameter (the common
 * `/health`, `/users`) stops at the template test.
 */
export type PathParamsOf<G, S, Path extends string> = Path extends `${string}${':' | '*'}${string}`
  ? (ParamsStated<G, S> extends true ? unknown : { params: PathParams<Path> })
  : unknown

/** `route({ url, path })`'s path: `url` when given (it wins at run time), else `path`. */
export type RoutePathOf<Url extends string, Path extends string> = string extends Url ? Path : Url

// A route generic naming Params, or a params schema (one TypeScript cannot read too: it may coerce), wins.
type ParamsStated<G, S> = NamesParams<G> extends true ? true : [RouteParts<S>['params']] extends [undefined] ? false : true
