import type { ReplyBase, RequestBase } from './types'

/*
 * Types only: what Fastify plugins (the @fastify/* packages) add to a request, a reply or an
 * instance, read from their own declarations. A plugin types its decorations by augmenting
 * `fastify`'s FastifyRequest / FastifyReply / FastifyInstance; Enclave's types cannot import
 * `fastify` (it is not a dependency, and an app without it must still compile), so the app hands
 * the augmented interfaces over in one `declare module 'enclave'` block (docs/schemas-and-types.md, "Typed handlers"):
 *
 *   import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
 *   import type { FastifyRequestDecorations, FastifyReplyDecorations, FastifyInstanceDecorations } from 'enclave'
 *   declare module 'enclave' {
 *     interface RequestDecorations extends FastifyRequestDecorations<FastifyRequest> {}
 *     interface ReplyDecorations extends FastifyReplyDecorations<FastifyReply> {}
 *     interface ScopeDecorations extends FastifyInstanceDecorations<FastifyInstance> {}
 *   }
 *
 * A decoration is a member Fastify's own interface does not declare: the interfaces are merged
 * with every augmentation, so Fastify's own members are named here (Fastify 3 to 5's, and
 * Enclave's request members: Enclave's own type always wins). Symbol-keyed members (Fastify 5's
 * `[Symbol.asyncDispose]`) are left out: Enclave's scope has none.
 */

type FastifyRequestOwn =
  | 'id' | 'params' | 'raw' | 'query' | 'headers' | 'log' | 'server' | 'body' | 'req' | 'ip' | 'ips'
  | 'host' | 'port' | 'hostname' | 'url' | 'originalUrl' | 'protocol' | 'method' | 'routeOptions'
  | 'is404' | 'socket' | 'signal' | 'mediaType' | 'validationError' | 'getValidationFunction'
  | 'compileValidationSchema' | 'validateInput' | 'getDecorator' | 'setDecorator'
  // Fastify 3/4's
  | 'connection' | 'context' | 'routerMethod' | 'routerPath' | 'routeConfig' | 'routeSchema'

type FastifyReplyOwn =
  | 'callNotFound' | 'code' | 'compileSerializationSchema' | 'elapsedTime' | 'getDecorator' | 'getHeader'
  | 'getHeaders' | 'getSerializationFunction' | 'hasHeader' | 'hasTrailer' | 'header' | 'headers'
  | 'hijack' | 'log' | 'raw' | 'redirect' | 'removeHeader' | 'removeTrailer' | 'request'
  | 'routeOptions' | 'send' | 'sent' | 'serialize' | 'serializeInput' | 'serializer' | 'server'
  | 'status' | 'statusCode' | 'then' | 'trailer' | 'type' | 'writeEarlyHints' | 'setDecorator'
  // Fastify 3/4's
  | 'context' | 'getResponseTime'

type FastifyInstanceOwn =
  | 'addConstraintStrategy' | 'addContentTypeParser' | 'addHook' | 'addHttpMethod' | 'addSchema'
  | 'addresses' | 'after' | 'all' | 'childLoggerFactory' | 'close' | 'copy' | 'decorate'
  | 'decorateReply' | 'decorateRequest' | 'defaultTextParser' | 'delete' | 'errorHandler' | 'findRoute'
  | 'get' | 'getDecorator' | 'getDefaultJsonParser' | 'getSchema' | 'getSchemas' | 'hasConstraintStrategy'
  | 'hasContentTypeParser' | 'hasDecorator' | 'hasPlugin' | 'hasReplyDecorator' | 'hasRequestDecorator'
  | 'hasRoute' | 'head' | 'initialConfig' | 'inject' | 'listen' | 'listeningOrigin' | 'lock' | 'log'
  | 'mkcalendar' | 'mkcol' | 'move' | 'onClose' | 'options' | 'patch' | 'pluginName' | 'post' | 'prefix'
  | 'printPlugins' | 'printRoutes' | 'propfind' | 'proppatch' | 'put' | 'query' | 'ready' | 'register'
  | 'removeAllContentTypeParsers' | 'removeContentTypeParser' | 'report' | 'route' | 'routing' | 'search'
  | 'serializerCompiler' | 'server' | 'setChildLoggerFactory' | 'setErrorHandler' | 'setGenReqId'
  | 'setNotFoundHandler' | 'setReplySerializer' | 'setSchemaController' | 'setSchemaErrorFormatter'
  | 'setSerializerCompiler' | 'setValidatorCompiler' | 'supportedMethods' | 'trace' | 'unlock'
  | 'validatorCompiler' | 'version' | 'withTypeProvider'
  // Fastify 3/4's
  | 'getDefaultRoute' | 'setDefaultRoute'

type Decorations<T, Own extends string, Holder> = CalledOn<Pick<T, Exclude<Extract<keyof T, string>, Own>>, Holder>

/*
 * A plugin method typed `this: FastifyRequest` (@fastify/passport's `request.isAuthenticated()`,
 * `request.logIn()`) cannot be called on Enclave's request as declared: its `this` is checked
 * against the request, which is not a FastifyRequest (Fastify 5's `req`, `originalUrl`,
 * `mediaType`, a FastifyInstance `server`). At run time such a method reads the members the plugin
 * itself decorated (passport's `user`, `session`), which Enclave's request has once the plugin is
 * registered, so the method is retyped `this: Holder` (Enclave's request, reply or scope): called
 * on one it compiles, detached (`const f = request.isAuthenticated; f()`) it still does not.
 * Overloads are kept up to three (passport's `logIn(user)` and `logIn(user, options)`); a generic
 * one keeps one type parameter, over its first parameter (Sig below: `request.logIn<User>(user)`).
 * Members without a declared `this` (most: `request.jwtVerify()`, `reply.setCookie()`) are left as
 * they are, generics included.
 */
// Homomorphic (over the Pick), so optional and readonly members stay so.
type CalledOn<D, Holder> = { [K in keyof D]: undefined extends D[K] ? D[K] : unknown extends ThisParameterType<D[K]> ? D[K] : Rebound<D[K], Holder> }

type Rebound<F, Holder> =
  F extends { (this: never, ...args: infer A1): infer R1; (this: never, ...args: infer A2): infer R2; (this: never, ...args: infer A3): infer R3 }
    ? Same<[A1, R1], [A2, R2]> extends true ? Rebound2<F, Holder> : Sig<A1, R1, Holder> & Sig<A2, R2, Holder> & Sig<A3, R3, Holder>
    : Rebound2<F, Holder>
type Rebound2<F, Holder> =
  F extends { (this: never, ...args: infer A1): infer R1; (this: never, ...args: infer A2): infer R2 }
    ? Same<[A1, R1], [A2, R2]> extends true ? Rebound1<F, Holder> : Sig<A1, R1, Holder> & Sig<A2, R2, Holder>
    : Rebound1<F, Holder>
// A function with fewer overloads than a pattern matches it with its first signature repeated.
type Same<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false
type Rebound1<F, Holder> = F extends (this: never, ...args: infer A) => infer R ? Sig<A, R, Holder> : F
/*
 * One signature, `this` retyped. Its type parameters cannot be carried over (inference reads them
 * at their constraints), but the common generic one is rebuilt: a required first parameter becomes
 * `<T extends First = First>(first: T, ...)`, so passport's `logIn<T = unknown>(user: T)` takes
 * `request.logIn<User>(user)` and checks `user` against `User`. For a method that was not generic
 * the type parameter changes nothing: it accepts what the first parameter accepted.
 */
// [A] and not A: a rest parameter typed as a union of tuples (@fastify/flash's
// `...message: string[] | [string[]]`) must stay one signature; distributed, it became a union of
// functions whose call intersects their parameters (`string & string[]`).
type Sig<A extends readonly unknown[], R, Holder> = [A] extends [readonly [infer First, ...infer Rest]]
  ? <T extends First = First>(this: Holder, ...args: [first: T, ...rest: Rest]) => R
  : (this: Holder, ...args: A) => R

/** What the Fastify plugins the program imports add to `FastifyRequest` (`request.cookies`, `request.jwtVerify()`, `request.file()`). */
export type FastifyRequestDecorations<FastifyRequest> = Decorations<FastifyRequest, FastifyRequestOwn | keyof RequestBase, RequestBase>
/** What they add to `FastifyReply` (`reply.setCookie()`, `reply.jwtSign()`, `reply.sendFile()`); the ones that return a reply return a FastifyReply. */
export type FastifyReplyDecorations<FastifyReply> = Decorations<FastifyReply, FastifyReplyOwn, ReplyBase>
/** What they add to `FastifyInstance` (`app.jwt`, `app.httpErrors`, `app.multipartErrors`). */
export type FastifyInstanceDecorations<FastifyInstance> = Decorations<FastifyInstance, FastifyInstanceOwn, object>
