import type { DestinationStream, LoggerOptions } from 'pino'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse, Server } from 'node:http'
import type { Readable } from 'node:stream'
import type { AddressInfo, Socket } from 'node:net'
import type { TlsOptions } from 'node:tls'
import type { ConstraintStrategy, VersioningOptions } from './shared/custom-constraints'
import type { Settings as Http2Settings } from 'node:http2'
import type { BuiltInName, Uncheckable, UndeclaredName, UnprovidedName } from './declared-name'
import type { GenericParts, NamesAPart, NamesReply, ReplyPayload, RouteGeneric } from './route-generic'
import type { CodedGeneric, StatusReplyGeneric } from './reply-status'
import type { HasTypedParts, NoUnknownSchemaKeys, ResponseOf, ResponseTypes, SchemaClassType, StandardSchemaLike, TypeBoxKinded, TypeBoxLike, TypedRouteSchema } from './typed-schemas'
import type { TypedParts } from './typed-parts'
import type { AnySerializerCompiler, AnyValidatorCompiler, ValidatorCompiler, SerializerCompiler, ReplySerializer, SerializerOptions, SchemaErrorFormatter, SchemaControllerOptions, ValidatorOptions, RouteSchema, RouteSchemaAnnotations, SharedSchema, JsonSchema } from './schemas/types'
import type { Inspection, RouteInspection, ScopeAnnotation, ScopeInspection } from './shared/introspection'
import type { OpenApiDocument, OpenApiInfo, OpenApiOptions } from './shared/openapi-types'
import type { SchemaCompilation } from './shared/schema-compilation'
import type { EachWithoutOpenIndex, OrWithoutOpenIndex } from './open-index'
import type { BootProfile } from './shared/boot-profile'
import type { ReplySerializationApi, RequestSchemaApi, ScopeRouteLookup } from './fastify-api-types'
import type { MergeProvided, NothingProvided, Provided, ProvidingPlugin, RequiringPlugin, WithProvided, kProvided } from './shared/provided'
import type { RawIn, RawMarkOf, RawSeenIn, RawServerTypes, kRawServer } from './shared/raw-server'
import type { RouteConfigShape, WithRouteConfig } from './route-config'
import type { HasPathParams } from './path-params-type'
import type { PathParamsOf, RoutePathOf } from './route-path-params'
import type { WrittenResult } from './written-result'
import type { FastifyTypedHook, FastifyTypedHookIn } from './fastify-typed-hook'

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

/**
 * Properties that request decorators add, declared by the application through declaration merging,
 * so `request.tenant` has a type on every route instead of `unknown`:
 *
 * @example
 * declare module 'enclave' {
 *   interface RequestDecorations { tenant: string }
 * }
 * @DecorateRequest('tenant', '')        // checked against the declaration: a number here does not compile
 * @Module({ controllers: [NotesController] })
 * class TenantModule {}
 *
 * The declaration is global to the program; the runtime still decides where the decorator is
 * visible (spec §3.3.6): on a route outside the declaring module's context it reads `undefined`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface RequestDecorations {}

/**
 * The value `decorateRequest(name, value)` / `@DecorateRequest(name, value)` accepts for `name`:
 * when `name` is declared in {@link RequestDecorations}, a value, a `{ getter, setter? }` pair or a
 * `{ factory }` of that type (an object value is refused at boot: it would be shared by every
 * request), or `null`: Fastify's placeholder (`decorateRequest('user', null)`, set by a hook before
 * the handler reads it), accepted even where the declared type has no null, as Fastify's types
 * accept it. A name must be declared to be decorated (DeclaredName: `request.<name>` could not be read otherwise).
 */
// `R`: the decorations a typed plugin's scope provides (`lift(plugin, { provides })`), besides the global ones.
export type RequestDecorationValue<K extends string | symbol, R = {}> = K extends keyof R
  ? CalledOnHolder<R[K], Request> | null
    | { getter: (this: Request) => R[K]; setter?: (this: Request, value: R[K]) => void }
    | { factory: (request: Request) => R[K] }
  : K extends keyof RequestDecorations
  ? CalledOnHolder<RequestDecorations[K], Request> | null
    | { getter: (this: Request) => RequestDecorations[K]; setter?: (this: Request, value: RequestDecorations[K]) => void }
    | { factory: (request: Request) => RequestDecorations[K] }
  : unknown

/**
 * The value `decorateReply(name, value)` / `@DecorateReply(name, value)` accepts for `name`, as
 * {@link RequestDecorationValue} for the request: when `name` is declared in {@link ReplyDecorations},
 * a value, a `{ getter, setter? }` pair or a `{ factory }` of that type, or the `null` placeholder.
 */
export type ReplyDecorationValue<K extends string | symbol, Y = {}> = K extends keyof Y
  ? CalledOnHolder<Y[K], Reply> | null
    | { getter: (this: Reply) => Y[K]; setter?: (this: Reply, value: Y[K]) => void }
    | { factory: (reply: Reply) => Y[K] }
  : K extends keyof ReplyDecorations
  ? CalledOnHolder<ReplyDecorations[K], Reply> | null
    | { getter: (this: Reply) => ReplyDecorations[K]; setter?: (this: Reply, value: ReplyDecorations[K]) => void }
    | { factory: (reply: Reply) => ReplyDecorations[K] }
  : unknown

/**
 * The name `decorateRequest` / `@DecorateRequest` may give: one declared in {@link RequestDecorations}
 * (`request.<name>` could not be read otherwise: Request has no catch-all); an undeclared one fails
 * with a message saying where to declare it (declared-name.ts). Written against the interface itself,
 * not passed as a type argument, as RequestDecorationValue is.
 */
export type DeclaredRequestName<K extends string | symbol, R = {}> = Uncheckable<K> extends true ? K
  : K extends keyof RequestDecorations | keyof R ? K : K extends keyof Request ? BuiltInName<K & string, 'Request'>
  : [keyof R] extends [never] ? UndeclaredName<K & string, 'RequestDecorations'> : UnprovidedName<K & string, 'request', 'RequestDecorations'>
/** The same for `decorateReply` / `@DecorateReply` and {@link ReplyDecorations}. */
export type DeclaredReplyName<K extends string | symbol, Y = {}> = Uncheckable<K> extends true ? K
  : K extends keyof ReplyDecorations | keyof Y ? K : K extends keyof Reply ? BuiltInName<K & string, 'Reply'>
  : [keyof Y] extends [never] ? UndeclaredName<K & string, 'ReplyDecorations'> : UnprovidedName<K & string, 'reply', 'ReplyDecorations'>

/** The same for `decorate` and {@link ScopeDecorations} (Scope has no catch-all either); `D`: what a typed plugin's `provides.scope` lists. */
export type DeclaredScopeName<K extends string | symbol, D = {}> = Uncheckable<K> extends true ? K
  : K extends keyof ScopeDecorations | keyof D ? K : K extends keyof Scope ? BuiltInName<K & string, 'Scope'>
  : [keyof D] extends [never] ? UndeclaredName<K & string, 'ScopeDecorations'> : UnprovidedName<K & string, 'scope', 'ScopeDecorations'>
/**
 * A declared decoration that is a plain function, as `decorate*()` takes its value: called as
 * `holder.name()`, its `this` is the request, reply or scope it hangs on, so an unannotated
 * `function (status) { this.code(status) }` is typed as Fastify types it (`this: FastifyReply`),
 * not an implicit any. A function that declares its own `this`, or has members of its own
 * (a callable object), is taken as declared.
 */
type CalledOnHolder<T, Holder> = T extends (...args: infer A) => infer R
  ? unknown extends ThisParameterType<T> ? ([keyof T] extends [never] ? (this: Holder, ...args: A) => R : T) : T
  : T

/** The value `decorate(name, value)` accepts for a name declared in {@link ScopeDecorations} (or `D`): a value or a `{ getter, setter? }` pair of its type. */
export type ScopeDecorationValue<K extends string | symbol, D = {}> = K extends keyof D
  ? CalledOnHolder<D[K], Scope> | { getter: (this: Scope) => D[K]; setter?: (this: Scope, value: D[K]) => void }
  : K extends keyof ScopeDecorations
  ? CalledOnHolder<ScopeDecorations[K], Scope> | { getter: (this: Scope) => ScopeDecorations[K]; setter?: (this: Scope, value: ScopeDecorations[K]) => void }
  : unknown

/** What every request has, typed or not. */
export interface RequestBase extends RequestSchemaApi {
  /**
   * Fastify 5's getDecorator(): a request decoration the serving scope declares (a function comes
   * bound to the request); an undeclared name throws ENC_ERR_DEC_UNDECLARED.
   */
  getDecorator<K extends keyof RequestDecorations>(name: K): RequestDecorations[K]
  getDecorator<T>(name: string | symbol): T
  /** Fastify 5's setDecorator(): writes a declared request decoration; an undeclared name throws ENC_ERR_DEC_UNDECLARED. */
  setDecorator<K extends keyof RequestDecorations>(name: K, value: RequestDecorations[K]): void
  setDecorator<T>(name: string | symbol, value: T): void
  readonly id: string
  readonly raw: IncomingMessage
  /** Fastify's `request.socket`: the connection's socket (`raw.socket`), for its local port or TLS state. */
  readonly socket: IncomingMessage['socket']
  readonly method: string
  readonly url: string
  /** The route's declared path (`/users/:id`), or null for the not-found handler. */
  readonly routePath: string | null
  /** Set only when the route has `attachValidation: true` and validation failed (spec §2.6); else undefined, as in Fastify. */
  validationError: ValidationError | undefined
  /** Writable, as in Fastify: a hook may put a child in its place (`request.log = request.log.child({ tenant })`). */
  log: ServerLogger
  /** The route option `config` (an empty object when none was given). */
  readonly routeConfig: Record<string, unknown>
  /** True once the client went away before the reply was written. */
  readonly aborted: boolean
  /**
   * Aborts when the client goes away before the reply is written (reason: `ENC_ERR_REQUEST_ABORTED`)
   * or when handlerTimeout answered 503 (reason: the `ENC_ERR_HANDLER_TIMEOUT` error); never once
   * the reply is out. Hand it to fetch(), a database driver or a timer to stop work nobody will read.
   */
  readonly signal: AbortSignal
  /** The scope of the route being served (Fastify's `request.server`). */
  readonly server: Scope
  /** Fastify 3's `request.context.config`: the route's `config` (the same object as `reply.context`). */
  readonly context: { readonly config: Record<string, unknown> }
  /**
   * Fastify's `request.routeOptions`: the route's url, method, config, schema and other options, with
   * Fastify 5's fields (exposeHeadRoute and prefixTrailingSlash are absent in the not-found handler;
   * version is the request's Accept-Version once a route is versioned).
   */
  readonly routeOptions: Readonly<{
    url?: string; method?: string; config: Record<string, unknown>; schema?: RouteSchema; bodyLimit: number
    handlerTimeout: number; bodyTimeout: number; logLevel?: string; attachValidation?: boolean; exposeHeadRoute?: boolean
    prefixTrailingSlash?: 'both' | 'slash' | 'no-slash'; version?: string; [option: string]: unknown
  }>
  /** Fastify 3's name for the declared path. */
  readonly routerPath: string | undefined
  /** The client address; with `trustProxy`, the nearest untrusted X-Forwarded-For hop. */
  readonly ip: string | undefined
  /** With `trustProxy`: every address from the client to this server; otherwise undefined. */
  readonly ips: string[] | undefined
  /** The Host header (port included, as Fastify 3); X-Forwarded-Host from a trusted proxy. */
  readonly hostname: string | undefined
  /** Fastify 5's name for the same value as `hostname` (Host with its port). */
  readonly host: string | undefined
  /** The port the Host header (or a trusted X-Forwarded-Host) names; null when it names none. */
  readonly port: number | null
  readonly protocol: 'http' | 'https'
  readonly is404: boolean
}

/**
 * The request object handed to hooks and handlers of routes without a typed schema. Request
 * decorators appear as extra properties once declared in {@link RequestDecorations} (a Fastify
 * plugin's through `FastifyRequestDecorations`); an undeclared one (`request.usr`) does not
 * compile, as with FastifyRequest. `interface RequestDecorations { [name: string]: unknown }` in a
 * `declare module 'enclave'` block gives back the catch-all (any name, typed `unknown`).
 *
 * `Request<G>` is Fastify's `FastifyRequest<G>`: the parts `G` names (`{ Params: { id: string } }`,
 * see {@link RouteGeneric}) have the stated types, nothing checking them at run time; `S` (a route
 * schema) types the parts `G` leaves out.
 */
// NoInfer on the parts: `G` is inferred from a parameter declared `Request<G>` (type arguments
// against type arguments), never by matching a typed request's parts against GenericParts'
// conditional types, which is slow and, on large schema types, too deep.
export interface Request<G extends RouteGeneric = RouteGeneric, S = {}> extends RequestBase, RequestDecorations {
  params: NoInfer<GenericParts<G, S>['params']>
  query: NoInfer<GenericParts<G, S>['query']>
  body: NoInfer<GenericParts<G, S>['body']>
  /** Node's header type (as Fastify's): `authorization` is `string | undefined`. A headers schema TypeScript can read types them instead. */
  headers: NoInfer<GenericParts<G, S>['headers']>
}

/**
 * The request of a route whose schema TypeScript can read (`as const` objects, schema classes):
 * each part has its schema's type, and there is no catch-all index, so `request.bdy` does not compile.
 */
// A mapped type rather than an interface: an anonymous object type is assignable to an index
// signature (an interface is not), so a typed handler still fits where a `Handler` is expected
// when the app gives `Request` back its catch-all (`RequestDecorations { [name: string]: unknown }`).
export type TypedRequest<S> = { [K in keyof TypedRequestParts<S>]: TypedRequestParts<S>[K] }
type TypedRequestParts<S> = RequestBase & RequestDecorations & TypedParts<S>

/** The request type a handler of a route with schema `S` receives. */
// A route whose only typed part is its path's parameters gets Request with those params (the same
// interface otherwise, so a handler declared `(request: Request) => ...` fits as before).
export type RequestOf<S> = HasTypedParts<S> extends true ? TypedRequest<S> : HasPathParams<S> extends true ? Request<RouteGeneric, S> : Request

/**
 * What reply decorators (yours, or a plugin's such as @fastify/sensible's `reply.notFound()`) add,
 * declared by declaration merging as {@link RequestDecorations} is:
 *
 * @example
 * declare module 'enclave' {
 *   interface ReplyDecorations { notFound(message?: string): Reply }
 *   interface ScopeDecorations { httpErrors: { badRequest(message?: string): Error } }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ReplyDecorations {}

/** What `decorate()` adds to scopes (yours, or a plugin's such as @fastify/sensible's `httpErrors`); see {@link ReplyDecorations}. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ScopeDecorations {}

/**
 * The reply object. `send` may be called once; later calls are logged no-ops. `Reply<G>` is
 * Fastify's `FastifyReply` of a route generic: `send()` takes the `Reply` type `G` states.
 */
export interface Reply<G extends RouteGeneric = RouteGeneric> extends ReplyMembers {
  send(payload?: ReplyPayload<G>): this
  /**
   * On a route with response schemas, a literal status narrows what `send()` then takes to that
   * status's schema (`reply.code(201).send(created)`); a computed one keeps the union (reply-status.ts).
   */
  code<C extends number>(statusCode: C): Reply<CodedGeneric<G, C>>
  status<C extends number>(statusCode: C): Reply<CodedGeneric<G, C>>
}
/**
 * The reply, whatever its route generic. Reply decorators are members once declared in
 * {@link ReplyDecorations} (a Fastify plugin's through `FastifyReplyDecorations`); an
 * undeclared one does not compile, as on the request. What a handler may return names this rather than
 * `Reply<G>`: a union member that is a generic instance draws TypeScript's error elaboration away
 * from the response type (the message then lists Reply's missing members instead of the wrong field).
 */
export interface ReplyBase extends ReplyMembers {
  code(statusCode: number): this
  status(statusCode: number): this
  send(payload?: unknown): this
}
/**
 * What every reply has but the members its generic types (`send`, and `code` / `status`, which
 * narrow it): Reply<G> declares those itself, so its `code()` may return another Reply than `this`.
 */
export interface ReplyMembers extends ReplyDecorations, ReplySerializationApi {
  /** Fastify 5's getDecorator(): a declared reply decoration (a function comes bound to the reply); else ENC_ERR_DEC_UNDECLARED. */
  getDecorator<K extends keyof ReplyDecorations>(name: K): ReplyDecorations[K]
  getDecorator<T>(name: string | symbol): T
  readonly raw: ServerResponse
  readonly request: Request
  /** True once send() accepted a payload. */
  get sent(): boolean
  /** Fastify 3's deprecated form of hijack(): only true is taken (anything else throws ENC_ERR_REPLY_SENT_VALUE), so only true compiles. */
  set sent(value: true)
  statusCode: number
  header(name: string, value: string | number | readonly string[]): this
  headers(values: Record<string, string | number | readonly string[]>): this
  getHeader(name: string): string | number | readonly string[] | undefined
  removeHeader(name: string): this
  hasHeader(name: string): boolean
  type(contentType: string): this
  /** This reply's serializer (Fastify's). `T` is the payload type the function expects (`(rows: Row[]) => csv(rows)`); nothing checks it against what is sent. */
  serializer<T = unknown>(fn: (payload: T) => string): this
  /** The scope of the route being served (Fastify's `reply.server`). */
  readonly server: Scope
  /** Milliseconds since the request reached the framework (Fastify 4+'s `reply.elapsedTime`). */
  readonly elapsedTime: number
  /** Fastify 3's name for `elapsedTime`. */
  getResponseTime(): number
  /** Fastify 3's `reply.context.config`: the route's `config`. */
  readonly context: { readonly config: Record<string, unknown> }
  readonly log: ServerLogger
  getHeaders(): Record<string, string | number | readonly string[]>
  /** `redirect(url, code = 302)`; Fastify 3's `redirect(code, url)` is read too. */
  redirect(url: string, code?: number): this
  redirect(code: number, url: string): this
  /**
   * A 103 Early Hints response before the final one (Fastify 5's), sent only with a `link` hint,
   * before the head is written, to an HTTP/1.1+ client; the callback is called in every case.
   */
  writeEarlyHints(hints: Record<string, string | readonly string[]>, callback?: () => void): this
  /** Takes the response over: write to `reply.raw` yourself; the framework writes nothing more. */
  hijack(): this
  /** Answers with the not-found handler covering this URL, keeping the headers set so far. */
  callNotFound(): void
  /** The payload as the route's response schema for the current status would serialize it. */
  serialize(payload: unknown): string
}

/**
 * One entry of `error.validation` as Fastify 3 types it (ajv 6's error object, what the default
 * validator gives), so code moved from Fastify reads `error.validation[0].message` without casts.
 * A custom validator's entries are whatever it reports: read them through a cast from `unknown`,
 * as in Fastify.
 */
export interface ValidationResult {
  keyword: string
  dataPath: string
  schemaPath: string
  params: Record<string, string | string[]>
  message: string
  /** ajv's other fields (`schema`, `data` under `verbose`), or a custom validator's own. */
  [key: string]: unknown
}

export interface ValidationError extends Error {
  statusCode: number
  validation: ValidationResult[]
  validationContext: 'body' | 'params' | 'headers' | 'query'
}

export interface Logger {
  info(obj: unknown, msg?: string): void
  warn(obj: unknown, msg?: string): void
  error(obj: unknown, msg?: string): void
  debug(obj: unknown, msg?: string): void
  /** pino's other methods, called by plugins; the server fills in any a given logger lacks. */
  trace?(obj: unknown, msg?: string): void
  fatal?(obj: unknown, msg?: string): void
  child?(bindings: Record<string, unknown>): Logger
}

/**
 * The logger Enclave hands out (`request.log`, `reply.log`, `scope.log`): pino's, or the given one
 * completed with trace, fatal and child at boot, so `request.log.child({ ... })` needs no `!`
 * (Fastify's FastifyBaseLogger has them all too).
 */
export interface ServerLogger extends Logger {
  trace(obj: unknown, msg?: string): void
  fatal(obj: unknown, msg?: string): void
  child(bindings: Record<string, unknown>): ServerLogger
}

export type DoneFn = (error?: Error | null) => void
export type Handler = (this: Scope, request: Request, reply: Reply) => unknown
export type RequestHook = (this: Scope, request: Request, reply: Reply, done: DoneFn) => unknown
/** {@link RequestHook} on a {@link TypedScope}: `R`, `Y` are the request and reply decorations its plugins provide. */
export type TypedRequestHook<R, Y> = (this: ScopeServing<R>, request: Request & R, reply: Reply & Y, done: DoneFn) => unknown
export type PayloadHook = (this: Scope, request: Request, reply: Reply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => unknown
/** {@link PayloadHook} on a {@link TypedScope}. */
export type TypedPayloadHook<R, Y> = (this: ScopeServing<R>, request: Request & R, reply: Reply & Y, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => unknown
export type ErrorHook = (this: Scope, request: Request, reply: Reply, error: Error, done: DoneFn) => unknown
/** {@link ErrorHook} on a {@link TypedScope}. */
export type TypedErrorHook<R, Y> = (this: ScopeServing<R>, request: Request & R, reply: Reply & Y, error: Error, done: DoneFn) => unknown
/**
 * What an error handler receives: the value as thrown (a plain object or a string too, at run
 * time), typed as Fastify types it, so `reply.code(error.statusCode ?? 500)` and
 * `error.validation` read without casts.
 */
export type HandledError = Error & { statusCode?: number; code?: string; validation?: ValidationResult[]; validationContext?: string } & Record<string, unknown>
export type ErrorHandler = (this: Scope, error: HandledError, request: Request, reply: Reply) => unknown
/** {@link ErrorHandler} on a {@link TypedScope}: the request and reply carry its decorations (as its hooks do, whether or not a hook set them yet). */
export type TypedErrorHandler<R, Y> = (this: ScopeServing<R>, error: HandledError, request: Request & R, reply: Reply & Y) => unknown
export type NotFoundHandler = Handler
/** {@link NotFoundHandler} on a {@link TypedScope}. */
export type TypedNotFoundHandler<R, Y> = (this: ScopeServing<R>, request: Request & R, reply: Reply & Y) => unknown
/** Fastify's `setNotFoundHandler(options, handler)`: route-level hooks of the not-found route (`R`, `Y`: a TypedScope's decorations). */
// eslint-disable-next-line @typescript-eslint/ban-types
export interface NotFoundOptions<R = {}, Y = {}> {
  preValidation?: TypedRequestHook<R, Y> | TypedRequestHook<R, Y>[]
  preHandler?: TypedRequestHook<R, Y> | TypedRequestHook<R, Y>[]
}

/**
 * What a handler of a route with schema `S` may return: anything when no response schema is
 * readable, else a value of one of the declared response types (or a Promise of it), the reply
 * itself, or nothing (after `reply.send()`). A value typed by an interface fits an open object
 * schema too (open-index.ts).
 */
export type HandlerResult<S> = unknown extends ResponseOf<S> ? unknown
  : OrWithoutOpenIndex<ResponseOf<S>> | ReplyBase | void | Promise<OrWithoutOpenIndex<ResponseOf<S>> | ReplyBase | void>
/**
 * A handler whose request and answer are typed from the route schema `S` (Fastify's type providers),
 * for a handler declared apart from its route: `const getUser: RouteHandler<typeof schema> = async
 * (request, reply) => ...`, then `app.get('/users/:id', { schema }, getUser)`. On a route whose schema
 * types the request otherwise it does not compile. `On`: the scope it is for (`typeof api`), whose
 * typed plugins' decorations, server (`request.raw`) and `this` it then sees, as an inline handler does.
 */
export type RouteHandler<S, On extends Scope = Scope> = (this: ScopeServing<SeenIn<On>['request']>, request: WithProvided<RequestOf<S>, SeenIn<On>['request']>,
  reply: WithProvided<Reply<ReplyGenericFor<RouteGeneric, S>>, SeenIn<On>['reply']>) => HandlerResult<S>

/**
 * The request a handler of a route with generic `G` and schema `S` receives: `Request<G, S>` when
 * `G` names a part (the parts it names are its own, the others the schema's), else the schema's.
 */
// NoInfer on the schema's branch: a parameter declared `Request<G>` is where `G` is inferred from;
// matched against RequestOf's mapped type as well, an annotated `Request` is too deep to infer.
export type RequestFor<G extends RouteGeneric, S> = NamesAPart<G> extends true ? Request<G, S> : NoInfer<RequestOf<S>>
/** What it may return: the generic's Reply (Fastify's rule) when it names one, else what the schema allows. */
export type ResultFor<G extends RouteGeneric, S> = StatesReply<G> extends true
  ? ReplyPayload<G> | ReplyBase | void | Promise<ReplyPayload<G> | ReplyBase | void>
  : HandlerResult<S>
/**
 * A handler typed by a route generic `G` (Fastify's `app.get<G>()`) and the route schema `S`.
 * With `G` naming nothing it is {@link RouteHandler}: an untyped or schema-typed handler as before.
 * `Path`: the route's path literal, whose parameter names type `request.params` when neither names them (route-path-params.ts).
 */
export type GenericRouteHandler<G extends RouteGeneric, S, Path extends string = string, R = unknown> = (this: Scope, request: RequestFor<G, S> & PathParamsOf<G, S, Path>, reply: Reply<ReplyGenericFor<G, S>>) => WrittenResult<ResultFor<G, S>, R>
/**
 * A websocket route's handler: (socket, request), not (request, reply). Enclave does not depend on
 * `ws`, so the socket is what the handler's parameter is annotated with (`socket: WebSocket`), else `unknown`.
 */
// `this`: the scope serving the route, as @fastify/websocket calls it (the route handler's own
// `this`): `On`, given by the shortcut (ScopeServing of a typed scope's decorations; a plain Scope's
// is Scope). Not read back from `Req`: that would instantiate the whole request type per overload.
export type SocketRouteHandler<Socket, Req, On = Scope> = (this: On, socket: Socket, request: Req) => unknown
/** {@link GenericRouteHandler} on a {@link TypedScope}: the request and reply also carry the decorations `P` its plugins provide. */
export type TypedRouteHandler<G extends RouteGeneric, S, P extends Provided, Path extends string = string, R = unknown> = (this: ScopeServing<P['request']>, request: RequestFor<G, S> & PathParamsOf<G, S, Path> & P['request'], reply: Reply<ReplyGenericFor<G, S>> & P['reply']) => WrittenResult<ResultFor<G, S>, R>
/**
 * True when `G` is a generic the user stated with a `Reply`, not the status generic a schema's
 * responses make (reply-status.ts): a handler declared apart as `RouteHandler<typeof schema>` has its
 * reply typed by one, which route() then infers `G` from; read as stated, that would let the
 * handler's own response schema stand in for the route's.
 */
type StatesReply<G> = G extends { readonly '~status': unknown } ? false : NamesReply<G>
/**
 * The generic the reply is typed by: `G` when it names a Reply, else the schema's responses
 * (Fastify's type providers), where `send()` takes what a return may be (open-index.ts).
 */
type ReplyGenericFor<G extends RouteGeneric, S> = StatesReply<G> extends true ? G : unknown extends ResponseOf<S> ? G
  : StatusReplyGeneric<OrWithoutOpenIndex<ResponseOf<S>>, EachWithoutOpenIndex<ResponseTypes<S>>>

export type RequestHookName = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'onResponse' | 'onRequestAbort' | 'onTimeout'
export type PayloadHookName = 'preSerialization' | 'onSend'
export type AppHookName = 'onRoute' | 'onRegister' | 'onReady' | 'preClose' | 'onClose'
export type HookName = RequestHookName | PayloadHookName | 'onError' | AppHookName

// The app-level hooks run with `this` the scope that declared them (boot.ts, lifecycle.ts,
// route-declaration.ts call them on `hook.scope`): `On` is that scope's type, so a typed plugin's
// decorations and an HTTP/2 server read in them as in its handlers. Scope by default: a hook
// written for any scope (`this: Scope`) fits every scope.
export type OnRouteHook<On = Scope> = (this: On, route: RouteOptions) => void
/** `child`: the scope the registration made below `On`, which inherits what `On` provides (ChildScopeOf). */
export type OnRegisterHook<On = Scope> = (this: On, child: ChildScopeOf<On>, options: PluginOptions) => void
// `done` is not optional: a hook that declares it is always given it (bound-hook.ts reads the
// arity), so `(done) => { ...; done() }` compiles as in Fastify, without `done?.()` or `done!()`.
export type OnReadyHook<On = Scope> = (this: On, done: DoneFn) => unknown
/** `scope`: the declaring scope again (avvio's close queue hands it over), as `this`. */
export type OnCloseHook<On = Scope> = (this: On, scope: On, done: DoneFn) => unknown
/** Fastify 4+: runs when close() is called, before the server stops accepting connections (`this` = the declaring scope). */
export type PreCloseHook<On = Scope> = (this: On, done: DoneFn) => unknown

export interface PluginOptions {
  prefix?: string
  [key: string]: unknown
}

// `object`, not PluginOptions: an options interface (`interface DbOptions { url: string }`) has no
// index signature, and Fastify's FastifyPluginAsync<Options> takes one (its bound is Record<string, any>).
export type AsyncPlugin<O extends object = PluginOptions> = (scope: Scope, options: O) => Promise<unknown>
export type CallbackPlugin<O extends object = PluginOptions> = (scope: Scope, options: O, done: DoneFn) => void
export type Plugin<O extends object = PluginOptions> = AsyncPlugin<O> | CallbackPlugin<O>
/**
 * What `register` and `lift` accept: one signature covering both styles, so that an inline
 * plugin's parameters are typed (a union of two function types gives them no contextual type,
 * an implicit `any` under strict). The style is told apart at boot by the `done` parameter.
 */
export type PluginFunction<O extends object = PluginOptions, S extends Scope = Scope> = (scope: S, options: O, done: DoneFn) => unknown
/**
 * `never` for a class: `register(AppModule)` is a likely slip from NestJS (a module class goes in
 * createApp() or a module's plugins), and the bound `Function` of register() would let it in.
 */
export type NotAClass<P> = P extends abstract new (...args: never[]) => unknown ? never : unknown

/**
 * A module whose default export is the plugin: `register(import('./users'))` as Fastify takes it
 * (the promise, or the awaited namespace). Its options are checked against that default export's.
 */
export type PluginModule<P> = PromiseLike<{ default: P & NotAClass<P> }> | { default: P & NotAClass<P> }
/** The plugin a register() argument stands for: a module's default export, or the plugin itself. */
export type ModuleDefault<P> = P extends Function ? P : P extends PromiseLike<{ default: infer D }> ? D : P extends { default: infer D } ? D : P

/** What `register` reads besides the plugin's own options (Fastify's RegisterOptions, those Enclave honours). */
export interface RegisterOptions {
  prefix?: string
  /** Fastify 3's plugin-level log level: the default `logLevel` of the routes declared in the plugin and below. */
  logLevel?: LogLevel
  /** Fastify 3's plugin-level log serializers: added to those of the parent, for the plugin's routes' request logs. */
  logSerializers?: LogSerializers
}
/** pino serializers by field name: `{ user: (u) => u.id }`. */
export type LogSerializers = Record<string, (value: never) => unknown>
/**
 * The options `register(plugin, options)` accepts for `plugin`, Enclave's or one typed with
 * Fastify's generics (`FastifyPluginCallback<O>`, `FastifyPluginAsync<O>`, as the @fastify/*
 * packages declare theirs): the type of its second parameter (inferred, so an options union or
 * an optional options parameter carries over) plus `prefix`; PluginOptions for a plugin that
 * declares no options parameter, or anything that is not a plugin function (a module class).
 */
export type PluginOptionsOf<P> = [P] extends [never] ? PluginOptions : OptionsParameterOf<P>
/**
 * register()'s arguments after the plugin: the options, required when the plugin's options type
 * has a required property (as Fastify 5's types require them), optional otherwise. NoInfer: `Plug`
 * comes from the plugin alone.
 */
export type RegisterArguments<P> = false extends OptionsOmittable<P>
  ? [options: NoInfer<PluginOptionsOf<P> | ((scope: Scope) => PluginOptionsOf<P>)>]
  : [options?: NoInfer<PluginOptionsOf<P> | ((scope: Scope) => PluginOptionsOf<P>)>]
// Per member of a union of plugin types: false when its options parameter needs a value.
export type OptionsOmittable<P> = [P] extends [never] ? true : P extends (instance: never, options: infer O, ...rest: never[]) => unknown
  ? unknown extends O ? true : undefined extends O ? true : {} extends O ? true : false
  : true
// Distributes over a union of plugin types (Fastify's deprecated FastifyPlugin is one). A plugin
// cast `as never` (what the docs once advised) keeps the loose PluginOptions above.
type OptionsParameterOf<P> = P extends (instance: never, options: infer O, ...rest: never[]) => unknown
  ? unknown extends O ? PluginOptions : O & RegisterOptions
  : PluginOptions

/**
 * A route's own hooks; `R`, `Y`: the request and reply decorations of the TypedScope it is declared on (`{}`: a plain Scope's).
 * `FO`, `FV`, `FH`: a hook typed for Fastify given as `onRequest`, `preValidation`, `preHandler`
 * (@fastify/passport's `authenticate()`, @fastify/auth's `auth([...])`), inferred by the route
 * methods and kept only when it reads as Fastify's (fastify-typed-hook.ts); `never` otherwise.
 */
// `Request & {}` is Request: on a plain scope these are the RequestHook, PayloadHook and ErrorHook types.
// eslint-disable-next-line @typescript-eslint/ban-types
export interface RouteHooks<R = {}, Y = {}, FO = never, FV = never, FH = never> {
  onRequest?: TypedRequestHook<R, Y> | FastifyTypedHook<FO> | (TypedRequestHook<R, Y> | FastifyTypedHookIn<NoInfer<FO>>)[]
  preParsing?: TypedRequestHook<R, Y> | TypedRequestHook<R, Y>[]
  preValidation?: TypedRequestHook<R, Y> | FastifyTypedHook<FV> | (TypedRequestHook<R, Y> | FastifyTypedHookIn<NoInfer<FV>>)[]
  preHandler?: TypedRequestHook<R, Y> | FastifyTypedHook<FH> | (TypedRequestHook<R, Y> | FastifyTypedHookIn<NoInfer<FH>>)[]
  preSerialization?: TypedPayloadHook<R, Y> | TypedPayloadHook<R, Y>[]
  onSend?: TypedPayloadHook<R, Y> | TypedPayloadHook<R, Y>[]
  onResponse?: TypedRequestHook<R, Y> | TypedRequestHook<R, Y>[]
  onRequestAbort?: TypedRequestHook<R, Y> | TypedRequestHook<R, Y>[]
  /** Fastify 3: run when the socket times out (server option `connectionTimeout`) while this request is in flight. */
  onTimeout?: TypedRequestHook<R, Y> | TypedRequestHook<R, Y>[]
  onError?: TypedErrorHook<R, Y> | TypedErrorHook<R, Y>[]
}

/**
 * A route schema for the runtime API: JSON Schema objects per part. Give them `as const` for typed
 * requests; a schema class goes in as itself (`body: Note`, placed as the decorator layer places it: inlined, or a `$ref` to its `$id`) or as `Note.schema`; a class nested in a part is placed the same way.
 */
export type RuntimeRouteSchema = TypedRouteSchema & RouteSchemaAnnotations & RuntimeRouteParts
/**
 * A part as the runtime API takes it: a JSON Schema record, a TypeBox 1.x schema (an interface, so
 * no record), a schema class, or a Standard Schema (zod) for a custom compiler to read (refused at
 * boot without one: ENC_ERR_SCH_FOREIGN_SCHEMA).
 */
type RuntimePart = JsonSchema | TypeBoxKinded | SchemaClassType | StandardSchemaLike
interface RuntimeRouteParts {
  body?: RuntimePart
  querystring?: RuntimePart
  query?: RuntimePart
  params?: RuntimePart
  headers?: RuntimePart
  response?: Record<string | number, RuntimePart>
}

/**
 * Route options that plugins read in their onRoute hooks (`helmet` for @fastify/helmet, `compress`
 * for @fastify/compress). Empty here: declare the ones your plugins read, and routes carry them
 * with types. At boot, an option no onRoute hook reads is refused (ENC_ERR_ROUTE_INVALID).
 *
 * @example
 * declare module 'enclave' { interface PluginRouteOptions { helmet?: false | Record<string, unknown> } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface PluginRouteOptions {}

// `R`, `Y`: a TypedScope's decorations, which the route's own hooks and error handler see too.
// eslint-disable-next-line @typescript-eslint/ban-types
export interface RouteShorthandOptions<S extends RuntimeRouteSchema = RouteSchema, R = {}, Y = {}, FO = never, FV = never, FH = never> extends RouteHooks<R, Y, FO, FV, FH>, PluginRouteOptions {
  schema?: S & NoUnknownSchemaKeys<S>
  attachValidation?: boolean
  validatorCompiler?: AnyValidatorCompiler
  serializerCompiler?: AnySerializerCompiler
  schemaErrorFormatter?: SchemaErrorFormatter
  bodyLimit?: number
  /**
   * Fastify 5: this route's handlerTimeout in ms (an integer > 0), over the server's, which it
   * replaces whether longer or shorter, or sets when the server's is 0. Answered 503
   * `ENC_ERR_HANDLER_TIMEOUT`; `request.routeOptions.handlerTimeout` shows it.
   */
  handlerTimeout?: number
  /**
   * Enclave: this route's bodyTimeout in ms (an integer > 0), over the server's, which it replaces
   * whether longer or shorter (an upload route's large files on slow links); at most the server's
   * requestTimeout (refused at boot). Answered 408 `ENC_ERR_CTP_BODY_TIMEOUT`;
   * `request.routeOptions.bodyTimeout` shows it.
   */
  bodyTimeout?: number
  errorHandler?: TypedErrorHandler<R, Y>
  /** Free-form data readable by hooks as `request.routeConfig`. */
  config?: Record<string, unknown>
  /** Fastify 3: pino serializers for this route's request logs (over its plugin's `logSerializers`); pino loggers only. */
  logSerializers?: LogSerializers
  /** Fastify 3: this route's requests log at this level (pino loggers; a hand-made logger is used as it is). */
  logLevel?: LogLevel
  /** A GET route also answers HEAD: this route's own choice over the server's `exposeHeadRoutes`. */
  exposeHeadRoute?: boolean
  /**
   * A route `/` in a prefixed plugin answers `/prefix` and `/prefix/` ('both', the default),
   * only `/prefix/` ('slash') or only `/prefix` ('no-slash'), as Fastify 3.
   */
  prefixTrailingSlash?: 'both' | 'slash' | 'no-slash'
  /**
   * find-my-way's constraints (Fastify 3): the route matches only requests whose Accept-Version
   * header satisfies `version` (a semver range) and whose Host header is `host`; a custom
   * strategy of createServer({ constraints }) takes its own key (`{ tenant: 'acme' }`).
   */
  constraints?: { version?: string; host?: string | RegExp; [custom: string]: unknown }
  /** Fastify 3's older spelling of `constraints: { version }`. */
  version?: string
}

/**
 * `P`: on a {@link TypedScope}, the decorations its plugins provide, which the handler and the route's hooks see.
 * `W`: `websocket: true` given as a literal (@fastify/websocket): the handler is then `(socket, request)`, as
 * the shortcuts type it (the socket what its annotation says, `unknown` unannotated).
 */
export interface RouteOptions<S extends RuntimeRouteSchema = RouteSchema, G extends RouteGeneric = RouteGeneric, P extends Provided = NothingProvided, W extends boolean = boolean, Url extends string = string, Path extends string = string, R = unknown, FO = never, FV = never, FH = never> extends RouteShorthandOptions<S, P['request'], P['reply'], FO, FV, FH> {
  method: string | string[]
  /** Its parameters' names type `request.params` in the handler when nothing else does (route-path-params.ts); `url` wins over `path`, as at run time. */
  url?: Url
  path?: Path
  /**
   * Set by the framework (the registration prefix, as onRoute hooks see it); accepted and
   * replaced so that a plugin may hand its own options on (`scope.get('/x', opts, handler)`).
   */
  prefix?: string
  // Method syntax on purpose (read back by indexed access, which keeps it): its parameters compare
  // both ways, so the server's own untyped implementation still satisfies the generic signature,
  // and a socket annotated `WebSocket` fits the `unknown` Enclave promises. NoInfer: `S` comes from `schema` only.
  handler: [W] extends [true] ? { handler(this: ScopeServing<P['request']>, socket: unknown, request: NoInfer<RequestFor<G, S> & PathParamsOf<G, S, RoutePathOf<Url, Path>>> & P['request']): unknown }['handler']
    : { handler(this: ScopeServing<P['request']>, request: NoInfer<RequestFor<G, S> & PathParamsOf<G, S, RoutePathOf<Url, Path>>> & P['request'], reply: Reply<ReplyGenericFor<G, NoInfer<S>>> & P['reply']): WrittenResult<NoInfer<ResultFor<G, S>>, R> }['handler']
  /** Read from this one property (as the shortcuts do): an HTTP route's options keep their excess-property checks. */
  websocket?: W
}

export type ContentTypeParserFn = (request: Request, body: string | Buffer) => unknown
/** Fastify 3's callback form: with `parseAs` it gets the collected body; without, the raw stream. */
export type ContentTypeParserCallback = (request: Request, body: any, done: (error: Error | null, value?: unknown) => void) => void
/**
 * Fastify 3's deprecated async form without `parseAs`: its one parameter is the payload stream
 * (`request.raw`, or a preParsing hook's replacement), not the request. Emits FSTDEP003 once.
 */
export type ContentTypeStreamParser = (payload: IncomingMessage | Readable) => Promise<unknown>
export interface ContentTypeParserOptions {
  parseAs?: 'string' | 'buffer'
  bodyLimit?: number
}

export interface ListenOptions {
  port?: number
  host?: string
  /** A Unix domain socket (or Windows named pipe) to listen on instead of a port, as in Fastify 3; not with `port`. */
  path?: string
  /** Node's own listen options, handed to `server.listen()` as Fastify 3 hands them (node:net's ListenOptions). */
  backlog?: number
  exclusive?: boolean
  /** For a socket `path`: readable (writable) by every user, so a proxy running as another user can connect. */
  readableAll?: boolean
  writableAll?: boolean
  ipv6Only?: boolean
  /** Aborting it closes the listener. */
  signal?: AbortSignal
}

export interface InjectOptions {
  method?: string
  url: string
  headers?: Record<string, string>
  query?: Record<string, string | string[]>
  payload?: unknown
  /** `request.ip` (and the socket's address) for this request: a serverless handler passes the caller's. Default `127.0.0.1`. */
  remoteAddress?: string
  /** Sent as one `cookie` header, light-my-request's option. */
  cookies?: Record<string, string>
}
export interface InjectResponse {
  statusCode: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
  payload: string
  /** The body's bytes: what a binary answer (a file, a gzip payload) is read from; `body` decodes them as UTF-8. */
  rawPayload: Buffer
  /**
   * The body parsed as JSON, typed `T`: a cast, nothing checks it. `unknown` unless given (light-my-request
   * and Fastify 4/5 say `any`): write `json<User>()`, or `ResponseAt<typeof schema, 200>` (docs/testing.md, "Testing").
   */
  json<T = unknown>(): T
  // The rest of light-my-request's answer, as Fastify 4/5's `LightMyRequest.Response` types it.
  statusMessage: string
  /** The `set-cookie` cookies, parsed (name, value, expires, maxAge, path, httpOnly ...). */
  cookies: InjectCookie[]
  trailers: Record<string, string>
  /** The request and response objects the app handled. */
  raw: { req: IncomingMessage; res: ServerResponse }
  /** The body as a Readable of its bytes. */
  stream(): Readable
}

/** One cookie of an inject() answer's `set-cookie`, as light-my-request parses it. */
export interface InjectCookie {
  name: string
  value: string
  expires?: Date
  maxAge?: number
  secure?: boolean
  httpOnly?: boolean
  sameSite?: string
  path?: string
  domain?: string
}

/** Fastify's chained inject (`app.inject().get('/x').headers({ ... }).end()`), light-my-request's Chain. */
export interface InjectChain extends Promise<InjectResponse> {
  get(url: string): InjectChain
  head(url: string): InjectChain
  post(url: string): InjectChain
  put(url: string): InjectChain
  patch(url: string): InjectChain
  delete(url: string): InjectChain
  options(url: string): InjectChain
  trace(url: string): InjectChain
  headers(headers: Record<string, string>): InjectChain
  query(query: Record<string, string | string[]> | string): InjectChain
  body(body: unknown): InjectChain
  payload(payload: unknown): InjectChain
  cookies(cookies: Record<string, string>): InjectChain
  end(): Promise<InjectResponse>
  end(callback: (error: Error | null, response?: InjectResponse) => void): void
}

export interface ReadyOptions {
  /** Compile the schemas of routes under schemaCompilation 'lazy' too (tests, CI): their errors reject ready(). */
  compileAll?: boolean
}

/** `'read-write'` (default): read the cache, and write what was compiled; `'read'`: never write. */
export type SchemaCacheMode = 'read-write' | 'read'

/**
 * The server option `schemaCache` (docs/schema-compilation.md, "Schema cache"): the default compilers take generated
 * validator and serializer code from one file in `directory` instead of compiling it.
 */
export interface SchemaCacheOptions {
  /** Holds code the server runs: it must be as trusted as node_modules. */
  directory: string
  mode?: SchemaCacheMode
}

/** What app.bootProfile() says about the schema cache. */
export interface SchemaCacheStats {
  /** The cache file. */
  readonly file: string
  readonly mode: SchemaCacheMode
  /** Functions taken from the cache instead of compiled. */
  readonly hits: number
  /** Functions compiled because the cache did not have them (written when ready() ends). */
  readonly misses: number
  /** Functions compiled that the cache cannot hold (a plugin or option it cannot key, a recursive $ref ...). */
  readonly notCacheable: number
}

/** createServer()'s `https` option: what node:https takes, and with `http2`, HTTP/1.1 on the same port and HTTP/2 settings. */
export type HttpsOptions = TlsOptions & { allowHTTP1?: boolean; settings?: Http2Settings }
/** `H2`, `S`: the `http2` and `https` options as given, which type the scope's `server` (RawServerFor). */
export interface ServerOptions<H2 extends boolean = boolean, S extends HttpsOptions | undefined = HttpsOptions | undefined> {
  /** The root scope's name in scope paths (`root > users`). Default `root`. */
  name?: string
  validator?: ValidatorOptions
  schemaController?: SchemaControllerOptions
  /** fast-json-stringify's options for every response serializer, e.g. `{ rounding: 'ceil' }` (Fastify's serializerOpts). */
  serializerOpts?: SerializerOptions
  schemaErrorFormatter?: SchemaErrorFormatter
  /**
   * When route schemas are compiled: 'eager' (default) at boot, so a bad schema fails ready();
   * 'lazy' on each route's first request, so listen() comes sooner (verify with
   * `ready({ compileAll: true })`). A scope or module can set its own.
   */
  schemaCompilation?: SchemaCompilation
  /**
   * Generated validator and serializer code kept in `directory` across boots (default compilers
   * only): a boot evaluates it instead of compiling. Fill it with `ready({ compileAll: true })` in
   * a build step; the directory holds code and must be as trusted as node_modules.
   */
  schemaCache?: SchemaCacheOptions
  /** Maximum accepted body, in bytes actually received. Default 1 MiB. */
  bodyLimit?: number
  /**
   * `true` (pino, info level, stdout), pino options, a pino instance, or any object with
   * info/warn/error/debug; false/undefined for none. With pino, `request.log` is a child bound
   * to the request id and `authorization`/`cookie` headers are redacted (docs/operations.md, "Logs").
   * The lines go to stdout, to `stream`, or (Fastify 3's `file`) appended to the file at that path.
   */
  logger?: Logger | boolean | (LoggerOptions & { stream?: DestinationStream; file?: string })
  /** Fastify 5's option for a logger you built (a pino instance): the same as giving it as `logger`. Not with `logger`. */
  loggerInstance?: Logger
  /** No "incoming request"/"request completed" lines. Default: logged with pino, not with a hand-made Logger. */
  disableRequestLogging?: boolean
  /** The key of the request id in log lines. Default `reqId`. */
  requestIdLogLabel?: string
  /** Route parameters longer than this are answered 414. Default 100. */
  maxParamLength?: number
  /** Generates request ids; default a process-unique counter-based id. */
  genReqId?: (raw: IncomingMessage) => string
  /** Opt-in: take the request id from this header when the client sends one. */
  requestIdHeader?: string | false
  /** A query string with more keys than this is answered 414 (never silently truncated). Default 1000. */
  maxQueryKeys?: number
  /** JSON bodies nested deeper than this are answered 400. Default 1000. */
  maxJsonDepth?: number
  /**
   * What the built-in JSON parser does with a `__proto__` key: 'error' (default) answers 400,
   * 'remove' drops the key, 'ignore' keeps it as an own property (Fastify 3's option).
   */
  onProtoPoisoning?: 'error' | 'remove' | 'ignore'
  /** The same for a `constructor` key whose value has a `prototype` key. Default 'error'. */
  onConstructorPoisoning?: 'error' | 'remove' | 'ignore'
  /** A callback plugin that has not called done() after this many ms fails boot. Default 10000. */
  pluginTimeout?: number
  /** close() force-closes connections still busy after this many ms. Default 10000. */
  closeTimeout?: number
  /** Time allowed for the request line and headers, answered 408 and closed. Default 30000; 0 turns it off. */
  headersTimeout?: number
  /** Time allowed for the whole request, body included, answered 408 and closed (Node's). Default 120000; 0 turns it off. */
  requestTimeout?: number
  /** Idle keep-alive connections are closed after this many ms. Default 5000. */
  keepAliveTimeout?: number
  /**
   * Time allowed for a request body to arrive once the server starts reading it, so a body
   * trickled a byte at a time cannot hold a socket: answered 408 (ENC_ERR_CTP_BODY_TIMEOUT)
   * and closed. Default 60000; 0 turns it off.
   */
  bodyTimeout?: number
  /**
   * Time allowed from a request's arrival to its reply (hooks, handler, serialization), not
   * counting time spent waiting for its body: answered 503 (ENC_ERR_HANDLER_TIMEOUT) and logged.
   * The handler is not stopped; what it sends later is ignored. Default 60000; 0 turns it off.
   * Like bodyTimeout, checked by a periodic sweep: it fires up to a quarter of its value (at most
   * 1 s) late.
   */
  handlerTimeout?: number
  /**
   * Which proxies to believe for request.ip/ips/hostname/protocol (X-Forwarded-*), as Fastify:
   * true (all), a hop count, addresses/subnets (`'127.0.0.1,10.0.0.0/8'` or a list), or a
   * function `(address, hop) => boolean`. Default false: the socket's peer is the client.
   */
  trustProxy?: boolean | number | string | readonly string[] | ((address: string, hop: number) => boolean)
  /** Fastify's name for the `validator` option (`{ customOptions, plugins }`); give one of the two. */
  ajv?: ValidatorOptions
  /** `GET /a/` also matches the route `/a` (and `/a` matches `/a/`). Default false, as in Fastify. */
  ignoreTrailingSlash?: boolean
  /** Every GET route also answers HEAD (without a body) unless a HEAD route is declared. Default true. */
  exposeHeadRoutes?: boolean
  /**
   * Fastify 3's socket timeout, in ms: a connection idle this long (no byte either way) is
   * destroyed, and the `onTimeout` hooks of the request in flight on it run. Default 0 (off).
   */
  connectionTimeout?: number
  /**
   * In ms: a connection whose pending output has not drained for this long (a client that
   * pipelines requests and stops reading the answers) is destroyed. Default 60 s; 0 turns it off.
   */
  drainTimeout?: number
  /**
   * In bytes: a connection whose client is not reading and whose queued output (the socket's
   * buffer, plus what a stream reply's source holds) is over this and still growing is destroyed,
   * logged at warn (`ENC_ERR_CONNECTION_QUEUE_LIMIT`) with the route. Default 8 MiB; 0 turns it off.
   */
  maxQueuedBytes?: number
  /**
   * Requests one HTTP/1.1 connection may have in flight behind the answer being written (a client
   * pipelining): past it, further requests wait (their handlers not run) and the connection is not
   * read until answers go out; logged once per connection at warn (`ENC_ERR_CONNECTION_PIPELINED_LIMIT`).
   * Nothing is refused: every request is answered, in order. Default 100; 0 turns it off (Node's own behaviour).
   */
  maxPipelinedRequests?: number
  /**
   * Fastify 3: answers the framework's own request errors instead of the built-in reply. Called
   * for a URL that cannot be decoded (`ENC_ERR_BAD_URL`), after the root's onRequest hooks;
   * `reply.callNotFound()` there answers a plain 404.
   */
  frameworkErrors?: FrameworkErrorsHandler
  /**
   * Fastify 3: handles Node's 'clientError' (a request Node could not parse, a header or request
   * timeout) instead of the built-in JSON 4xx; `this` is the root scope. It must answer on the
   * socket or destroy it.
   */
  clientErrorHandler?: (this: Scope, error: NodeJS.ErrnoException, socket: Socket) => void
  /** `false`: `GET /ABC` matches the route `/abc` (find-my-way's caseSensitive). Default true, as in Fastify. */
  caseSensitive?: boolean
  /**
   * Custom constraint strategies by name (Fastify 3 / find-my-way): routes then take
   * `constraints: { name: value }`; a `version` or `host` strategy replaces the built-in one.
   */
  constraints?: Readonly<Record<string, ConstraintStrategy>>
  /** Fastify 3's deprecated custom version strategy (FSTDEP009): `constraints: { version }` with mustMatchWhenDerived. */
  versioning?: VersioningOptions
  /**
   * Parses the query string (the text after `?`) into `request.query`, in place of Node's
   * querystring parser; `maxQueryKeys` does not apply to it (the parser is yours to bound).
   */
  querystringParser?: (text: string) => Record<string, unknown>
  /**
   * Called with each request before routing; the url it returns is routed (and is `request.url`).
   * It must return a string: anything else answers 500 `ENC_ERR_REWRITE_URL_INVALID`.
   */
  rewriteUrl?: (raw: IncomingMessage) => string
  /** Node's `server.maxRequestsPerSocket`: a keep-alive connection serves at most this many requests. Default 0 (no limit). */
  maxRequestsPerSocket?: number
  /**
   * `true`: close() cuts the connections still busy at once instead of after `closeTimeout`.
   * Default false; `'idle'` (Fastify 5's default) is the same: idle keep-alive connections are always closed.
   */
  forceCloseConnections?: boolean | 'idle'
  /**
   * `true`: a request that arrives once close() has started is answered 503
   * (`ENC_ERR_SERVER_CLOSING`) instead of served. Default false: it is served, with `Connection: close`.
   */
  return503OnClosing?: boolean
  /**
   * Fastify 3's option: `true` (the default) reads a schema part with properties at its top level
   * as the shorthand; `false` reads every part as a complete schema, never wrapped (a part with no
   * JSON Schema keyword at all is refused, `ENC_ERR_SCH_NOT_OBJECT`: it would accept anything).
   */
  jsonShorthand?: boolean
  /**
   * Fastify 3: serve HTTPS with these TLS options (`{ key, cert }`, `{ pfx, passphrase }`: what
   * node:https takes). With `http2: true`, HTTP/2 over TLS; `allowHTTP1: true` then also serves
   * HTTP/1.1 clients on the same port.
   */
  https?: S
  /**
   * Fastify 3: serve HTTP/2 (node:http2's compatibility API): cleartext h2c, or over TLS with `https`.
   * `scope.server` is then an Http2Server, and typed so on the scope createServer() returns
   * (RawServerFor), on its children and on what register() returns.
   */
  http2?: H2
  /** Fastify 3: with `http2`, a session idle this long (ms) is closed with GOAWAY. Default 5000; 0 turns it off. */
  http2SessionTimeout?: number
  /**
   * Fastify 3: makes the server. Called once by createServer() with the request handler and these
   * options; returns a server (node:http, https or http2) whose requests go to the handler. Its
   * timeouts are its own: Enclave sets none on it.
   */
  serverFactory?: (handler: (req: IncomingMessage, res: ServerResponse) => void, options: ServerOptions) => Server
}

export type FrameworkErrorsHandler = (this: Scope, error: Error & { code?: string; statusCode?: number }, request: Request, reply: Reply) => unknown

/** A route's `logLevel`: with pino, its requests log through a child at this level. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

/**
 * `scope.get(path, [options], handler)` and friends. With `options.schema` given `as const`, the
 * handler's request parts and answer are typed from it; otherwise they read as before (`unknown`).
 *
 * @example
 * const body = { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } as const
 * app.post('/notes', { schema: { body } }, (request) => ({ title: request.body.title.trim() }))
 */
export interface ScopeRouteShortcut<This> {
  // `G` is Fastify's route generic (route-generic.ts): given (`app.get<{ Params: P }>`), or inferred
  // from a handler whose parameter is declared `Request<{ Params: P }>`; by default it names nothing
  // and the handler is typed from the schema as before. NoInfer: `S` comes from `options.schema` only.
  <G extends RouteGeneric = RouteGeneric, const Path extends string = string>(path: Path, handler: GenericRouteHandler<G, {}, Path>): This
  // `W`: a `{ websocket: true }` route (@fastify/websocket), whose handler the plugin calls with
  // (socket, request). Read from that one property, not the whole options (which would lose their
  // excess-property checks), and not a separate overload (which would turn every mistyped route's
  // error into "No overload matches this call").
  // `C`: the route's `config` (Fastify 5's ContextConfig), inferred from it: the handler and the
  // route's own hooks read it typed (route-config.ts); without `config`, they are as ever.
  <G extends RouteGeneric = RouteGeneric, S extends RuntimeRouteSchema = RouteSchema, W extends boolean = false, Socket = unknown, C extends RouteConfigShape = RouteConfigShape, const Path extends string = string, R = unknown, FO = never, FV = never, FH = never>(path: Path, options: RouteShorthandOptions<S, WithRouteConfig<NothingProvided, C>['request'], {}, FO, FV, FH> & { websocket?: W; config?: C }, handler: [W] extends [true] ? SocketRouteHandler<Socket, RequestFor<G, NoInfer<S>> & PathParamsOf<G, NoInfer<S>, Path>> : RouteConfigShape extends C ? GenericRouteHandler<G, NoInfer<S>, Path, R> : TypedRouteHandler<G, NoInfer<S>, WithRouteConfig<NothingProvided, C>, Path, R>): This
  /** The handler given in the options. */
  <G extends RouteGeneric = RouteGeneric, const Path extends string = string, FO = never, FV = never, FH = never>(path: Path, options: RouteShorthandOptions<RouteSchema, {}, {}, FO, FV, FH> & { handler: GenericRouteHandler<G, {}, Path> }): This
}
/**
 * The handler of a `{ websocket: true }` route (@fastify/websocket), declared apart: `(socket, request)`
 * as the plugin calls it. The socket is what its annotation says (`socket: WebSocket`, `import type
 * { WebSocket } from 'ws'`; `unknown` unannotated: Enclave does not depend on ws), the request is typed
 * from the route schema `S` as any handler's; `R`: a TypedScope's request decorations. The route
 * shortcuts take it as it is (their `websocket` option selects {@link SocketRouteHandler}).
 */
// Method syntax: its parameters compare both ways, so a handler annotated `socket: WebSocket` fits
// the `unknown` Enclave can promise without depending on ws.
export type WebSocketRouteHandler<S, R = {}> = { handle(this: ScopeServing<R>, socket: unknown, request: NoInfer<WithProvided<RequestOf<S>, R>>): unknown }['handle']
/**
 * {@link ScopeRouteShortcut} on a {@link TypedScope}: handlers also see the decorations `P` its
 * plugins provide. TypedScope's shortcuts are this and then ScopeRouteShortcut (an intersection,
 * tried in that order), which is what keeps a TypedScope assignable to Scope.
 */
export interface TypedRouteShortcut<This, P extends Provided> {
  <G extends RouteGeneric = RouteGeneric, const Path extends string = string>(path: Path, handler: TypedRouteHandler<G, {}, P, Path>): This
  <G extends RouteGeneric = RouteGeneric, S extends RuntimeRouteSchema = RouteSchema, W extends boolean = false, Socket = unknown, C extends RouteConfigShape = RouteConfigShape, const Path extends string = string, R = unknown, FO = never, FV = never, FH = never>(path: Path, options: RouteShorthandOptions<S, WithRouteConfig<P, C>['request'], P['reply'], FO, FV, FH> & { websocket?: W; config?: C }, handler: [W] extends [true] ? SocketRouteHandler<Socket, RequestFor<G, NoInfer<S>> & PathParamsOf<G, NoInfer<S>, Path> & P['request'], ScopeServing<P['request']>> : TypedRouteHandler<G, NoInfer<S>, WithRouteConfig<P, C>, Path, R>): This
  <G extends RouteGeneric = RouteGeneric, const Path extends string = string, FO = never, FV = never, FH = never>(path: Path, options: RouteShorthandOptions<RouteSchema, P['request'], P['reply'], FO, FV, FH> & { handler: TypedRouteHandler<G, {}, P, Path> }): This
}

/**
 * An encapsulation context (spec §3.3). The root scope is what `createServer` returns; each
 * `register` creates a child scope, unless the plugin is wrapped in `lift()`.
 *
 * `register()` of a typed lifted plugin (`lift(plugin, { name, provides })`) returns the same
 * scope as a {@link TypedScope}: a Scope whose handlers and hooks also see that plugin's decorations.
 */
export interface Scope extends ScopeDecorations, ScopeRouteLookup {
  /** `root > users > admin`: the names of the plugins from the root, for error messages. */
  readonly path: string
  readonly prefix: string
  /** Node's server: http.Server, or what createServer()'s `http2`/`https` options made (RawServerFor). */
  readonly server: RawIn<this>['server']
  /**
   * Fastify 4+'s `addresses()`: where the server listens, `[]` before listen() and after close().
   * One entry: Enclave listens on the one address listen() was given (Fastify 5 may list two for `localhost`).
   */
  addresses(): AddressInfo[]
  /**
   * Fastify's `routing`: the server's request listener. Serves a request received outside the
   * 'request' event (a plugin handling the server's 'upgrade' event, as @fastify/websocket does)
   * through the routes and hooks; the reply is written to the `res` given.
   */
  readonly routing: (req: RawIn<this>['request'], res: RawIn<this>['reply']) => void
  readonly log: ServerLogger
  readonly parent: Scope | null
  /** True from the moment close() or startDraining() is called: health readiness answers 503 from then on. */
  readonly closing: boolean
  /**
   * Begins a shutdown without closing yet: health readiness answers 503 (status closing) and
   * every response carries `Connection: close`, while the server still accepts and serves in
   * full. Call close() later (closeOnSignals' `shutdownDelay` does both). A no-op once close() began.
   */
  startDraining(): void

  /**
   * Registers a plugin: Enclave's `(scope, options, done?)`, or one typed with Fastify's generics
   * (the @fastify/* packages), taken as it is though its first parameter is a FastifyInstance.
   * `options` are checked against the plugin's own options type (PluginOptionsOf), and may be a
   * function of the plugin's scope (Fastify's form), called when the plugin loads.
   * One signature rather than an overload per style: PluginFunction in the bound types an inline
   * plugin's parameters (Function has no call signature to compete with it), and an error names
   * the option at fault instead of listing every overload. NoInfer: `Plug` comes from the plugin alone.
   *
   * A lifted plugin that declares `provides` returns this scope typed with its decorations
   * (`app.register(workspace).get(...)`: chain, as with Elysia's `.use()`); any other plugin returns `this`.
   * An inline plugin registered on a typed scope gets its child typed the same way (ChildScopeOf).
   */
  register<Plug extends PluginFunction<PluginOptions, ChildScopeOf<this>> | Function | PluginModule<Function>>(plugin: Plug & NotAClass<Plug> & FitsScope<Plug, this>, ...options: RegisterArguments<ModuleDefault<Plug>>): Registered<this, Plug>
  /** `route<G>(...)`: Fastify's route generic, as the shortcuts take it (ScopeRouteShortcut); the schema is then not inferred. */
  route<G extends RouteGeneric = RouteGeneric, S extends RuntimeRouteSchema = RouteSchema, W extends boolean = false, C extends RouteConfigShape = RouteConfigShape, const Url extends string = string, const Path extends string = string, R = unknown, FO = never, FV = never, FH = never>(options: RouteOptions<S, G, WithRouteConfig<SeenIn<this>, C>, W, Url, Path, R, FO, FV, FH> & { config?: C }): this
  get: ShortcutOn<this>
  head: ShortcutOn<this>
  post: ShortcutOn<this>
  put: ShortcutOn<this>
  patch: ShortcutOn<this>
  delete: ShortcutOn<this>
  options: ShortcutOn<this>
  all: ShortcutOn<this>

  addHook(name: RequestHookName, fn: RequestHookOn<this>): this
  addHook(name: PayloadHookName, fn: TypedPayloadHook<SeenIn<this>['request'], SeenIn<this>['reply']>): this
  addHook(name: 'onError', fn: TypedErrorHook<SeenIn<this>['request'], SeenIn<this>['reply']>): this
  addHook(name: 'onRoute', fn: OnRouteHook<this>): this
  addHook(name: 'onRegister', fn: OnRegisterHook<this>): this
  addHook(name: 'onReady', fn: OnReadyHook<this>): this
  addHook(name: 'preClose', fn: PreCloseHook<this>): this
  addHook(name: 'onClose', fn: OnCloseHook<this>): this
  /** avvio's form of `addHook('onClose', fn)` (@fastify/reply-from uses it). */
  onClose(fn: OnCloseHook<this>): this

  /** `dependencies`: decorators of the same kind that must already be visible (Fastify's third argument). */
  decorate<K extends string | symbol>(name: DeclaredScopeName<K, ProvidedIn<this>['scope']>, value: ScopeDecorationValue<K, ProvidedIn<this>['scope']>, dependencies?: readonly (string | symbol)[]): this
  /**
   * A request decorator: `name` must be declared in {@link RequestDecorations} (an undeclared one
   * could not be read: Request has no catch-all), and `value` is checked against its type.
   */
  decorateRequest<K extends string | symbol>(name: DeclaredRequestName<K, ProvidedIn<this>['request']>, value: RequestDecorationValue<K, ProvidedIn<this>['request']>, dependencies?: readonly (string | symbol)[]): this
  /** A reply decorator: `name` must be declared in {@link ReplyDecorations}, and `value` is checked against its type. */
  decorateReply<K extends string | symbol>(name: DeclaredReplyName<K, ProvidedIn<this>['reply']>, value: ReplyDecorationValue<K, ProvidedIn<this>['reply']>, dependencies?: readonly (string | symbol)[]): this
  hasDecorator(name: string | symbol): boolean
  hasRequestDecorator(name: string | symbol): boolean
  hasReplyDecorator(name: string | symbol): boolean
  /** Fastify 5's getDecorator(): a decoration visible here (a function comes bound to this scope); an undeclared name throws ENC_ERR_DEC_UNDECLARED. */
  getDecorator<K extends keyof ScopeDecorations>(name: K): ScopeDecorations[K]
  getDecorator<T>(name: string | symbol): T

  /** The Fastify plugin API line Enclave offers ('5.0.0'): what plugin-meta `fastify` ranges are checked against. */
  readonly version: string
  /** Fastify's pluginName: display name, exporting file, function name or first source lines; `a -> b` once plugin b was lifted into a's scope; undefined at the root until then. */
  readonly pluginName: string | undefined
  /** The server options with Fastify 3's defaults for the options it lists and every limit and timeout resolved, frozen; an `https` object with TLS material shows as `true` (Fastify's `initialConfig`). */
  readonly initialConfig: Readonly<Record<string, unknown>>
  /**
   * The error handler this scope's routes fall back to (Fastify's getter): its own setErrorHandler(),
   * else the nearest ancestor's, else the built-in one, which rethrows to the next handler in line.
   */
  readonly errorHandler: ErrorHandler
  /** True when a plugin of that (plugin-meta or display) name is registered here or in an ancestor. */
  hasPlugin(name: string): boolean
  /**
   * Runs `fn` once the plugins registered so far have loaded (avvio's after()), in avvio's forms:
   * `()`, `(error)`, `(error, done)`, `(error, scope, done)`. A plugin that failed before it hands
   * `fn` its error (the plugins in between are skipped); a callback that takes `error` handles it.
   */
  after(fn?: (error: Error | null, done: DoneFn) => unknown): this
  after(fn: (error: Error | null, scope: this, done: DoneFn) => unknown): this

  /** A schema with `$id` (checked at run time for a TypeBox schema, whose `$id` is typed optional). */
  addSchema(schema: SharedSchema | TypeBoxLike): this
  getSchemas(): Record<string, SharedSchema>
  getSchema(id: string): SharedSchema | undefined
  /** `S`: the schemas `fn` reads (JSON Schema unless its type says: a zod compiler's are zod schemas), as Fastify's generic. */
  setValidatorCompiler<S = JsonSchema>(fn: ValidatorCompiler<S>): this
  setSerializerCompiler<S = JsonSchema>(fn: SerializerCompiler<S>): this
  /**
   * Fastify 3.27.4's: this scope's (and its descendants') shared-schema bucket and compiler builders;
   * what is left out is inherited.
   */
  setSchemaController(options: SchemaControllerOptions): this
  /**
   * The validator compiler set here or in an ancestor, else the one built at boot for this scope's
   * routes; undefined before boot or when no route needed one (Fastify's `validatorCompiler`).
   */
  readonly validatorCompiler: ValidatorCompiler | undefined
  /** As validatorCompiler, for serializers. */
  readonly serializerCompiler: SerializerCompiler | undefined
  /**
   * Serializes the payloads of this scope's routes (and its descendants'), in place of their
   * response schema's serializer and of JSON.stringify; `reply.serializer()` wins over it. The
   * built-in error replies keep theirs. As Fastify's, it gets `(payload, statusCode)`.
   *
   * @example
   * app.setReplySerializer((payload) => yaml.stringify(payload))
   */
  setReplySerializer(fn: ReplySerializer): this
  setSchemaErrorFormatter(fn: SchemaErrorFormatter): this
  /** 'eager' or 'lazy' schema compilation for this scope's routes and its descendants'. */
  setSchemaCompilation(mode: SchemaCompilation): this

  // On a TypedScope, the handlers (and the not-found route's hooks) see its decorations.
  setErrorHandler(fn: TypedErrorHandler<SeenIn<this>['request'], SeenIn<this>['reply']>): this
  setNotFoundHandler(fn: TypedNotFoundHandler<SeenIn<this>['request'], SeenIn<this>['reply']>): this
  setNotFoundHandler(options: NotFoundOptions<SeenIn<this>['request'], SeenIn<this>['reply']>, fn: TypedNotFoundHandler<SeenIn<this>['request'], SeenIn<this>['reply']>): this
  // With parseAs, one signature for both forms, `(request, body)` returning the value and Fastify's
  // `(request, body, done)`: two overloads left an unannotated `(req, body, done) =>` without any
  // contextual type (TS7006 under strict). `body` is what parseAs says.
  addContentTypeParser<K extends 'string' | 'buffer'>(contentType: string | RegExp | Array<string | RegExp>, options: ContentTypeParserOptions & { parseAs: K }, parser: (request: Request, body: K extends 'string' ? string : Buffer, done: (error: Error | null, value?: unknown) => void) => unknown): this
  // Without parseAs, the same reason: one signature for `(request, body)` (the collected string)
  // and `(request, payload, done)` (the payload stream), or Fastify's usual unannotated callback
  // form got no contextual type from the two-parameter overload tried first.
  addContentTypeParser(contentType: string | RegExp | Array<string | RegExp>, options: ContentTypeParserOptions, parser: ContentTypeParserCallback): this
  addContentTypeParser(contentType: string | RegExp | Array<string | RegExp>, parser: ContentTypeParserCallback): this
  // Annotate the parameter (`async (payload: Readable) => ...`): unannotated, the first form types it as the request.
  addContentTypeParser(contentType: string | RegExp | Array<string | RegExp>, parser: ContentTypeStreamParser): this
  hasContentTypeParser(contentType: string | RegExp): boolean
  /** This scope and its descendants no longer parse these types (built-in ones included). */
  removeContentTypeParser(contentType: string | RegExp | Array<string | RegExp>): this
  /** This scope and its descendants start with no content-type parser at all. */
  removeAllContentTypeParsers(): this
  /** The built-in JSON parser in Fastify's `(request, body, done)` form, for `{ parseAs: 'string' }`. */
  getDefaultJsonParser(onProtoPoisoning?: 'error' | 'remove' | 'ignore', onConstructorPoisoning?: 'error' | 'remove' | 'ignore'): ContentTypeParserCallback

  /**
   * On the root: boots once and resolves after the onReady hooks. On a plugin's scope: resolves
   * once every plugin has loaded and every route is compiled, before the onReady hooks (callable
   * while the plugin loads). Resolves with the scope it was called on. `compileAll: true` also
   * compiles every lazily compiled route, throwing the boot errors an eager boot would.
   */
  ready(options?: ReadyOptions): Promise<this>
  /** Fastify's callback form: `(error, scope)`. */
  ready(callback: (error: Error | null, scope?: this) => void): this
  /** What compiling route schemas cost: the slowest routes and scopes (modules), ms and generated code size. */
  bootProfile(options?: { top?: number }): BootProfile
  listen(port?: number, host?: string): Promise<string>
  listen(options: ListenOptions): Promise<string>
  /** Fastify 3: a Unix domain socket path (it has a '/') or a Windows pipe; resolves to the path. */
  listen(path: string): Promise<string>
  /** Fastify's callback forms: `(error, address)`; nothing is returned. */
  listen(port: number, callback: (error: Error | null, address?: string) => void): void
  listen(path: string, callback: (error: Error | null, address?: string) => void): void
  listen(port: number, host: string, callback: (error: Error | null, address?: string) => void): void
  listen(port: number, host: string, backlog: number, callback: (error: Error | null, address?: string) => void): void
  listen(options: ListenOptions, callback: (error: Error | null, address?: string) => void): void
  close(): Promise<void>
  /** Fastify's callback form. */
  close(callback: (error?: Error) => void): void
  inject(options: InjectOptions | string): Promise<InjectResponse>
  /** Fastify's callback form. */
  inject(options: InjectOptions | string, callback: (error: Error | null, response?: InjectResponse) => void): void
  /** Fastify's chained form: `inject().get('/x').end()`. */
  inject(): InjectChain

  // Introspection of the booted server (after ready(); before it they throw ENC_ERR_INSPECT_NOT_BOOTED).
  /** Every route, one line per method, as a tree of path segments; `{ json: true }` gives the route models. */
  /**
   * Fastify 3.27.4's options: `includeHooks` prints each route's hooks, `includeMeta` (true or key names; false is off)
   * what Fastify 3's router stored per route; the tree is by path segment, and `commonPrefix: false`
   * prints Fastify 3's text for that option. `commonPrefix: true` and unknown options are refused
   * (`ENC_ERR_INSPECT_INVALID_OPTIONS`).
   */
  printRoutes(options?: { includeHooks?: boolean; commonPrefix?: false; includeMeta?: boolean | readonly (string | symbol)[]; json?: false }): string
  printRoutes(options: { json: true }): readonly RouteInspection[]
  /** The scope tree: per scope its modules, decorators, hooks, schemas, providers, error handler and compilers, with origins. */
  /** Fastify's printPlugins: every registration as loaded, nested, with the milliseconds it took. */
  printPlugins(): string
  printTree(): string
  printTree(options: { json: true }): ScopeInspection
  /** One route (`'POST /notes/:id'`): hook chain, validators, serializers, error handlers, visible decorators, schemas, providers. */
  explain(route: string): string
  explain(route: string, options: { json: true }): RouteInspection
  /** The whole introspection model (scopes, routes, shared schemas) as JSON-ready data. */
  inspect(): Inspection
  /** An OpenAPI 3.1 document of the booted server (`{ routes: 'scope' }`: of this scope's routes and its descendants' only). */
  openapi(info?: OpenApiInfo, options?: OpenApiOptions): OpenApiDocument
  /** Labels what the running plugin declares (its module, providers, error handler responses) for introspection. */
  annotate(annotation: ScopeAnnotation): this
}

/**
 * A scope whose type knows what it provides beyond the global declarations (`P`): the request and
 * reply decorations of the typed plugins registered on it (`lift(plugin, { name, provides })`),
 * or, inside such a plugin, the ones it promises. The same object as the Scope it came from: only
 * the members that hand out a request or reply, or make a decoration, are typed with `P`. Every
 * TypedScope is a Scope, so `(scope: Scope) => ...` helpers take them all.
 */
// No member is redeclared here: Scope's own members read `P` back from `this` (ShortcutOn,
// RequestHookOn, Registered, the decorate* names), so a TypedScope is a Scope member for member (two
// declarations of a generic or conditional member would not relate, and helpers would refuse it).
export interface TypedScope<P extends Provided> extends Scope {
  /** Phantom (no such property at run time): what the members above read `P` back from (ProvidedIn). */
  readonly [kProvided]: P
}

/**
 * What `register(plugin)` returns: the scope typed with what a lifted typed plugin provides, else
 * the scope as it was (an encapsulated plugin's decorations stay in its own child scope; a plugin
 * typed `any` changes nothing).
 */
export type Registered<This, Plug> = Plug extends ProvidingPlugin<infer Q> ? (0 extends 1 & Plug ? This : ScopeWith<MergeProvided<ProvidedIn<This>, Q>> & RawMarkOf<This>) : This
/**
 * The parameter an inline plugin registered on `This` is typed with: its child scope, which inherits
 * what `This` provides (request, reply and scope decorations), so a TypedScope's child is typed as it
 * is; a plain Scope's child is a plain Scope. Only the contextual type: a plugin whose first parameter
 * is annotated `Scope` (a helper, an AsyncPlugin) still fits, being callable with either.
 */
// Not distributive, as ShortcutOn: the server's own ScopeImpl then satisfies register()'s bound.
// The raw server's mark (createServer({ http2: true })) goes along: `unknown`, nothing, on http's.
export type ChildScopeOf<This> = ([This] extends [{ readonly [kProvided]: Provided }] ? ScopeWith<ProvidedIn<This>> : Scope) & RawMarkOf<This>
/**
 * A plugin declared apart from `register()`, typed for the scope it is registered on: its scope
 * sees that scope's decorations, as an inline plugin's does. Registered on a scope lacking them,
 * it does not compile (FitsScope).
 *
 * @example
 * const api = createServer().register(workspace)
 * const routes: PluginFor<typeof api> = async (scope) => { scope.get('/plan', (request) => request.workspace.plan) }
 * api.register(routes)
 */
export type PluginFor<This extends Scope, O extends object = PluginOptions> = (scope: ChildScopeOf<This>, options: O, done: DoneFn) => unknown
/**
 * register()'s check that a plugin whose scope parameter is a TypedScope (PluginFor, `typeof api`)
 * goes on a scope providing what it reads: `unknown` when it does (or the plugin asks no typed
 * scope), else a type no plugin has, whose name the error shows.
 */
// Not distributive over Plug, so a union of plugin types is taken as it was.
export type FitsScope<Plug, This> = [Plug] extends [(scope: infer S, ...rest: never[]) => unknown]
  ? [S] extends [{ readonly [kProvided]: Provided }] ? [ChildScopeOf<This>] extends [S] ? unknown : PluginForAnotherScope : HasDependencies<Plug, This>
  : unknown
/** What FitsScope asks of a plugin typed for a scope with decorations this scope lacks (none has it). */
export interface PluginForAnotherScope { readonly 'register this plugin on the scope its PluginFor<typeof scope> names: this one lacks decorations it reads': true }
/**
 * A lifted plugin whose `dependencies` name typed plugins (`lift(audit, { dependencies: [db] })`)
 * reads their decorations: it goes on a scope whose type has them (db registered before, and
 * chained), as the load check (ENC_ERR_PLUGIN_DEPENDENCY) asks at run time.
 */
// Member by member: both sides are MergeProvided chains in different orders, which TypeScript
// would relate by the alias's arguments (db-then-auth is no auth-then-db that way). The global
// declarations count too: an app that declares a decoration in RequestDecorations (the Fastify way)
// has it typed on every scope, so a plugin depending on exactly that is not refused for it.
type HasDependencies<Plug, This> = [Plug] extends [RequiringPlugin<infer R>]
  ? [ProvidedIn<This>['request'] & RequestDecorations, ProvidedIn<This>['reply'] & ReplyDecorations, ProvidedIn<This>['scope'] & ScopeDecorations] extends [R['request'], R['reply'], R['scope']] ? unknown : DependenciesNotRegistered
  : unknown
/** What FitsScope asks of such a plugin registered on a scope whose type lacks them (none has it). */
export interface DependenciesNotRegistered { readonly 'register the typed plugins this one lists in its dependencies first, and chain from the scope register() returned: this scope lacks their decorations': true }
/** A TypedScope with its instance decorations (`provides.scope`) as members: `scope.db` after `register(dbPlugin)`. */
export type ScopeWith<P extends Provided> = TypedScope<P> & P['scope']
/** A scope's route shortcuts: a TypedScope's handlers also see its decorations (tried first), a plain Scope's are as ever. */
// No `infer` in the condition, and not distributive: the server's own ScopeImpl then satisfies it by
// satisfying both branches (TypeScript relates a value to such a conditional type that way only).
export type ShortcutOn<This> = [This] extends [SeesMore] ? TypedRouteShortcut<This, SeenIn<This>> & ScopeRouteShortcut<This> : ScopeRouteShortcut<This>
/** A scope's request hooks: on a TypedScope they also see its decorations. */
export type RequestHookOn<This> = [This] extends [SeesMore] ? TypedRequestHook<SeenIn<This>['request'], SeenIn<This>['reply']> : RequestHook
/** What a scope's type provides: a TypedScope's `P`, nothing for a plain Scope. */
export type ProvidedIn<This> = This extends { readonly [kProvided]: infer P extends Provided } ? P : NothingProvided
/**
 * What the handlers and hooks of a scope's type see besides the global declarations: its typed
 * plugins' decorations (ProvidedIn), on an HTTP/2 server `request.raw`/`reply.raw` as that
 * server's (RawSeenIn), and `request.server`/`reply.server` as that scope's type (ServedBy).
 * Exactly ProvidedIn on a plain http Scope.
 */
export type SeenIn<This> = { readonly request: ProvidedIn<This>['request'] & RawSeenIn<This>['request'] & ServedBy<This>; readonly reply: ProvidedIn<This>['reply'] & RawSeenIn<This>['reply'] & ServedBy<This>; readonly scope: ProvidedIn<This>['scope'] }
/**
 * `request.server` (and `reply.server`) in the handlers and hooks of a scope's type: the scope that
 * serves the route, which at run time is that scope or a descendant of it (a hook covers its
 * children's routes too): ChildScopeOf, which has what both have, its decorations and its server.
 * Nothing on a plain Scope, whose requests keep the very types they had (`server: Scope`).
 */
// eslint-disable-next-line @typescript-eslint/ban-types
type ServedBy<This> = [This] extends [SeesMore] ? { readonly server: ChildScopeOf<This> } : {}
/**
 * `this` in a hook or handler whose request carries `R` (Fastify types it as the instance): the
 * scope serving the route, which is what the runtime calls it with (`request.server`, ServedBy);
 * a plain Scope where `R` names none.
 */
// `infer S`, not `infer S extends Scope`: the constraint made TypeScript check the inferred scope
// against Scope each time this resolved, a fresh assignability check whose cycle detection does not
// reach across resolutions; relating a typed scope to Scope compares their handlers, whose `this` is
// ScopeServing again. With a name in both the app's global ScopeDecorations and a typed plugin's
// `provides.scope` that never came back (tsc overflowed its stack, or gave TS2589 on the route).
// `server` is a scope wherever ServedBy puts it, so the constraint checked nothing.
export type ScopeServing<R> = R extends { readonly server: infer S } ? S : Scope
/** A scope type whose handlers see more than a plain Scope's: a TypedScope, or a scope on another server than http's. */
type SeesMore = { readonly [kProvided]: Provided } | { readonly [kRawServer]: RawServerTypes }

export type { Readable, IncomingMessage, ServerResponse }
