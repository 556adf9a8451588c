import type { ServerResponse } from 'node:http'
import { runtimeError } from '../errors/runtime-codes'
import type { CompiledRoute } from './compiled-route'
import type { RequestImpl } from './request'
import type { DeadlineList } from './deadlines'
import { sendReply } from './send'
import { memberNames } from './member-names'
import { ReplyState, isOpen } from './reply-state'
import { callNotFound, hijackReply, redirectReply, serializeForReply, writeEarlyHints } from './reply-extras'
import type { Logger, Reply, Request } from '../types'
import { warnReplyRes } from '../shared/deprecations'

export type HeaderValue = string | number | readonly string[]

/** What runs when reply.callNotFound() handed the response over: the calling route's request and reply. */
export type HandOver = (request: Request, reply: Reply) => void

/**
 * A header value as the text it will be written as, taken once. Node checks a value for CR/LF
 * and then writes it, turning an object into text twice: one whose toString() answers
 * differently the second time would pass the check and inject headers. Strings and numbers are
 * kept, and null (written as the text null, as Fastify 3 does); header() turns undefined into "" first (Fastify 3).
 */
function headerText(value: unknown): HeaderValue {
  if (typeof value === 'number' || value === undefined || value === null) return value as HeaderValue
  if (Array.isArray(value)) return value.map((item: unknown) => typeof item === 'string' ? item : String(item))
  return String(value)
}


/**
 * The reply. Headers are collected in a plain object and written with one `writeHead` call.
 * Scopes with reply decorators extend this class at boot.
 */
export class ReplyImpl {
  readonly raw: ServerResponse
  readonly request: RequestImpl
  readonly route: CompiledRoute
  /**
   * The status. code() also puts it on `raw.statusCode` at once, as Fastify does: plugins read
   * `reply.raw.statusCode` in their onSend hooks (@fastify/circuit-breaker counts a 5xx there).
   * A plain field, not an accessor over raw: the accessor cost 4-7% CPU per request (bench A/B).
   */
  statusCode: number
  /** Lower-cased header names to values. Internal: use header()/getHeader(). */
  headerMap: Record<string, HeaderValue>
  /** See reply-state.ts: changed only through its functions. */
  state: ReplyState
  customSerializer: ((data: unknown) => string) | null
  /** Index of the next error handler to try (nearest scope first). */
  errorDepth: number
  onErrorRan: boolean
  /** True while onError hooks run: send() is refused there (Fastify's FST_ERR_SEND_INSIDE_ONERR). */
  inOnError: boolean
  /** True while the built-in error reply is sent: it skips preSerialization, as in Fastify. */
  errorPayload: boolean
  /** The deadline this reply is watched by (deadlines.ts): handlerTimeout or bodyTimeout; null when none. */
  deadlineList: DeadlineList | null
  deadlineSince: number
  deadlinePrev: ReplyImpl | null
  deadlineNext: ReplyImpl | null
  /** Set by read-body.ts while it waits for the body: what bodyTimeout calls. */
  onBodyTimeout: (() => void) | null
  /** Set when handlerTimeout expired once: a second expiry writes the 503 past every hook. */
  timedOut: boolean
  /**
   * Set by code(): error-reply.ts clears it before an error handler runs, to tell a status the
   * handler chose (even the one it was given) from one it left as it was.
   */
  codeChosen: boolean
  /**
   * Called when reply.callNotFound() hands the response to the not-found route's reply: this
   * reply's route's end hooks will not run (Fastify 3's context switch). Set by the layer above
   * (the request's request-scoped instances, hand-over.ts) only on the replies that need it.
   */
  handOver: HandOver | null

  constructor(raw: ServerResponse, request: RequestImpl, route: CompiledRoute) {
    this.raw = raw
    this.request = request
    this.route = route
    this.statusCode = 200
    this.headerMap = {}
    this.state = ReplyState.Open
    this.customSerializer = null
    this.errorDepth = 0
    this.onErrorRan = false
    this.inOnError = false
    this.errorPayload = false
    this.deadlineList = null
    this.deadlineSince = 0
    this.deadlinePrev = null
    this.deadlineNext = null
    this.onBodyTimeout = null
    this.timedOut = false
    this.codeChosen = false
    this.handOver = null
  }

  /** True once `send` accepted a payload (the bytes may still be on their way through onSend hooks). */
  get sent(): boolean {
    return !isOpen(this)
  }

  /** Fastify 3's deprecated hijack (FSTDEP010): `reply.sent = true` says the handler answers through reply.raw itself. */
  set sent(value: boolean) {
    if (value !== true) throw runtimeError('ENC_ERR_REPLY_SENT_VALUE', { given: String(value) })
    // Fastify 3 throws here (FST_ERR_REP_ALREADY_SENT): a hijack after the answer went out would
    // otherwise pass silently, and the handler would believe it owns reply.raw.
    if (this.sent) throw runtimeError('ENC_ERR_REPLY_ALREADY_SENT', { sentSetter: true })
    this.hijack()
  }

  code(statusCode: number): this {
    // Fastify 3 takes a status given as digits too (`reply.code('201')`, a value read from config).
    const status = typeof statusCode === 'string' && /^[0-9]{3}$/.test(statusCode) ? Number(statusCode) : statusCode
    // A 1xx is no final response: sent as one, it would leave the client waiting for the real one.
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw runtimeError('ENC_ERR_REPLY_INVALID_STATUS', { given: String(statusCode) })
    }
    this.statusCode = status
    this.raw.statusCode = status
    this.codeChosen = true
    return this
  }

  status(statusCode: number): this {
    return this.code(statusCode)
  }

  header(name: string, value: HeaderValue): this {
    const key = name.toLowerCase()
    // As Fastify 3: an undefined value is an empty header, and Set-Cookie accumulates (each
    // cookie is its own header line, RFC 6265 §3), where any other header is replaced.
    const given: HeaderValue = value === undefined ? '' : typeof value === 'string' ? value : headerText(value)
    const previous = this.headerMap[key]
    if (key === 'set-cookie' && previous !== undefined && previous !== '') {
      const list = Array.isArray(previous) ? [...previous as readonly string[]] : [String(previous)]
      if (Array.isArray(given)) list.push(...given as readonly string[])
      else list.push(String(given))
      this.headerMap[key] = list
    } else {
      this.headerMap[key] = given
    }
    return this
  }

  headers(values: Record<string, HeaderValue>): this {
    for (const name of Object.keys(values)) this.header(name, values[name])
    return this
  }

  // As Fastify 3: a header set on reply.raw (by a middleware, say) counts too, the reply's own first.
  getHeader(name: string): HeaderValue | undefined {
    const key = name.toLowerCase()
    const own = this.headerMap[key]
    return own !== undefined ? own : this.raw.getHeader(key) as HeaderValue | undefined
  }

  hasHeader(name: string): boolean {
    const key = name.toLowerCase()
    return this.headerMap[key] !== undefined || this.raw.hasHeader(key)
  }

  removeHeader(name: string): this {
    delete this.headerMap[name.toLowerCase()]
    return this
  }

  type(contentType: string): this {
    this.headerMap['content-type'] = typeof contentType === 'string' ? contentType : headerText(contentType)
    return this
  }

  /** Serializes this reply's object payload with `fn` instead of the route's response schema. */
  serializer(fn: (data: unknown) => string): this {
    this.customSerializer = fn
    return this
  }

  send(payload?: unknown): this {
    // A status put on reply.raw alone, then sent through the reply (Express's `res.status(201).json()`
    // under @fastify/express, whose `res.send` is reply.send): Fastify reads its status from raw, so
    // raw's is taken while the reply's own was never chosen. Three reads; no accessor (see statusCode).
    if (this.statusCode === 200 && !this.codeChosen && this.raw.statusCode !== 200) adoptRawStatus(this)
    sendReply(this, payload)
    return this
  }

  /** The scope of the route being served (Fastify's `reply.server`). */
  get server(): unknown { return this.route.scope }
  /** Fastify 3's deprecated name for `raw` (Fastify's FSTDEP002 warning, once). */
  get res(): ServerResponse { warnReplyRes(); return this.raw }
  /** Milliseconds since the request reached the framework (Fastify 4+'s `reply.elapsedTime`). */
  get elapsedTime(): number { return performance.now() - this.request.startTime }
  /** Fastify 3's name for elapsedTime. */
  getResponseTime(): number { return this.elapsedTime }
  /** Fastify 3's `reply.context`: the route's `config` (the same object as `request.context`). */
  get context(): { readonly config: Record<string, unknown> } { return this.route.context }
  /** Fastify 5's `reply.routeOptions`: the request's (its `version` included). */
  get routeOptions(): Readonly<Record<string, unknown>> { return this.request.routeOptions }
  get log(): Logger { return this.request.log }

  getHeaders(): Record<string, HeaderValue> {
    return { ...this.raw.getHeaders() as Record<string, HeaderValue>, ...this.headerMap }
  }

  /** `redirect(url, code?)` (Fastify 4+) or Fastify 3's `redirect(code, url)`; 302 by default. */
  redirect(a: string | number, b?: string | number): this {
    redirectReply(this, a, b)
    return this
  }

  /**
   * Fastify 5's `reply.writeEarlyHints(hints, callback)`: a 103 Early Hints response before the
   * final one. Fastify 5 has it built in, which is why @fastify/early-hints (Fastify 4 only) has no
   * Fastify 5 major. What Node leaves unchecked is checked in reply-extras.ts.
   */
  writeEarlyHints(hints: Record<string, string | readonly string[]>, callback?: () => void): this {
    writeEarlyHints(this, hints, callback)
    return this
  }

  /** Takes the response over: the framework writes nothing more for this request (Fastify's hijack). */
  hijack(): this {
    hijackReply(this)
    this.route.serve.hijacked.add(this.raw)
    return this
  }

  /** Answers with the not-found handler that covers this URL, as if no route had matched. */
  callNotFound(): void {
    callNotFound(this)
  }

  /** The payload as the route's response schema for the current status (or JSON) would write it. */
  serialize(payload: unknown): string {
    return serializeForReply(this, payload)
  }
}

/**
 * The names a reply decorator may not take: the reply's own fields and members, read from an
 * instance, and `then`: a reply with `then` would be taken for a promise when an async handler
 * returns it.
 */
export const reservedReplyNames: ReadonlySet<string> = memberNames(new ReplyImpl({} as ServerResponse, {} as RequestImpl, {} as CompiledRoute), ['then'])

/** The status middleware set on `reply.raw`, when it is one a reply may send (a final 2xx-5xx). */
function adoptRawStatus(reply: ReplyImpl): void {
  const status = reply.raw.statusCode
  if (Number.isInteger(status) && status >= 200 && status <= 599) reply.statusCode = status
}
