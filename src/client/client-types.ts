import type { Opaque, SchemaType, StandardSchemaLike } from '../runtime/typed-schemas'
import type { RawBody } from './request-body'
import type { PathParamNames, PathParams } from '../runtime/path-params-type'
import type { ContractRoute } from '../contract/define-contract'

/*
 * Types only: what a typed client's call takes and answers, read from a contract route's schema
 * by the same SchemaType the server's handlers are typed with, so both ends read one schema alike.
 */

/**
 * The statuses IANA registers (RFC 9110 and the rest): what an answer's status may be. A status the
 * route does not declare is typed as one of these not declared, with an `unknown` body; a server
 * answering an unregistered status (299, 599) still gets through at run time, typed as the nearest lie.
 */
export type HttpStatus =
  | 100 | 101 | 102 | 103
  | 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 226
  | 300 | 301 | 302 | 303 | 304 | 305 | 307 | 308
  | 400 | 401 | 402 | 403 | 404 | 405 | 406 | 407 | 408 | 409 | 410 | 411 | 412 | 413 | 414 | 415 | 416 | 417 | 418
  | 421 | 422 | 423 | 424 | 425 | 426 | 428 | 429 | 431 | 451
  | 500 | 501 | 502 | 503 | 504 | 505 | 506 | 507 | 508 | 510 | 511

type SchemaOf<R> = R extends { readonly schema: infer S } ? (S extends object ? S : {}) : {}
type PartSchema<S, K extends string> = S extends { readonly [P in K]: infer X } ? X : undefined
/**
 * A request part's type as the client sends it: the schema's, Opaque (unreadable), or undefined (no
 * schema for it). A Standard Schema's (zod's) is its input type, what it accepts before defaults and
 * coercion fill it (the server's handler reads the output): `z.string().default('x')` may be left out here.
 */
type Part<S, K extends string> = PartSchema<S, K> extends undefined ? undefined : PartSchema<S, K> extends StandardSchemaLike ? StandardInput<PartSchema<S, K>> : SchemaType<PartSchema<S, K>>
type StandardInput<X> = X extends { readonly '~standard': { readonly types?: infer T } } ? (NonNullable<T> extends { readonly input: infer I } ? I : Opaque) : Opaque
type QueryPart<S> = PartSchema<S, 'querystring'> extends undefined ? Part<S, 'query'> : Part<S, 'querystring'>

/** Optional when every property of `T` is. */
type Keyed<K extends string, T> = {} extends T ? { readonly [P in K]?: T } : { readonly [P in K]: T }
/** A path parameter's value: substituted as its string, percent-encoded. */
type PathValue = string | number
type PathValues<T> = { readonly [K in keyof T]: T[K] | number }

type ParamsArg<R extends ContractRoute, P> = [P] extends [undefined]
  ? ([PathParamNames<R['url']>] extends [never] ? { readonly params?: undefined } : { readonly params: PathValues<PathParams<R['url']>> })
  : P extends Opaque ? { readonly params: Readonly<Record<string, PathValue>> } : Keyed<'params', P>
/** A query value: strings, numbers and booleans as their text, an array as the name repeated. */
export type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | undefined
type QueryArg<Q> = [Q] extends [undefined] ? { readonly query?: Readonly<Record<string, QueryValue>> }
  : Q extends Opaque ? { readonly query?: Readonly<Record<string, QueryValue>> } : Keyed<'query', Q>
type BodyArg<R extends ContractRoute, B> = ConsumesRaw<SchemaOf<R>> extends true ? { readonly body: RawBody }
  : [B] extends [undefined] ? (R['method'] extends 'GET' | 'HEAD' ? { readonly body?: undefined } : { readonly body?: unknown })
  : B extends Opaque ? { readonly body?: unknown } : undefined extends B ? { readonly body?: B } : { readonly body: B }
/** A route whose schema `consumes` only media types that are no JSON (`['multipart/form-data']`): its body is sent as fetch sends it (request-body.ts). */
type ConsumesRaw<S> = S extends { readonly consumes: readonly (infer M)[] } ? ([M] extends [never] ? false : Extract<M, `${string}json${string}`> extends never ? (string extends M ? false : true) : false) : false
type HeadersArg<H> = [H] extends [undefined] ? { readonly headers?: Readonly<Record<string, string | undefined>> }
  : H extends Opaque ? { readonly headers?: Readonly<Record<string, string | undefined>> } : Keyed<'headers', H>

/** A call's own options, next to the request parts. */
export interface CallOptions {
  /** Aborts the call: the promise rejects with the signal's reason (an `AbortError` by default). */
  readonly signal?: AbortSignal
}

/** What a call to the contract route `R` takes: its typed parts (required when the schema requires them) and {@link CallOptions}. */
export type ClientRequest<R extends ContractRoute> = SchemaOf<R> extends infer S
  ? ParamsArg<R, Part<S, 'params'>> & QueryArg<QueryPart<S>> & BodyArg<R, Part<S, 'body'>> & HeadersArg<Part<S, 'headers'>> & CallOptions
  : never

type Exact<K> = K extends number ? K : K extends `${infer N extends number}` ? N : never
type ClassDigit<K> = K extends `${infer D extends '1' | '2' | '3' | '4' | '5'}${'xx' | 'XX'}` ? D : never
type InClass<D extends string> = HttpStatus extends infer H ? (H extends number ? (`${H}` extends `${D}${string}` ? H : never) : never) : never
type RangeOf<M> = InClass<ClassDigit<keyof M>>
/** The statuses a response key stands for: the exact status, its range's undeclared ones, or what is left (`default`). */
type StatusesOf<K, M> = K extends 'default' ? Exclude<HttpStatus, Exact<keyof M> | RangeOf<M>>
  : ClassDigit<K> extends never ? Exact<K> : Exclude<InClass<ClassDigit<K>>, Exact<keyof M>>
type Covered<M> = 'default' extends keyof M ? HttpStatus : Exact<keyof M> | RangeOf<M>

type BodyOf<X> = SchemaType<X> extends infer T ? (T extends Opaque ? unknown : T) : unknown

/** One answer: its status, its body (JSON parsed; text otherwise), its headers. */
export interface ClientAnswer<Status extends number, Body> {
  readonly status: Status
  readonly body: Body
  readonly headers: Headers
}
type Answer<Status, Body> = [Status] extends [never] ? never : Status extends number ? ClientAnswer<Status, Body> : never
/** The statuses whose answer has no content (RFC 9110 §15.3.5, §15.3.6, §15.4.5): the client answers `undefined` whatever a schema says. */
type NoContentStatus = 204 | 205 | 304
type One<Status, Body> = [Status] extends [never] ? never : ClientAnswer<Status & number, Body>
// A key's statuses as one member (a no-content status apart, its body `undefined`; a HEAD route's every body).
type AnswerOfKey<Status, Body, Method> = Method extends 'HEAD' ? One<Status, undefined>
  : One<Exclude<Status, NoContentStatus>, Body> | One<Extract<Status, NoContentStatus>, undefined>
// One answer per response key (a range's or default's statuses as one union), so `status ===` narrows.
type Declared<M, Method> = { [K in keyof M]-?: AnswerOfKey<StatusesOf<K, M>, BodyOf<M[K]>, Method> }[keyof M]

/**
 * What a call to `R` resolves to: a union discriminated by `status`, one member per declared
 * response (its body typed by the schema) and one for the statuses the route does not declare,
 * whose body is `unknown`. Read `body` after narrowing `status`. A 204, 205 or 304, and any answer
 * to a HEAD route, has no content: its body is `undefined`, whatever the schema of its status says.
 */
export type ClientResult<R extends ContractRoute> = SchemaOf<R> extends { readonly response: infer M }
  ? Declared<M, R['method']> | Answer<Exclude<HttpStatus, Covered<M>>, unknown>
  : ClientAnswer<HttpStatus, unknown>

/** The call for route `R`: its request argument optional when nothing in it is required. */
export type ClientCall<R extends ContractRoute> = {} extends ClientRequest<R>
  ? (request?: ClientRequest<R>) => Promise<ClientResult<R>>
  : (request: ClientRequest<R>) => Promise<ClientResult<R>>

/** The typed client of a contract: one call per route, by name. */
export type Client<C> = { readonly [K in keyof C]: C[K] extends ContractRoute ? ClientCall<C[K]> : never }
