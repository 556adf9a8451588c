import type { Provided } from './shared/provided'

/*
 * Types only: a route's `config` typed (Fastify 5's ContextConfig). The route shortcuts and route()
 * infer `C` from the `config` given; the handler and the route's own hooks then read it typed as
 * `request.routeConfig`, `request.routeOptions.config` and `request.context.config`. A route without
 * `config` keeps the untyped record, and so does a hook added with addHook() (it covers routes
 * with other configs).
 */

/** What a route's `config` is without a type: a record of anything. */
export type RouteConfigShape = Record<string, unknown>

/** The request members that read a route's config, typed `C` (Fastify 5: `request.routeOptions.config`). */
export interface RouteConfigView<C> {
  readonly routeConfig: C
  readonly context: { readonly config: C }
  readonly routeOptions: { readonly config: C }
}

/** `P` (what a scope's type provides) with the request's config typed `C`; `P` itself when no config was given. */
export type WithRouteConfig<P extends Provided, C> = RouteConfigShape extends C ? P
  : { readonly request: P['request'] & RouteConfigView<C>; readonly reply: P['reply']; readonly scope: P['scope'] }

/**
 * A request type with its route config typed `C`, for a handler declared apart or a controller
 * method (`@Req() request: ConfiguredRequest<Request, { public: boolean }>`): nothing checks it
 * against the route's `config`, as with Fastify's generics.
 */
export type ConfiguredRequest<Req, C> = Req & RouteConfigView<C>
