import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import { requestSignal } from './abort-signal'
import { responseGone } from './response-gone'
import { memberNames } from './member-names'
import type { Logger, ValidationError } from '../types'
import type { CompiledRoute } from './compiled-route'
import { clientHostname, clientIp, clientIps, clientProtocol } from './trust-proxy'
import { warnRequestConnection, warnRequestReq } from '../shared/deprecations'

/**
 * The request object. Its shape is fixed (every field assigned in the constructor) so that V8
 * keeps one hidden class per scope's subclass. Scopes with request decorators extend it at boot.
 */
export class RequestImpl {
  readonly id: string
  readonly raw: IncomingMessage
  readonly method: string
  readonly url: string
  readonly routePath: string | null
  params: Record<string, unknown>
  query: Record<string, unknown>
  /** The parsed body; null when none was parsed (Fastify 3: lib/request.js), so a handler echoing it sends `null`. */
  body: unknown
  /**
   * `raw.headers`, taken on first read. (On HTTP/1.1 it is built by then: node:http 20's
   * parserOnIncoming reads `req.headers.expect` before the 'request' event; the server's request
   * class builds it, server/incoming-message.ts.)
   * null: not read yet. Internal: use `headers`.
   */
  headerValues: Record<string, unknown> | null
  validationError: ValidationError | undefined
  readonly log: Logger
  /** The compiled route being served (its options, config and scope). Internal: read `routeOptions`. */
  readonly route: CompiledRoute
  /** The body stream a preParsing hook put in place of `raw`; null: read `raw`. Internal. */
  payloadStream: Readable | null
  /** The body as the built-in JSON parser made it; undefined: another parser, or none. Internal. */
  jsonBody: unknown
  /** Set where the pipeline sees the client go (a failed body read, the end hooks). Internal: read `aborted`. */
  abortSeen: boolean
  /** The response this request is answered on, watched by `signal`. Internal. */
  readonly response: ServerResponse
  /** Behind `signal`; null until the signal is first asked for (abort-signal.ts). Internal. */
  abortController: AbortController | null
  /** performance.now() when the request reached the framework: reply.elapsedTime and the access log's responseTime. */
  readonly startTime: number

  // Positional on purpose: this runs once per request and an options object would be one more allocation.
  constructor(raw: IncomingMessage, response: ServerResponse, id: string, routePath: string | null, params: Record<string, unknown>,
    query: Record<string, unknown>, route: CompiledRoute, log: Logger) {
    this.id = id
    this.raw = raw
    this.method = raw.method as string
    this.url = raw.url as string
    this.routePath = routePath
    this.params = params
    this.query = query
    this.body = null
    this.headerValues = null
    this.validationError = undefined
    this.log = log
    this.route = route
    this.payloadStream = null
    this.jsonBody = undefined
    this.abortSeen = false
    this.response = response
    this.abortController = null
    this.startTime = performance.now()
  }

  /** The route option `config` (an empty object when none was given). */
  get routeConfig(): Record<string, unknown> { return this.route.config }
  /** Fastify 3's `request.context`: the route's `config` (the same object as `reply.context`). */
  get context(): { readonly config: Record<string, unknown> } { return this.route.context }
  /** The scope of the route being served (Fastify's `request.server`): the same opaque `this` as its handler's. */
  get server(): unknown { return this.route.scope }
  /**
   * Fastify's `request.routeOptions`: url, method, config, schema and the route's other options, frozen.
   * Once a route is versioned, Fastify 5 adds the request's Accept-Version as `version`: then a
   * copy per read, so that a server without versioned routes shares the route's one object.
   */
  get routeOptions(): Readonly<Record<string, unknown>> {
    const options = this.route.routeOptions
    if (!this.route.serve.router.versioned()) return options
    return Object.freeze({ ...options, version: this.raw.headers['accept-version'] })
  }
  /** Fastify 3's names for the declared path and method(s) (lib/request.js: context.config's url and method). */
  get routerPath(): string | undefined { return this.route.path === null ? undefined : this.route.context.config.url as string }
  /** The method option as declared (an array for `all()` or `method: [...]`); undefined in the not-found handler. */
  get routerMethod(): string | readonly string[] | undefined { return this.route.context.config.method as string | readonly string[] | undefined }
  /** True when the not-found handler is serving this request. */
  get is404(): boolean { return this.route.path === null }
  get socket(): IncomingMessage['socket'] { return this.raw.socket }
  /** Fastify 3's deprecated name for `socket`, which plugins written for it still read (Fastify's FSTDEP005 warning, once). */
  get connection(): IncomingMessage['socket'] { warnRequestConnection(); return this.raw.socket }
  /** Fastify 3's deprecated name for `raw` (Fastify's FSTDEP001 warning, once). */
  get req(): IncomingMessage { warnRequestReq(); return this.raw }
  /** The client address: the socket's peer, or with `trustProxy` the nearest untrusted X-Forwarded-For hop. */
  get ip(): string | undefined { return clientIp(this.raw, this.route.serve.trust) }
  get ips(): string[] | undefined { return clientIps(this.raw, this.route.serve.trust) }
  /** The Host header (with its port, as Fastify 3), or X-Forwarded-Host from a trusted proxy. */
  get hostname(): string | undefined { return clientHostname(this.raw, this.route.serve.trust) }
  get protocol(): 'http' | 'https' { return clientProtocol(this.raw, this.route.serve.trust) }
  /** Fastify 5's name for the same value as hostname (Host with its port): plugins of that line read it. */
  get host(): string | undefined { return this.hostname }
  /** The port the Host (or trusted X-Forwarded-Host) names, as Fastify 5; null when it names none. */
  get port(): number | null { return portOf(this.hostname) }

  /**
   * True once the client went away before the reply was written. Read from the response itself,
   * so it holds on every route, not only on those with onResponse or onRequestAbort hooks. On
   * HTTP/2 the compatibility response has no `destroyed`: its stream says the client went, and
   * a reset stream reads `writableFinished`, so there the reply counts as written once ended.
   */
  get aborted(): boolean {
    if (this.abortSeen) return true
    const response = this.response
    if (response.destroyed) return !response.writableFinished
    return responseGone(response) && !response.writableEnded
  }

  set aborted(value: boolean) {
    this.abortSeen = value
  }

  /** Aborts when the client goes away or handlerTimeout answers; see abort-signal.ts. */
  get signal(): AbortSignal {
    return requestSignal(this)
  }

  get headers(): Record<string, unknown> {
    if (this.headerValues === null) this.headerValues = this.raw.headers as Record<string, unknown>
    return this.headerValues
  }

  /** Header validation with coercion or defaults replaces the object with its validated copy. */
  set headers(value: Record<string, unknown>) {
    this.headerValues = value
  }
}

/**
 * The names a request decorator may not take: the request's own fields and members, read from
 * an instance (every field is assigned in the constructor, so a probe has them all).
 */
export const reservedRequestNames: ReadonlySet<string> = memberNames(
  new RequestImpl({ method: 'GET', url: '/' } as IncomingMessage, {} as ServerResponse, '', null, {}, {}, {} as CompiledRoute, {} as Logger))

function portOf(host: string | undefined): number | null {
  if (host === undefined) return null
  // `[::1]:8080` and `example.com:8080`; a bare IPv6 literal has colons but no port.
  const match = /:(\d{1,5})$/.exec(host)
  if (match === null || (host.includes('::') && !host.startsWith('['))) return null
  const port = Number(match[1])
  return port <= 65535 ? port : null
}
