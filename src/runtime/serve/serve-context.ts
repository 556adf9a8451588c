import type { IncomingMessage, ServerResponse } from 'node:http'
import type { CompiledRoute } from './compiled-route'
import type { Router } from './router'
import type { FrameworkErrorsHandler, Logger, LogLevel, LogSerializers } from '../types'
import type { ServerLimits } from '../shared/server-options'
import type { Deadlines, DeadlineList } from './deadlines'
import type { TrustFn } from './trust-proxy'
import type { ReplyImpl } from './reply'
import { covers, notFoundParams, notFoundPath, type NotFoundReach } from './not-found-params'

const REQUEST_ID_PATTERN = /^[\w.:@/+=-]{1,128}$/

/** The answers for requests no declared route takes; compiled at boot (boot/compile.ts). */
export interface FallbackRoutes {
  /**
   * Not-found routes by prefix (without its trailing slash), longest first; the last one is the
   * root's. `bare`: the prefix itself is covered, false for a prefix registered with a trailing
   * slash (`/v1/` covers `/v1/` and `/v1/...`, not `/v1`, as in Fastify).
   */
  readonly notFound: ReadonlyArray<NotFoundReach & { readonly route: CompiledRoute }>
  /** reply.callNotFound()'s not-found route by the calling route's scope (its own or its nearest ancestor's handler). */
  readonly notFoundOfScope: ReadonlyMap<unknown, CompiledRoute>
  readonly badUrl: CompiledRoute
  readonly methodNotAllowed: CompiledRoute
}

export interface ServeContextInit {
  readonly log: Logger
  readonly limits: ServerLimits
  readonly router: Router
  readonly parseQuery: (url: string) => Record<string, unknown>
  /** The `rewriteUrl` server option; null: URLs are routed as they came. */
  readonly rewriteUrl: ((raw: IncomingMessage) => string) | null
  readonly return503OnClosing: boolean
  readonly deadlines: Deadlines
  readonly handlerDeadline: DeadlineList | null
  readonly bodyDeadline: DeadlineList | null
  readonly genReqId?: (raw: IncomingMessage) => string
  readonly requestIdHeader?: string | false
  /** The compiled `trustProxy` option (trust-proxy.ts); null trusts no proxy. */
  readonly trust: TrustFn | null
  /** A pino logger: each request's log is a child bound to its id. */
  readonly childLogs: boolean
  /** The access log may hand the request and reply to the logger's serializers (a pino Enclave made). */
  readonly logSerializers?: boolean
  /** The key the request id is logged under. Default `reqId`. */
  readonly idLabel: string
  /** "incoming request" / "request completed" lines. */
  readonly requestLogging: boolean
  /** No logger was given: every line is dropped, so work done only for a line can be skipped. */
  readonly silent?: boolean
  /** The `frameworkErrors` server option (the bad-URL route calls it); null: the built-in reply. */
  readonly frameworkErrors?: FrameworkErrorsHandler | null
}

/**
 * Everything the request path reads besides its compiled route, one per server, carried by
 * every compiled route (`route.serve`). Built by the composition root, filled in by boot
 * (router, fallbacks, methods). It holds no declare-phase object: the serve path never sees a
 * ScopeImpl, only the opaque `this` its handlers and hooks are called with.
 */
export class ServeContext {
  readonly log: Logger
  /** Every limit and timeout, defaults applied and checked (shared/server-options.ts). */
  readonly limits: ServerLimits
  readonly router: Router
  readonly parseQuery: (url: string) => Record<string, unknown>
  /** The `rewriteUrl` server option (serve/rewrite-url.ts); null: URLs are routed as they came. */
  readonly rewriteUrl: ((raw: IncomingMessage) => string) | null
  /** The `return503OnClosing` server option: requests arriving during close() are refused. */
  readonly return503OnClosing: boolean
  /** The sweeper behind both request timeouts, and their lists (null when the timeout is off). */
  readonly deadlines: Deadlines
  readonly handlerDeadline: DeadlineList | null
  readonly bodyDeadline: DeadlineList | null
  /** The methods that have at least one route, for 405's Allow header. */
  readonly methods = new Set<string>()
  fallbacks: FallbackRoutes | null = null
  /** The compiled `trustProxy` option, read by request.ip/ips/hostname/protocol. */
  readonly trust: TrustFn | null
  /** reply.callNotFound(): serves the not-found route for a reply's request (wired by the composition root to the pipeline). */
  serveNotFound: (from: ReplyImpl) => void = () => { throw new Error('ServeContext.serveNotFound used before create-server wired it') }
  /**
   * A request that reached the server before its boot (`supertest(app.server)` without `await
   * app.ready()`, the Express habit): boots it, as inject() does, then serves the request (wired by
   * the composition root). Only the no-route branch asks: before the boot no route exists.
   */
  serveBeforeBoot: (raw: IncomingMessage, res: ServerResponse) => void = () => { throw new Error('ServeContext.serveBeforeBoot used before create-server wired it') }
  /** Set by close(): requests arriving from then on are answered 503 (return503OnClosing). */
  closing = false
  /**
   * Set by close() and, earlier, by startDraining() (closeOnSignals' shutdownDelay): responses
   * written from then on close their connection (reply-state.ts), so keep-alive clients move to
   * a new connection, which the balancer sends elsewhere once readiness has failed.
   */
  closeConnections = false
  /**
   * End hooks (onResponse, onRequestAbort) still running for requests that ended while closing:
   * close() waits for them before it runs onClose hooks and resolves. Empty outside shutdown.
   */
  readonly endingDuringClose = new Set<Promise<void>>()
  /** Open `text/event-stream` replies piped from a stream: close() ends them (event-streams.ts). */
  readonly eventStreams = new Set<() => void>()
  /**
   * Responses a handler or plugin took over with reply.hijack(): routing leaves their upgrade
   * sockets to them (a websocket outlives the request deadline). Weak: nothing to clean up.
   */
  readonly hijacked = new WeakSet<ServerResponse>()
  /** True when request.log is a child already bound to the id (pino): log lines then omit it. */
  readonly logSerializers: boolean
  readonly childLogs: boolean
  readonly idLabel: string
  /** The access log is on: the pipeline logs each request's start and end (serve/access-log.ts). */
  readonly requestLogging: boolean
  /** No logger was given (ServeContextInit.silent). */
  readonly silent: boolean
  readonly frameworkErrors: FrameworkErrorsHandler | null
  #counter = 0
  readonly #idHeader: string | null

  constructor(init: ServeContextInit) {
    this.log = init.log
    this.childLogs = init.childLogs
    this.logSerializers = init.logSerializers === true
    this.idLabel = init.idLabel
    this.requestLogging = init.requestLogging
    this.silent = init.silent === true
    this.limits = init.limits
    this.router = init.router
    this.parseQuery = init.parseQuery
    this.rewriteUrl = init.rewriteUrl
    this.return503OnClosing = init.return503OnClosing
    this.deadlines = init.deadlines
    this.handlerDeadline = init.handlerDeadline
    this.bodyDeadline = init.bodyDeadline
    this.trust = init.trust
    this.frameworkErrors = init.frameworkErrors ?? null
    this.#idHeader = typeof init.requestIdHeader === 'string' ? init.requestIdHeader.toLowerCase() : null
    if (init.genReqId !== undefined) this.#generate = init.genReqId
  }

  // The id when no accepted header gives one: the server's counter, or the user's genReqId.
  #generate = (_raw: IncomingMessage): string => `req-${(++this.#counter).toString(36)}`

  /**
   * Request ids come from the server. Taking one from a client header is opt-in
   * (`requestIdHeader`), and even then only a short, plain token is accepted: a client must
   * not be able to write arbitrary text into the logs. As in Fastify 3, an accepted header wins
   * over a user's `genReqId`, which makes the ids of requests without one.
   */
  genReqId = (raw: IncomingMessage): string => {
    if (this.#idHeader !== null) {
      const sent = raw.headers[this.#idHeader]
      if (typeof sent === 'string' && REQUEST_ID_PATTERN.test(sent)) return sent
    }
    return this.#generate(raw)
  }

  /**
   * The logger a request's `request.log` is: a pino child bound to the id when logging is on
   * with pino (one child per request, so only then), the server's own logger otherwise.
   */
  requestLog(id: string, level: LogLevel | null = null, serializers: LogSerializers | null = null): Logger {
    if (!this.childLogs) return this.log
    const parent = this.log as unknown as { child(b: Record<string, unknown>, o?: { level?: LogLevel; serializers?: LogSerializers }): Logger }
    if (level === null && serializers === null) return parent.child({ [this.idLabel]: id })
    // A route's logLevel and logSerializers (Fastify 3): pino takes both as a child's options.
    const options: { level?: LogLevel; serializers?: LogSerializers } = {}
    if (level !== null) options.level = level
    if (serializers !== null) options.serializers = serializers
    return parent.child({ [this.idLabel]: id }, options)
  }

  /** The fields of an internal log line: the request id added unless request.log carries it already. */
  idFields(id: string, fields: Record<string, unknown>): Record<string, unknown> {
    if (!this.childLogs) fields[this.idLabel] = id
    return fields
  }

  /**
   * The route that answers when the router has none (bad URL, wrong method, or not found) and the
   * request.params it reads: Fastify 3's `{ '*': rest }` from its not-found routes, before a 405
   * too (not-found-params.ts); an undecodable URL matched nothing, `{}`.
   */
  noRoute(raw: IncomingMessage, badUrl: boolean): { route: CompiledRoute; params: Record<string, unknown> } {
    const fallbacks = this.fallbacks as FallbackRoutes
    if (badUrl) return { route: fallbacks.badUrl, params: {} }
    const url = raw.url as string
    const path = notFoundPath(url)
    const reach = this.#notFoundReach(path)
    const params = path === null ? {} : notFoundParams(reach, path)
    return { route: this.allowedMethods(url, raw).length > 0 ? fallbacks.methodNotAllowed : reach.route, params }
  }

  /** reply.callNotFound(): the not-found route of the calling route's scope, as in Fastify 3. */
  notFoundRouteOf(from: CompiledRoute, url: string): CompiledRoute {
    return (this.fallbacks as FallbackRoutes).notFoundOfScope.get(from.scope) ?? this.#notFoundReach(notFoundPath(url)).route
  }

  #notFoundReach(path: string | null): FallbackRoutes['notFound'][number] {
    const { notFound } = this.fallbacks as FallbackRoutes
    if (path !== null) for (const entry of notFound) if (covers(entry, path)) return entry
    return notFound[notFound.length - 1]
  }

  /**
   * True where reply.callNotFound() has nowhere further to go: a not-found route (the built-in
   * one or a setNotFoundHandler's), and the bad-URL route (an undecodable URL has no prefix to
   * pick a not-found handler by), as in Fastify 3.
   */
  endsNotFound(route: CompiledRoute): boolean {
    const fallbacks = this.fallbacks as FallbackRoutes
    return route === fallbacks.badUrl || fallbacks.notFound.some((entry) => entry.route === route)
  }

  /**
   * The methods that do have a route for this URL and request's constraints (for 405 and its Allow
   * header). A catch-all route (`*`, `/*`) does not make a URL known: @fastify/cors declares
   * `OPTIONS *`, and every unknown URL must stay a 404 that reaches the not-found handlers.
   */
  allowedMethods(url: string, raw?: IncomingMessage): string[] {
    const allowed: string[] = []
    for (const method of this.methods) {
      const match = this.router.find(method, url, raw)
      if (match !== null && match.store !== null && !isCatchAll(match.store.path)) allowed.push(method)
    }
    return allowed
  }
}

function isCatchAll(path: string | null): boolean {
  return path === '*' || path === '/*'
}
