import type { IncomingHttpHeaders } from 'node:http'
import type { TypedParts } from './typed-parts'

/*
 * Types only: Fastify's route generics (`app.get<{ Params: { id: string } }>(...)`,
 * `FastifyRequest<{ Params: ... }>`), for code written against Fastify's types. A generic states
 * a part's type; nothing checks it at run time (a route schema does: prefer one where you can).
 *
 * Which wins when a route has both: Fastify 4/5's rule (type-provider.d.ts), part by part: a part
 * the generic names is the generic's, any other part is the schema's (or untyped). Fastify 3 had
 * no type providers, so its generics were the only source. As in Fastify, giving the generic
 * explicitly (`app.get<G>(...)`) also gives up inferring the schema for that call: TypeScript
 * infers no type parameter once one is given, so the parts the generic leaves out read untyped.
 */

/** Fastify's RouteGenericInterface: the types a route's parts and answer are declared to have. */
export interface RouteGeneric {
  Body?: unknown
  Querystring?: unknown
  Params?: unknown
  Headers?: unknown
  Reply?: unknown
}

/** Fastify's name for {@link RouteGeneric}. */
export type RouteGenericInterface = RouteGeneric

type GenericKey = keyof RouteGeneric
// Fastify's KeysOf: a part is named when its type has keys, so `unknown` (the default) names nothing.
// `never` names nothing either: while TypeScript is still inferring `G`, a handler's contextual
// return type sees it as never (`() => new Promise(...)` must get the untyped answer, not Reply's).
type KeysOf<T> = T extends unknown ? keyof T : never
type Named<G, K extends GenericKey> = [G] extends [never] ? false
  : G extends { readonly [P in K]?: infer T } ? ([KeysOf<T>] extends [never] ? false : true) : false
type Stated<G, K extends GenericKey> = G extends { readonly [P in K]?: infer T } ? Exclude<T, undefined> : never
type Part<G, K extends GenericKey, Fallback> = Named<G, K> extends true ? Stated<G, K> : Fallback

/** A request's parts: the generic's where it names them, else the schema `S`'s (or the untyped defaults). */
export interface GenericParts<G, S> {
  body: Part<G, 'Body', TypedParts<S>['body']>
  query: Part<G, 'Querystring', TypedParts<S>['query']>
  params: Part<G, 'Params', TypedParts<S>['params']>
  // Fastify's `RawRequest['headers'] & Headers`: the stated headers and Node's usual ones.
  headers: Named<G, 'Headers'> extends true ? IncomingHttpHeaders & Stated<G, 'Headers'> : TypedParts<S>['headers']
}

/** True when `G` names at least one request part (Body, Querystring, Params or Headers). */
export type NamesAPart<G> = true extends Named<G, 'Body'> | Named<G, 'Querystring'> | Named<G, 'Params'> | Named<G, 'Headers'> ? true : false

/** True when `G` names the params (the path's own names then give way to it: route-path-params.ts). */
export type NamesParams<G> = Named<G, 'Params'>

/** True when `G` names the answer (`Reply`). */
export type NamesReply<G> = Named<G, 'Reply'>

/** What `reply.send()` takes: the generic's Reply, or anything. */
export type ReplyPayload<G> = Part<G, 'Reply', unknown>
