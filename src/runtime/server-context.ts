import type { IncomingMessage, Server } from 'node:http'
import type { Socket } from 'node:net'
import type { CompiledRoute } from './compiled-route'
import type { ScopeImpl } from './scope'
import { resolveLogger } from './logger'
import { createRouter, queryParser, type Router } from './router'
import { SchemaCompilers } from './schemas'
import type { Logger, ServerOptions } from './types'
import type { RouteDefinition } from './route-declaration'
import { jsonParser, textParser } from './body/json-parser'
import type { BodyParser } from './body/parser-table'
import { resolveLimits, type ServerLimits } from './server-options'
import { checkServerOptions } from './option-checks'
import { Deadlines, type DeadlineList } from './deadlines'
import { onHandlerExpired } from './handler-timeout'
import { onBodyExpired } from './body/read-body'

/** One registration waiting to run: avvio's model, a tree in registration order. */
export interface PluginNode {
  readonly plugin: Function | null
  readonly options: Record<string, unknown>
  /** The scope `register` was called on: the new scope's parent, or the scope a lifted plugin runs in. */
  readonly owner: unknown
  readonly children: PluginNode[]
}

const REQUEST_ID_PATTERN = /^[\w.:@/+=-]{1,128}$/

/** Server-wide state shared by every scope of one server. Internal. */
export class ServerContext {
  readonly options: ServerOptions
  readonly log: Logger
  /** Every limit and timeout, defaults applied and checked (server-options.ts). */
  readonly limits: ServerLimits
  /** The sweeper behind both request timeouts, and their lists (null when the timeout is off). */
  readonly deadlines: Deadlines
  readonly handlerDeadline: DeadlineList | null
  readonly bodyDeadline: DeadlineList | null
  readonly router: Router
  readonly schemaCompilers: SchemaCompilers
  readonly parseQuery: (url: string) => Record<string, unknown>
  readonly rootNode: PluginNode = { plugin: null, options: {}, owner: null, children: [] }
  currentNode: PluginNode = this.rootNode
  /** Set when compilation starts: from then on every declaration throws ENC_ERR_SCOPE_BOOTED. */
  booted = false
  readyPromise: Promise<void> | null = null
  closePromise: Promise<void> | null = null
  /** Set by close(): responses written from then on close their connection (reply.ts writeHead). */
  closing = false
  /** Open connections, so close() can end those that never sent a byte (server.ts, server-lifecycle.ts). */
  readonly sockets = new Set<Socket>()
  server!: Server
  rootScope!: ScopeImpl
  /** Not-found routes by prefix, longest first; the last one is the root's. */
  notFoundRoutes: Array<{ prefix: string; route: CompiledRoute }> = []
  badUrlRoute!: CompiledRoute
  methodNotAllowedRoute!: CompiledRoute
  readonly methods = new Set<string>()
  readonly routes: RouteDefinition[] = []
  /** The built-in parsers, below every scope's own: a scope may replace them for its subtree. */
  readonly defaultParsers: ReadonlyMap<string, BodyParser>
  #counter = 0
  readonly #idHeader: string | null

  constructor(given: ServerOptions) {
    const options = this.options = checkServerOptions(given)
    this.log = resolveLogger(options.logger)
    const limits = this.limits = resolveLimits(options)
    this.deadlines = new Deadlines([limits.handlerTimeout, limits.bodyTimeout], this.log)
    this.handlerDeadline = limits.handlerTimeout > 0 ? this.deadlines.list(limits.handlerTimeout, onHandlerExpired) : null
    this.bodyDeadline = limits.bodyTimeout > 0 ? this.deadlines.list(limits.bodyTimeout, onBodyExpired) : null
    this.defaultParsers = new Map([['application/json', jsonParser(limits.maxJsonDepth)], ['text/plain', textParser]])
    this.router = createRouter({ maxQueryKeys: limits.maxQueryKeys })
    this.schemaCompilers = new SchemaCompilers({ validator: options.validator, schemaController: options.schemaController })
    const parse = queryParser(limits.maxQueryKeys)
    this.parseQuery = (url) => { const q = url.indexOf('?'); return q === -1 ? {} : parse(url.slice(q + 1)) }
    this.#idHeader = typeof options.requestIdHeader === 'string' ? options.requestIdHeader.toLowerCase() : null
    if (options.genReqId !== undefined) this.genReqId = options.genReqId
  }

  /**
   * Request ids come from the server. Taking one from a client header is opt-in
   * (`requestIdHeader`), and even then only a short, plain token is accepted: a client must
   * not be able to write arbitrary text into the logs.
   */
  genReqId = (raw: IncomingMessage): string => {
    if (this.#idHeader !== null) {
      const sent = raw.headers[this.#idHeader]
      if (typeof sent === 'string' && REQUEST_ID_PATTERN.test(sent)) return sent
    }
    return `req-${(++this.#counter).toString(36)}`
  }

  /** The route that answers when the router has none: bad URL, wrong method, or not found. */
  notFoundRoute(raw: IncomingMessage, badUrl: boolean): CompiledRoute {
    if (badUrl) return this.badUrlRoute
    const url = raw.url as string
    if (this.allowedMethods(url).length > 0) return this.methodNotAllowedRoute
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    for (const entry of this.notFoundRoutes) {
      const { prefix } = entry
      if (prefix === '' || path === prefix || (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47)) return entry.route
    }
    return this.notFoundRoutes[this.notFoundRoutes.length - 1].route
  }

  /** The methods that do have a route for this URL (for 405 and its Allow header). */
  allowedMethods(url: string): string[] {
    const allowed: string[] = []
    for (const method of this.methods) {
      const match = this.router.find(method, url)
      if (match !== null && match.store !== null) allowed.push(method)
    }
    return allowed
  }
}
