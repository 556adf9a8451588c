import type { RouteGeneric } from './route-generic'
import type { ResponseOf, ResponseTypes } from './typed-schemas'

/*
 * Types only: `reply.code(201).send(x)` narrowed by the status, as Fastify 4+'s type providers
 * narrow `reply.code()`. A route whose response schemas TypeScript reads gets a reply generic that
 * carries, next to the union `Reply`, each status's type under `~status`; `code(c)` with a literal
 * status picks that status's type (the exact key, else its `2xx` range, else `default`). A
 * computed status (typed `number`) keeps the union, and a reply without response schemas is untouched.
 */

/** The reply generic of a route with readable response schemas: the union, and each status's type (`M`: response key to type). */
export interface StatusReplyGeneric<U, M> extends RouteGeneric { Reply: U; readonly '~status': M }

/**
 * What `send()` takes after `code(c)` for a status with no response schema: nothing can be sent
 * that the route would not serialize (the message names the status, in place of a bare `never`).
 */
export interface NoResponseSchemaFor<C extends number> { readonly 'no response schema declared for status': C }

/** The reply generic after `code(c)`: `G` narrowed to status `C`'s type when `G` carries the statuses and `C` is a literal. */
export type CodedGeneric<G extends RouteGeneric, C extends number> = number extends C ? G
  : G extends { readonly '~status': infer M } ? StatusReplyGeneric<StatusType<M, C>, M> : G

type StatusType<M, C extends number> = C extends keyof M ? M[C]
  : `${C}` extends keyof M ? M[`${C}` & keyof M]
  : RangeType<M, C, `${C}` extends `${infer D}${string}` ? D : never>
type RangeType<M, C extends number, D extends string> = `${D}xx` extends keyof M ? M[`${D}xx` & keyof M]
  : `${D}XX` extends keyof M ? M[`${D}XX` & keyof M]
  : 'default' extends keyof M ? M['default' & keyof M] : NoResponseSchemaFor<C>

/**
 * The body the route schema `S` declares for status `C`, by the same rule as `reply.code(C)` (the
 * exact key, else its `2xx` range, else `default`): what a test reads an inject() answer as,
 * `res.json<ResponseAt<typeof schema, 201>>()`. `unknown` when the schema's responses are not
 * readable; NoResponseSchemaFor<C> for a status it does not declare (no property reads there).
 */
export type ResponseAt<S, C extends number> = unknown extends ResponseOf<S> ? unknown : StatusType<ResponseTypes<S>, C>
