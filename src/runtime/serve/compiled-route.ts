import type { BoundHook } from '../shared/bound-hook'
import type { ParserTable } from './body/parser-table'
import type { RequestImpl } from './request'
import type { ReplyImpl } from './reply'
import type { Handler, LogLevel, LogSerializers, Scope } from '../types'
import type { ServeContext } from './serve-context'
import type { DeadlineList } from './deadlines'
import type { CompiledRouteSchemas, PartValidator, ResponseSerializers } from '../schemas'
import type { LazyRouteSchemas } from './lazy-route-schemas'
import type { ReplySerializer, SchemaErrorFormatter } from '../schemas/types'
import type { ErrorHandlerEntry } from './error-reply'
import { isDefaultFormatter } from '../schemas/validation-error'

export type RequestClass = new (...args: ConstructorParameters<typeof RequestImpl>) => RequestImpl
export type ReplyClass = new (...args: ConstructorParameters<typeof ReplyImpl>) => ReplyImpl

type HookList = readonly BoundHook[] | null

export interface CompiledRouteInit {
  method: string
  path: string | null
  scope: Scope
  serve: ServeContext
  handler: Handler
  Request: RequestClass
  Reply: ReplyClass
  hooks: Record<'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'preSerialization' | 'onSend' | 'onResponse' | 'onError' | 'onRequestAbort' | 'onTimeout', readonly BoundHook[]>
  /** The compiled schemas, or null while they wait for `lazy` (schemaCompilation: 'lazy'). */
  schemas: CompiledRouteSchemas | null
  lazy: LazyRouteSchemas | null
  schemaErrorFormatter: SchemaErrorFormatter
  replySerializer: ReplySerializer | null
  attachValidation: boolean
  parsers: ParserTable
  bodyLimit: number | null
  errorHandlers: readonly ErrorHandlerEntry[]
  config: Record<string, unknown>
  hasParams: boolean
  /**
   * What `request.routeOptions` shows: the declared options (url, method, config, schema, ...), or
   * a function that builds them on first read (few requests ever read them; every route would build them at boot).
   */
  routeOptions: Readonly<Record<string, unknown>> | (() => Readonly<Record<string, unknown>>)
  /** The route's `logLevel` option; null: the server logger's level. */
  logLevel?: LogLevel | null
  /** The route's pino serializers (its plugins' `logSerializers`, then its own); null: none. */
  logSerializers?: LogSerializers | null
  /** True for the HEAD route a GET route answers by itself (exposeHeadRoutes). */
  implicitHead?: boolean
  /** The route's handlerTimeout deadline (its own option's, or the server's); null: none. */
  handlerDeadline: DeadlineList | null
  /** The route's bodyTimeout deadline (its own option's, or the server's); null: none. */
  bodyDeadline: DeadlineList | null
}

/** An empty hook list is null: the pipeline's one comparison per stage. */
function orNull(list: readonly BoundHook[]): HookList {
  return list.length > 0 ? list : null
}

/**
 * Everything the request path needs for one method of one route, resolved once at boot. Every
 * field is always present (one hidden class); `null` means "nothing to do at this stage", so
 * each stage of the pipeline is a single comparison.
 */
export class CompiledRoute {
  readonly method: string
  readonly path: string | null
  /** The `this` of the handler (the declaring scope): opaque here, never read by the serve path. */
  readonly scope: Scope
  /** The server's serve-phase state: limits, deadlines, logger, closing flag, fallback routes. */
  readonly serve: ServeContext
  readonly handler: Handler
  readonly Request: RequestClass
  readonly Reply: ReplyClass
  readonly onRequest: HookList
  readonly preParsing: HookList
  readonly preValidation: HookList
  readonly preHandler: HookList
  readonly preSerialization: HookList
  readonly onSend: HookList
  readonly onResponse: HookList
  readonly onError: HookList
  readonly onRequestAbort: HookList
  /** Run when the socket times out (connectionTimeout) with this route's request in flight. */
  readonly onTimeout: HookList
  // Writable only for lazy compilation: installSchemas() fills them on the route's first request.
  validateParams: PartValidator | null = null
  validateBody: PartValidator | null = null
  /** validateBody for a body the built-in JSON parser made (CompiledRouteSchemas.jsonBody). */
  validateJsonBody: PartValidator | null = null
  validateQuery: PartValidator | null = null
  validateHeaders: PartValidator | null = null
  /** True when any validator is set: the validation stage is skipped with one test otherwise. */
  validates = false
  serializers: ResponseSerializers | null = null
  /** Non-null until a lazy route's schemas are built: the pipeline's one test per request. */
  lazy: LazyRouteSchemas | null
  readonly schemaErrorFormatter: SchemaErrorFormatter
  /** The scope's setReplySerializer(): used before the response schema's serializer; null: none. */
  readonly replySerializer: ReplySerializer | null
  readonly attachValidation: boolean
  readonly parsers: ParserTable
  /** The route's own bodyLimit; null falls back to the parser's, then the server's. */
  readonly bodyLimit: number | null
  readonly errorHandlers: readonly ErrorHandlerEntry[]
  readonly config: Record<string, unknown>
  /** Fastify 3's `request.context` and `reply.context`: one object per route, shared by both. */
  readonly context: { readonly config: Record<string, unknown> }
  readonly hasParams: boolean
  #routeOptions: Readonly<Record<string, unknown>> | (() => Readonly<Record<string, unknown>>)
  /** The route's `logLevel`: its requests' pino child logs at this level. Null: the server's. */
  readonly logLevel: LogLevel | null
  /** The route's pino serializers for its requests' child logger. Null: the server's. */
  readonly logSerializers: LogSerializers | null
  /** True when onResponse or onRequestAbort hooks exist, so the pipeline watches the socket. */
  readonly observesEnd: boolean
  /** The HEAD route a GET route answers by itself (exposeHeadRoutes), not one declared as HEAD. */
  readonly implicitHead: boolean
  /** The handlerTimeout this route's requests are watched by (handler-timeout.ts); null: none. */
  readonly handlerDeadline: DeadlineList | null
  /** The bodyTimeout this route's request bodies are watched by (read-body.ts); null: none. */
  readonly bodyDeadline: DeadlineList | null
  /**
   * True when nobody would see a failed validation's Error: it answers with the default
   * formatter's message, no error handler or onError hook receives it, and no request keeps it
   * (attachValidation). Its 400 is then sent without building it (validation-reply.ts).
   */
  readonly unobservedValidation: boolean

  constructor(init: CompiledRouteInit) {
    this.method = init.method
    this.path = init.path
    this.scope = init.scope
    this.serve = init.serve
    this.handler = init.handler
    this.Request = init.Request
    this.Reply = init.Reply
    this.onRequest = orNull(init.hooks.onRequest)
    this.preParsing = orNull(init.hooks.preParsing)
    this.preValidation = orNull(init.hooks.preValidation)
    this.preHandler = orNull(init.hooks.preHandler)
    this.preSerialization = orNull(init.hooks.preSerialization)
    this.onSend = orNull(init.hooks.onSend)
    this.onResponse = orNull(init.hooks.onResponse)
    this.onError = orNull(init.hooks.onError)
    this.onRequestAbort = orNull(init.hooks.onRequestAbort)
    this.onTimeout = orNull(init.hooks.onTimeout)
    this.lazy = init.lazy
    if (init.schemas !== null) this.installSchemas(init.schemas)
    init.lazy?.addTarget(this)
    this.schemaErrorFormatter = init.schemaErrorFormatter
    this.replySerializer = init.replySerializer
    this.attachValidation = init.attachValidation
    this.parsers = init.parsers
    this.bodyLimit = init.bodyLimit
    this.errorHandlers = init.errorHandlers
    this.config = init.config
    this.context = { config: init.config }
    this.hasParams = init.hasParams
    this.#routeOptions = init.routeOptions
    this.logLevel = init.logLevel ?? null
    this.logSerializers = init.logSerializers ?? null
    this.observesEnd = this.onResponse !== null || this.onRequestAbort !== null
    this.implicitHead = init.implicitHead === true
    this.handlerDeadline = init.handlerDeadline
    this.bodyDeadline = init.bodyDeadline
    this.unobservedValidation = !this.attachValidation && this.errorHandlers.length === 0 && this.onError === null &&
      isDefaultFormatter(this.schemaErrorFormatter)
  }

  /** Fastify's request.routeOptions (frozen), built on first read. */
  get routeOptions(): Readonly<Record<string, unknown>> {
    const options = this.#routeOptions
    if (typeof options !== 'function') return options
    return this.#routeOptions = options()
  }

  /** Sets the validators and serializers: in the constructor (eager), or on the first request (lazy). */
  installSchemas(schemas: CompiledRouteSchemas): void {
    // Whatever the method (issue 12 §1, as Fastify 3): a body schema is never bypassed. On GET and
    // HEAD, whose bodies are never parsed, it sees `null`.
    this.validateParams = schemas.params
    this.validateBody = schemas.body
    this.validateJsonBody = schemas.jsonBody
    this.validateQuery = schemas.querystring
    this.validateHeaders = schemas.headers
    this.validates = this.validateParams !== null || this.validateBody !== null || this.validateQuery !== null || this.validateHeaders !== null
    this.serializers = schemas.response
    this.lazy = null
  }
}
