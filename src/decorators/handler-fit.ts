import type { Reply, Request, RequestOf } from '../runtime/types'
import type { Opaque, ResponseOf, RouteParts, schemaClassMark } from '../runtime/typed-schemas'
import type { WithoutOpenIndex } from '../runtime/open-index'
import type { IsCustomParam } from './custom-param'
import type { IsSchemaParam } from './schema-param'
import type { IsIntercepted } from './intercepted'
import type { AsWritten } from '../runtime/as-written'
import type { kServerBase } from '../runtime/request-with'
import type { PathMark, PathParams } from '../runtime/path-params-type'

/*
 * Types only: what a route decorator checks about the method it decorates (decorators cannot
 * change a method's type, but their signature can refuse one). A parameter fits when something
 * the route can pass is assignable to it: the request, the reply, a whole request part or one
 * property of a part (the parameter decorators choose which, and TypeScript cannot see them), or
 * when its type is a schema class (the parameter then declares the part's schema itself), or when
 * it is a `CustomParam<T>` (a createParamDecorator() decorator fills it and checks its type).
 * The return type must fit the declared response schemas. Parts whose schema TypeScript cannot
 * read accept anything.
 */

type IsAny<T> = 0 extends 1 & T ? true : false
type KnownValues<T> = T extends object ? { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] } extends infer V ? V[keyof V] : never : never

/** What an absent part is at run time: strings from the URL and the headers, an unvalidated body. */
interface AbsentParts {
  body: { whole: unknown; property: unknown }
  query: { whole: Record<string, string | string[]>; property: string | string[] }
  params: { whole: Record<string, string>; property: string }
  headers: { whole: Record<string, string>; property: string | string[] | undefined }
}

type Whole<T, K extends keyof AbsentParts, S> = [T] extends [undefined] ? (K extends 'params' ? AbsentParams<S> : AbsentParts[K]['whole']) : T
// The names the route's path literal declares are there (`@Params() p: PathParams<'/users/:id'>`);
// others may come from the controller's prefix, which the route decorator cannot see.
type AbsentParams<S> = S extends PathMark<infer Path> ? PathParams<Path> & AbsentParts['params']['whole'] : AbsentParts['params']['whole']
type Property<T, K extends keyof AbsentParts> = [T] extends [undefined] ? AbsentParts[K]['property'] : KnownValues<T>

type AnyOpaque<S> = { [K in keyof RouteParts<S>]: RouteParts<S>[K] extends Opaque ? true : never }[keyof RouteParts<S>] extends never ? false : true

// Kept apart (not one union) so an `unknown` candidate cannot swallow the others.
type Candidates<S> = { request: RequestOf<S> | Request; reply: Reply }
  & { [K in keyof AbsentParts as `${K}`]: Whole<RouteParts<S>[K], K, S> }
  & { [K in keyof AbsentParts as `${K}.property`]: Property<RouteParts<S>[K], K> }
type AnyCandidateFits<C, P> = true extends { [K in keyof C]: SomeMemberFits<C[K], P> }[keyof C] ? true : false

/** Some member of the union C is assignable to P. */
type SomeMemberFits<C, P> = true extends (C extends unknown ? ([C] extends [P] ? true : false) : never) ? true : false

/**
 * `RequestWith<typeof plugin>` / `ReplyWith<...>`: the request or reply plus a typed plugin's
 * decorations (@Requires makes boot check the plugin is registered; nothing here can see that),
 * and `RequestOn<'http2'>` / `ReplyOn<...>`: `raw` and `server` those of another server (the app's
 * options say which; nothing here can see them either).
 */
type IsDecorated<P, Base> = P extends { readonly [kServerBase]?: infer B } ? (unknown extends B ? IsBaseWith<P, Base> : IsBaseWith<B, Base>) : IsBaseWith<P, Base>
// Base's own members keep their types in P (a parameter may add members, not narrow `body`).
// Methods are left out: an intersection only adds overloads to them, and Reply's methods return
// `this`, which in P is P, so `Reply & { generateCsrf(): string }` would never read as Reply plus.
type IsBaseWith<P, Base> = P extends Base ? (false extends { [K in keyof Base]-?: Base[K] extends (...args: never[]) => unknown ? true : [Base[K]] extends [P[K & keyof P]] ? true : false }[keyof Base] ? false : true) : false

type ParamFits<S, P> = IsAny<P> extends true ? true
  : unknown extends P ? true
  : IsDecorated<P, Request> extends true ? true
  : IsDecorated<P, Reply> extends true ? true
  : typeof schemaClassMark extends keyof P ? true
  : IsCustomParam<P> extends true ? true
  : IsSchemaParam<P> extends true ? true
  : AnyOpaque<S> extends true ? true
  : AnyCandidateFits<Candidates<S>, P>

/**
 * The schema classes among the parameters (`@Params() p: BookId`): each is its part's schema, so a
 * named parameter of that part (`@Params('id') id: number`) may take one of its properties' types.
 * Which part is the decorators' to say, so any class's properties count.
 */
type ClassParams<P extends readonly unknown[]> = P[number] extends infer T ? (T extends unknown ? (typeof schemaClassMark extends keyof T ? T : never) : never) : never
type ClassProperty<C> = C extends unknown
  ? { [K in keyof C as K extends typeof schemaClassMark ? never : string extends K ? never : number extends K ? never : K]-?: C[K] } extends infer V ? V[keyof V] : never
  : never
type ClassPropertyFits<P extends readonly unknown[], T> = [ClassProperty<ClassParams<P>>] extends [never] ? false : SomeMemberFits<ClassProperty<ClassParams<P>>, T>

type BadParams<S, P extends readonly unknown[]> = { [I in keyof P]: ParamFits<S, P[I]> extends true ? never : ClassPropertyFits<P, P[I]> extends true ? never : I }[number]

/** `unknown` (no constraint) when the method fits the route `S`, else an object naming the misfit. */
export type HandlerFit<S, M> = M extends (...args: infer P) => infer R
  ? ([BadParams<S, P>] extends [never] ? unknown : { 'handler parameter(s) at these indexes that no part of the request can fill: give the route a schema for that part (params, querystring, body) of that type, type it string, or remove it': BadParams<S, P> })
    & (unknown extends ResponseOf<S> ? unknown
      // An interceptor answers for it (intercepted.ts).
      : IsIntercepted<Awaited<R>> extends true ? unknown
      : [Awaited<R>] extends [ResponseOf<S> | Reply | void | undefined] ? unknown
      // An interface-typed value against an open object schema (open-index.ts).
      : [Awaited<R>] extends [WithoutOpenIndex<ResponseOf<S>>] ? unknown
      // Dates and BigInts, as the serializer writes them (as-written.ts).
      // AsWritten is read lazily, so a recursive row type (a tree) is checked, not expanded whole.
      // A reply beside the value (`return reply.code(304).send()` on one branch) is what the route
      // sent itself: it stays out of the reading, which would map the reply's members too.
      : [AsWritten<Exclude<Awaited<R>, Reply>>] extends [ResponseOf<S> | void | undefined] ? unknown
      : [AsWritten<Exclude<Awaited<R>, Reply>>] extends [WithoutOpenIndex<ResponseOf<S>>] ? unknown
      : { 'handler return type that breaks the response schema; expected': ResponseOf<S> })
  : unknown

/**
 * A method decorator typed for the route `S`: on a method whose parameters or return type do not
 * fit, `@Post(...)` does not compile.
 */
export type RouteMethodDecorator<S> = <M extends (...args: any[]) => unknown>(
  target: object, propertyKey: string | symbol, descriptor: TypedPropertyDescriptor<M> & HandlerFit<S, M>) => void
