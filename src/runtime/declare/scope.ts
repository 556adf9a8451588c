import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readDecorator } from '../shared/read-decorator'
import { runtimeError } from '../errors/runtime-codes'
import { HookStore, assertHook } from './hooks'
import { settleInto } from './callback-form'
import { requestHookNames } from '../shared/bound-hook'
import { answerHandshakeErrorsInJson, isWsServer } from './websocket-handshake-errors'
import { toDecoration, applyDecoration, type Decoration, type DecoratorTarget } from './decorations'
import { normalizeDeclaredType } from '../shared/media-type'
import { parserMode, type BodyParser } from '../shared/body-parser'
import { SchemaStore, checkSchemaControllerOptions, plainSchema } from '../schemas'
import { checkSchemaCompilation, type SchemaCompilation } from '../shared/schema-compilation'
import type { BootProfile } from '../shared/boot-profile'
import type { DeclareContext } from './declare-context'
import { isPoisonAction, type PoisonAction } from '../shared/json-poisoning'
import { declareRoute, shortcut } from './route-declaration'
import { fastifyApiVersion, isMadeUpPluginName, readPluginMeta } from '../shared/plugin-meta'
import { liftMetaOf } from '../shared/lift-marks'
import { installUnsupportedApis } from './unsupported-api'
import { checkPrintRoutesOptions } from './print-routes-options'
import { guardMiddieUse, installMissingMiddlewareUse, isMiddieUse, pluginReplaceableMembers } from './missing-middleware'
import { findRoute, hasRoute, type FoundRoute, type LookupOptions } from './route-lookup'
import { warnPayloadParser } from '../shared/deprecations'
import { isAsyncFunction } from './option-checks'
import { didYouMean } from '../schemas'
import type {
  ContentTypeParserFn, ContentTypeParserCallback, ContentTypeStreamParser, ContentTypeParserOptions, ErrorHandler, Handler, HookName, InjectChain, InjectOptions, InjectResponse,
  ListenOptions, LogSerializers, Logger, PluginModule, ServerLogger, NotFoundHandler, NotFoundOptions, TypedErrorHandler, TypedNotFoundHandler, ReadyOptions, RouteOptions, RouteShorthandOptions, Scope, ScopeDecorations,
} from '../types'
import type { JsonSchema, ReplySerializer, SchemaControllerOptions, SchemaErrorFormatter, SerializerCompiler, SharedSchema, ValidatorCompiler } from '../schemas/types'
import type { Inspection, ModuleInspection, RouteInspection, ScopeAnnotation, ScopeInspection } from '../shared/introspection'
import type { OpenApiDocument, OpenApiInfo } from '../shared/openapi-types'

type AnyHandler = (...args: any[]) => unknown

type AnyParser = ContentTypeParserFn | ContentTypeParserCallback | ContentTypeStreamParser

/**
 * An ancestor's instance decorator on a descendant scope. A value is read through from the
 * parent, so a value the ancestor reassigns later (in onReady, say) reaches every descendant, as
 * Fastify's prototype chain gives it; assigning on the descendant shadows it there only.
 */
function inheritDecoration(target: ScopeImpl, parent: ScopeImpl, decoration: Decoration): void {
  if (decoration.kind !== 'value') { applyDecoration(target, decoration); return }
  const name = decoration.name
  Object.defineProperty(target, name, {
    get: () => (parent as unknown as Record<string | symbol, unknown>)[name],
    set: (value: unknown) => { Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false }) },
    configurable: true,
    enumerable: false,
  })
}

/** A RegExp content type as matched: without `g`/`y`, whose lastIndex would make test() alternate. */
function matchingPattern(declared: RegExp): RegExp {
  return declared.global || declared.sticky ? new RegExp(declared.source, declared.flags.replace(/[gy]/g, '')) : declared
}

/**
 * What `errorHandler` gives where no scope set one. The built-in reply lives in serve/, out of
 * declare/'s reach; called from an error handler it rethrows, so the error goes on to the next
 * handler and, at the end, to the built-in reply, as a throw from any error handler does.
 */
function builtInErrorHandler(error: Error): never {
  throw error
}

/**
 * An encapsulation context (spec §3.3): a parent pointer and its own stores. Declarations only
 * record; boot resolves every store once, ancestors first (boot/scope-resolution.ts), and
 * compiles the routes. ready/listen/close/inject forward to the facade the composition root
 * built (server/create-server.ts): this class knows nothing of booting or serving.
 */
/**
 * The app's own ScopeDecorations (`declare module 'enclave' { interface ScopeDecorations { db: Db } }`)
 * are on every scope at run time (decorate()); merged in here so that the shipped .d.ts still
 * checks `implements Scope` in an app that declares some (skipLibCheck: false; TS2420 otherwise).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface, @typescript-eslint/no-unsafe-declaration-merging
export interface ScopeImpl extends ScopeDecorations {}

export class ScopeImpl implements Scope {
  [decorator: string]: unknown
  readonly context: DeclareContext
  readonly parent: ScopeImpl | null
  readonly name: string
  readonly path: string
  readonly prefix: string
  /**
   * Fastify's route prefix: `prefix` with the trailing slash the registration wrote
   * (`{ prefix: '/v1/' }`), which decides where a route `/` is served (route-declaration.ts).
   */
  readonly routePrefix: string
  /**
   * Fastify's plugin-level `logLevel` (`register(plugin, { logLevel })`): the level of the routes
   * declared here and below that name none. '' (Fastify's default): the server logger's.
   */
  logLevel: string
  /** Fastify's plugin-level `logSerializers`, merged over the parent's; null: none. */
  logSerializers: LogSerializers | null
  readonly children: ScopeImpl[] = []
  /**
   * What pluginName reads (Fastify's kPluginNameChain): a plugin's own scope starts with its name;
   * each plugin lifted into the scope with a display name (fastify-plugin's) adds its own.
   */
  readonly pluginNameChain: string[] = []
  /** Names of the plugins registered here (plugin-meta name or display name), for hasPlugin(). */
  readonly pluginNames: string[] = []
  readonly hooks = new HookStore()
  readonly decorations: Record<DecoratorTarget, Map<string | symbol, Decoration>> = { request: new Map(), reply: new Map(), instance: new Map() }
  readonly schemas: SchemaStore
  readonly parsers = new Map<string, BodyParser>()
  /** removeContentTypeParser(): inherited (or built-in) types this scope no longer parses. */
  readonly removedParsers = new Set<string>()
  /** removeAllContentTypeParsers(): the scope starts from no parser at all. */
  removedAllParsers = false
  /** setValidatorCompiler() / setSerializerCompiler() in this very scope; null: inherited or the builders'. */
  ownValidatorCompiler: ValidatorCompiler | null = null
  ownSerializerCompiler: SerializerCompiler | null = null
  /** This scope's own setReplySerializer(); resolved with its ancestors' at boot. */
  replySerializer: ReplySerializer | null = null
  schemaErrorFormatter: SchemaErrorFormatter | null = null
  /** Set by setSchemaCompilation(); null inherits the parent's (the server option at the root). */
  schemaCompilation: SchemaCompilation | null = null
  /** This scope's own setErrorHandler(); null: none here (the `errorHandler` getter walks up). */
  ownErrorHandler: ErrorHandler | null = null
  /** ownErrorHandler bound to this scope, as Fastify's `errorHandler` getter gives it (a plugin may call it unbound). */
  #boundErrorHandler: ErrorHandler | null = null
  notFoundHandler: NotFoundHandler | null = null
  // Introspection only (printTree, explain, openapi): never read when serving.
  /** Which module or plugin made each declaration, keyed by the hook, decoration, `schema:<id>` or setter slot. */
  readonly origins = new Map<unknown, string>()
  /** Which registration declared each decoration (#registration), for ENC_ERR_DEC_ALREADY_PRESENT. */
  readonly #registrations = new Map<Decoration, string>()
  /**
   * The registered name (fastify-plugin's `name`, Fastify's pluginName) of the plugin that added
   * each onRoute hook, when it has one: the hooks that onRoute hook adds to routes are its.
   */
  readonly onRouteHookPlugins = new Map<unknown, string>()
  /** The modules whose declarations run here (scope.annotate({ module })). */
  readonly modules: ModuleInspection[] = []
  /** What this scope's error handler declares it answers (scope.annotate({ errorResponses })). */
  errorResponses: Readonly<Record<string, JsonSchema>> | null = null
  /** The route-level hooks given with setNotFoundHandler(options, handler). */
  notFoundOptions: NotFoundOptions = {}

  constructor(init: { context: DeclareContext; parent: ScopeImpl | null; name: string; prefix: string; routePrefix?: string }) {
    this.context = init.context
    this.parent = init.parent
    this.name = init.name
    this.path = init.parent === null ? init.name : `${init.parent.path} > ${init.name}`
    this.prefix = init.prefix
    this.routePrefix = init.routePrefix ?? init.prefix
    this.logLevel = init.parent?.logLevel ?? ''
    this.logSerializers = init.parent?.logSerializers ?? null
    this.schemas = new SchemaStore({ parent: init.parent?.schemas ?? null, scopePath: this.path })
    if (init.parent !== null) {
      init.parent.children.push(this)
      // Instance decorators are own properties: copy what the ancestors have so far; later
      // ones are pushed down by decorate().
      for (const decoration of init.parent.visibleDecorations('instance')) inheritDecoration(this, init.parent, decoration)
    }
  }

  createChild(name: string, prefix: string, routePrefix: string = prefix): ScopeImpl {
    const child = new ScopeImpl({ context: this.context, parent: this, name, prefix, routePrefix })
    // A Fastify child instance inherits, by prototype, whatever plugins stored on its parent
    // (@fastify/middie keeps its middleware list under a symbol and reads it in onRegister).
    // Scopes are separate objects: copy those foreign properties, as they are now.
    for (const key of Reflect.ownKeys(this)) {
      if (Object.prototype.hasOwnProperty.call(child, key)) continue
      Object.defineProperty(child, key, Object.getOwnPropertyDescriptor(this, key) as PropertyDescriptor)
    }
    return child
  }

  /** The Fastify plugin API line Enclave offers (shared/plugin-meta.ts; docs/plugins.md). */
  get version(): string { return fastifyApiVersion }
  /**
   * Fastify's pluginName: the plugin's display name, exporting file, function name or first
   * source lines; `plugin-A -> plugin-AB` once a fastify-plugin plugin named plugin-AB was lifted
   * into it. Undefined at the root until a named plugin is lifted into it, as in Fastify.
   */
  get pluginName(): string | undefined {
    const chain = this.pluginNameChain
    return chain.length > 1 ? chain.join(' -> ') : chain[0]
  }
  /** Fastify's `initialConfig`: the server options with Fastify 3's defaults and every limit resolved, frozen, `https` masked (server/initial-config.ts). */
  get initialConfig(): Readonly<Record<string, unknown>> { return this.context.initialConfig }
  /**
   * Fastify's `errorHandler` getter: this scope's own handler, else the nearest ancestor's, else the
   * built-in one. Plugins defer to it from a route-level errorHandler (@fastify/static does, for
   * every `send` error: a missing one there was a TypeError whose message went out in a 4xx).
   */
  get errorHandler(): ErrorHandler {
    for (let scope: ScopeImpl | null = this; scope !== null; scope = scope.parent) if (scope.#boundErrorHandler !== null) return scope.#boundErrorHandler
    return builtInErrorHandler
  }

  /** True when a plugin with this plugin-meta (or display) name was registered here or in an ancestor. */
  hasPlugin(name: string): boolean {
    for (let scope: ScopeImpl | null = this; scope !== null; scope = scope.parent) if (scope.pluginNames.includes(name)) return true
    return false
  }

  /**
   * Awaiting a scope before boot loads everything registered so far (avvio's incremental
   * loading): `await scope.register(plugin)` returns once the plugin and its own registrations
   * ran, so the next line sees its decorators and its onRoute hooks. After boot a scope is not
   * thenable, so returning it from an async function is harmless.
   */
  get then(): ((resolve: (value: unknown) => void, reject: (error: unknown) => void) => void) | undefined {
    const context = this.context
    if (context.booted || context.resolvingScope) return undefined
    const node = context.plugins.current
    return (resolve, reject) => {
      context.facade.loadPending(node).then(() => {
        // Resolving with the scope itself reads `then` again: answer undefined this once.
        context.resolvingScope = true
        try { resolve(this) } finally { context.resolvingScope = false }
      }, reject)
    }
  }

  /**
   * Runs `fn` once the plugins registered so far in this plugin have loaded (avvio's after()).
   * `fn` takes avvio's forms: `()`, `(error)`, `(error, done)` or `(error, scope, done)`. When a
   * plugin before it failed, the plugins in between are skipped and `fn` gets the error; a
   * callback that takes `error` handles it (boot goes on unless it throws, rejects or passes it
   * to `done`); `()` leaves it to the next after() or to ready().
   * Without `fn`, `await scope.after()` does the same as awaiting the scope.
   */
  after(fn?: (error: Error | null, done?: (error?: Error | null) => void) => unknown): this
  after(fn: (error: Error | null, scope: this, done: (error?: Error | null) => void) => unknown): this
  after(fn?: (error: Error | null, ...rest: any[]) => unknown): this {
    this.assertDeclarable('after()')
    if (fn === undefined) return this
    if (typeof fn !== 'function') throw runtimeError('ENC_ERR_PLUGIN_INVALID', { path: this.path, got: typeof fn })
    // What an after() callback declares belongs to whoever called after() (a module's routes are
    // declared this way), not to a plugin named "after".
    this.context.plugins.enqueueAfter(this, fn, this.currentOrigin())
    return this
  }

  get server(): Server { return this.context.server }
  addresses(): AddressInfo[] {
    // A pipe or a server not listening has no AddressInfo to report.
    const address = this.context.server.address()
    return address !== null && typeof address === 'object' ? [address] : []
  }
  get routing(): (req: IncomingMessage, res: ServerResponse) => void { return this.context.routing }
  // completeLogger() (server/logger.ts) filled in trace, fatal and child before the context was made.
  get log(): ServerLogger { return this.context.log as ServerLogger }
  get closing(): boolean { return this.context.facade.closing }

  /**
   * Throws once the server has booted: declarations after boot would be silently ignored. An
   * instance decorator is only a property of the scope, so it stays declarable until the onReady
   * hooks have run (`untilStarted`), as Fastify allows.
   */
  assertDeclarable(what: string, untilStarted = false): void {
    if (untilStarted ? this.context.started : this.context.booted) {
      throw runtimeError('ENC_ERR_SCOPE_BOOTED', { what, path: this.path })
    }
  }

  // Scope.register types the caller (its plugin and options); this side only records. `any`:
  // the public Scope's return type (Registered: this same object, typed with what a typed lifted
  // plugin provides) is a conditional type on the caller's plugin, which no plain type here matches.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  register(plugin: Function | PluginModule<Function>, options?: object): any {
    this.assertDeclarable('register()')
    this.context.plugins.enqueue(this, plugin, (options ?? {}) as Record<string, unknown>)
    return this
  }

  // `any` schema: the typed signatures of the public Scope (types.ts) check the caller; this side only records.
  route(options: RouteOptions<any, any, any, any>): this { declareRoute(this, options); return this }
  get(path: string, a: AnyHandler | RouteShorthandOptions<any, any, any>, b?: AnyHandler): this { shortcut(this, 'GET', path, a, b); return this }
  head(path: string, a: AnyHandler | RouteShorthandOptions<any, any, any>, b?: AnyHandler): this { shortcut(this, 'HEAD', path, a, b); return this }
  post(path: string, a: AnyHandler | RouteShorthandOptions<any, any, any>, b?: AnyHandler): this { shortcut(this, 'POST', path, a, b); return this }
  put(path: string, a: AnyHandler | RouteShorthandOptions<any, any, any>, b?: AnyHandler): this { shortcut(this, 'PUT', path, a, b); return this }
  patch(path: string, a: AnyHandler | RouteShorthandOptions<any, any, any>, b?: AnyHandler): this { shortcut(this, 'PATCH', path, a, b); return this }
  delete(path: string, a: AnyHandler | RouteShorthandOptions<any, any, any>, b?: AnyHandler): this { shortcut(this, 'DELETE', path, a, b); return this }
  options(path: string, a: AnyHandler | RouteShorthandOptions<any, any, any>, b?: AnyHandler): this { shortcut(this, 'OPTIONS', path, a, b); return this }
  all(path: string, a: AnyHandler | RouteShorthandOptions<any, any, any>, b?: AnyHandler): this {
    // Fastify 3's order (lib/route.js supportedMethods): the route's config.method and routerMethod show it.
    shortcut(this, ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'], path, a, b)
    return this
  }

  addHook(name: HookName, fn: Function): this {
    this.assertDeclarable(`addHook('${name}')`)
    assertHook(name, fn, this.path)
    // A request hook declared after register() calls takes its place after what those plugins
    // add (lifted plugins' hooks land in this scope): Fastify's order. App hooks (onRoute ...)
    // apply at once, since routes are recorded at once. Its origin is the declaring plugin's now.
    const origin = this.currentOrigin()
    if ((requestHookNames as readonly string[]).includes(name) && this.context.plugins.hasPending()) {
      this.context.plugins.enqueueDeferred(this, () => { this.origins.set(this.hooks.add(name, fn, this as never), origin) })
    } else {
      const bound = this.hooks.add(name, fn, this as never)
      this.origins.set(bound, origin)
      const plugin = name === 'onRoute' ? this.registeredPluginName() : null
      if (plugin !== null) this.onRouteHookPlugins.set(bound, plugin)
    }
    return this
  }

  /** avvio's `instance.onClose(fn)`, which Fastify's `addHook('onClose', fn)` is built on: the same hook. */
  onClose(fn: Function): this {
    return this.addHook('onClose', fn)
  }

  /**
   * The running plugin's registered name, null when it has none or a module label names what it
   * declares. fastify-plugin's made-up name for an unnamed plugin (`fn-auto-3`, a counter) says
   * less than the function name the origin already carries, so it is not used.
   */
  private registeredPluginName(): string | null {
    const node = this.context.plugins.current
    if (node.label !== null || node.plugin === null) return null
    const name = readPluginMeta(node.plugin).registeredName
    return name === null || isMadeUpPluginName(name) ? null : name
  }

  decorate(name: string | symbol, value: unknown, dependencies?: readonly (string | symbol)[]): this { return this.#decorate('instance', name, value, dependencies) }
  decorateRequest(name: string | symbol, value: unknown, dependencies?: readonly (string | symbol)[]): this { return this.#decorate('request', name, value, dependencies) }
  decorateReply(name: string | symbol, value: unknown, dependencies?: readonly (string | symbol)[]): this { return this.#decorate('reply', name, value, dependencies) }
  hasDecorator(name: string | symbol): boolean { return this.#findDecoration('instance', name) !== undefined }
  hasRequestDecorator(name: string | symbol): boolean { return this.#findDecoration('request', name) !== undefined }
  hasReplyDecorator(name: string | symbol): boolean { return this.#findDecoration('reply', name) !== undefined }
  /** Fastify 5's getDecorator(): a decoration visible here (a function bound to this scope); an undeclared name throws ENC_ERR_DEC_UNDECLARED. */
  getDecorator<T = unknown>(name: string | symbol): T { return readDecorator(this, 'scope', name) as T }

  #decorate(target: DecoratorTarget, name: string | symbol, value: unknown, dependencies: readonly (string | symbol)[] | undefined): this {
    const method = target === 'instance' ? 'decorate' : target === 'request' ? 'decorateRequest' : 'decorateReply'
    this.assertDeclarable(`${method}('${String(name)}')`, target === 'instance')
    if (dependencies !== undefined) {
      if (!Array.isArray(dependencies)) {
        const got = dependencies === null ? 'null' : typeof dependencies
        throw runtimeError('ENC_ERR_DEC_DEPENDENCY_INVALID_TYPE', { call: `${method}('${String(name)}')`, path: this.path, name: String(name), got })
      }
      const missing = dependencies.filter((d) => this.#findDecoration(target, d) === undefined)
      if (missing.length > 0) {
        throw runtimeError('ENC_ERR_DEC_MISSING_DEPENDENCY', { call: `${method}('${String(name)}')`, path: this.path, missing: missing.map(String) })
      }
    }
    const reserved = target === 'instance' ? null : this.context.reservedNames[target]
    if ((typeof name !== 'string' && typeof name !== 'symbol') || name === '' || (reserved !== null ? reserved.has(name as string) : (name in ScopeImpl.prototype || name in this) && !pluginReplaceableMembers.has(name))) {
      const owner = target === 'instance' ? this.#findDecoration('instance', name) : undefined
      if (owner === undefined) {
        throw runtimeError('ENC_ERR_DEC_RESERVED', { call: `${method}('${String(name)}')`, path: this.path, target: target === 'instance' ? 'scope' : target })
      }
    }
    if (target === 'instance' && name === 'use' && typeof value === 'function' && isMiddieUse(value, this.registeredPluginName())) value = guardMiddieUse(value)
    const existing = this.#findDecoration(target, name)
    // A plugin's onRegister hook may give each child scope the very function its parent has
    // (@fastify/middie does with `use`): Fastify lets a child shadow an instance decorator,
    // Enclave refuses a different value but takes the same function as a no-op.
    if (existing !== undefined && target === 'instance' && typeof value === 'function' && !this.decorations.instance.has(name) &&
      existing.kind === 'value' && existing.value === value) return this
    if (existing !== undefined) {
      // Two registrations of one plugin (or two anonymous ones) read alike: then say which register() call each was.
      const by = this.currentOrigin()
      const first = this.#originOf(target, name)
      const alike = by === first.origin
      // The same named plugin below itself (per-module options, a NestJS habit): say so, as renaming is no fix.
      const again = alike && by.startsWith('plugin ') && by !== 'plugin anonymous' ? by : undefined
      throw runtimeError('ENC_ERR_DEC_ALREADY_PRESENT', { call: `${method}('${String(name)}')`, path: this.path, by: alike ? this.#registration() : by, existing: alike ? { ...first, origin: first.registration } : first, again })
    }
    // @fastify/websocket's ws server: malformed handshakes answered in the JSON shape (websocket-handshake-errors.ts).
    if (target === 'instance' && name === 'websocketServer' && isWsServer(value)) answerHandshakeErrorsInJson(value)
    const decoration = toDecoration(target, name, value, this.path)
    this.decorations[target].set(name, decoration)
    this.origins.set(decoration, this.currentOrigin())
    this.#registrations.set(decoration, this.#registration())
    if (target === 'instance') this.#pushDown(decoration)
    return this
  }

  #pushDown(decoration: Decoration, from: ScopeImpl | null = null): void {
    if (from === null) applyDecoration(this, decoration)
    else inheritDecoration(this, from, decoration)
    for (const child of this.children) if (!child.decorations.instance.has(decoration.name)) child.#pushDown(decoration, this)
  }

  /** Who declared the visible decoration `name` (for the error naming both sides of a clash). */
  #originOf(target: DecoratorTarget, name: string | symbol): { origin: string; registration: string; path: string } {
    for (let scope: ScopeImpl | null = this; scope !== null; scope = scope.parent) {
      const found = scope.decorations[target].get(name)
      if (found !== undefined) {
        const origin = scope.origins.get(found) ?? scope.path
        return { origin, registration: scope.#registrations.get(found) ?? origin, path: scope.path }
      }
    }
    return { origin: 'unknown', registration: 'unknown', path: this.path }
  }

  #findDecoration(target: DecoratorTarget, name: string | symbol): Decoration | undefined {
    for (let scope: ScopeImpl | null = this; scope !== null; scope = scope.parent) {
      const found = scope.decorations[target].get(name)
      if (found !== undefined) return found
    }
    return undefined
  }

  /** Decorations visible here, ancestors' first. */
  visibleDecorations(target: DecoratorTarget): Decoration[] {
    const own = [...this.decorations[target].values()]
    return this.parent === null ? own : [...this.parent.visibleDecorations(target), ...own]
  }

  addSchema(schema: SharedSchema): this {
    this.assertDeclarable('addSchema()')
    this.schemas.add(schema)
    this.origins.set(`schema:${(plainSchema(schema) as { $id?: unknown } | null)?.$id}`, this.currentOrigin())
    return this
  }
  /** The visible shared schemas by `$id`; with a schemaController bucket, what its getSchemas() returns. */
  getSchemas(): Record<string, SharedSchema> { return this.schemas.getSchemas() as Record<string, SharedSchema> }
  getSchema(id: string): SharedSchema | undefined { return this.schemas.get(id) }

  setValidatorCompiler(fn: ValidatorCompiler): this { this.#setFunction('setValidatorCompiler', fn); this.ownValidatorCompiler = fn; return this }
  setSerializerCompiler(fn: SerializerCompiler): this { this.#setFunction('setSerializerCompiler', fn); this.ownSerializerCompiler = fn; return this }

  /**
   * Fastify's `fastify.validatorCompiler`: the compiler set here or in the nearest ancestor, else the
   * one the builders made for this scope's routes at boot; undefined before boot, or when no route
   * needed one. Read-only: setValidatorCompiler() sets it.
   */
  get validatorCompiler(): ValidatorCompiler | undefined {
    for (let scope: ScopeImpl | null = this; scope !== null; scope = scope.parent) if (scope.ownValidatorCompiler !== null) return scope.ownValidatorCompiler
    return this.schemas.activeCompiler('validator') as ValidatorCompiler | undefined
  }
  /** Fastify's `fastify.serializerCompiler`, as validatorCompiler. */
  get serializerCompiler(): SerializerCompiler | undefined {
    for (let scope: ScopeImpl | null = this; scope !== null; scope = scope.parent) if (scope.ownSerializerCompiler !== null) return scope.ownSerializerCompiler
    return this.schemas.activeCompiler('serializer') as SerializerCompiler | undefined
  }

  /**
   * Fastify 3.27.4's setSchemaController(): this scope's (and its descendants') shared-schema bucket
   * and compiler builders. What is left out is inherited; a new bucket starts from the schemas
   * visible here so far.
   */
  setSchemaController(options: SchemaControllerOptions): this {
    this.assertDeclarable('setSchemaController()')
    const checked = checkSchemaControllerOptions(options, `setSchemaController() in ${this.path}`)
    this.schemas.useController(checked, this.schemas.getSchemas())
    this.origins.set('setSchemaController', this.currentOrigin())
    return this
  }
  setReplySerializer(fn: ReplySerializer): this { this.#setFunction('setReplySerializer', fn); this.replySerializer = fn; return this }
  setSchemaErrorFormatter(fn: SchemaErrorFormatter): this {
    this.#setFunction('setSchemaErrorFormatter', fn)
    // Its Error is needed at once to answer the 400: a promise would be no error at all.
    if (isAsyncFunction(fn)) throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `setSchemaErrorFormatter() in ${this.path}`, problem: 'the formatter must be synchronous and return an Error; it is async' })
    this.schemaErrorFormatter = fn
    return this
  }
  /** 'eager' or 'lazy' for the routes of this scope and its descendants (issue 16). */
  setSchemaCompilation(mode: SchemaCompilation): this {
    this.assertDeclarable('setSchemaCompilation()')
    this.schemaCompilation = checkSchemaCompilation(mode, `setSchemaCompilation() in ${this.path}`)
    return this
  }
  // `any` decorations: the public Scope's typed signatures check the caller (`this` the scope serving the route, types.ts).
  setErrorHandler(fn: TypedErrorHandler<any, any>): this { this.#setFunction('setErrorHandler', fn); this.ownErrorHandler = fn; this.#boundErrorHandler = fn.bind(this); return this }
  /** Fastify's `setNotFoundHandler(handler)` or `setNotFoundHandler({ preValidation, preHandler }, handler)`. */
  setNotFoundHandler(a: TypedNotFoundHandler<any, any> | NotFoundOptions<any, any>, b?: TypedNotFoundHandler<any, any>): this {
    const options = typeof a === 'function' ? {} : a ?? {}
    const fn = typeof a === 'function' ? a : b as NotFoundHandler
    this.#setFunction('setNotFoundHandler', fn)
    if (this.notFoundHandler !== null) {
      throw runtimeError('ENC_ERR_NOT_FOUND_DUPLICATE', { path: this.path, existing: `${this.path} (this scope, called twice)`, prefix: this.prefix })
    }
    for (const name of ['preValidation', 'preHandler'] as const) {
      const hooks = options[name]
      for (const hook of hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]) assertHook(name, hook, this.path)
    }
    // Unknown URLs are attributed to a scope by prefix only. With its parent's prefix this scope
    // would answer the parent's unknown URLs too, which an ancestor must never see (spec §3.3.3).
    if (this.parent !== null && this.prefix === this.parent.prefix) {
      throw runtimeError('ENC_ERR_NOT_FOUND_NO_PREFIX', { path: this.path, prefix: this.prefix })
    }
    this.notFoundHandler = fn
    this.notFoundOptions = { preValidation: options.preValidation, preHandler: options.preHandler }
    return this
  }

  #setFunction(method: string, fn: unknown): void {
    this.assertDeclarable(`${method}()`)
    if (typeof fn !== 'function') throw runtimeError('ENC_ERR_ROUTE_INVALID', { setter: method, path: this.path, got: typeof fn })
    this.origins.set(method, this.currentOrigin())
  }

  /**
   * The module or plugin declaring right now: the label `annotate({ module })` gave the running
   * plugin, else the plugin's name. A lifted plugin declares into this scope under its own name.
   */
  currentOrigin(): string {
    const node = this.context.plugins.current
    if (node.label !== null) return node.label
    if (node.plugin === null) return this.path.split(' > ')[0]
    // `lift(fn, { name })` names an arrow function that has no name of its own.
    return `plugin ${liftMetaOf(node.plugin)?.name ?? (node.plugin.name === '' ? 'anonymous' : node.plugin.name)}`
  }

  /**
   * currentOrigin() and which register() call it was, for a clash between two registrations of one
   * plugin (or two anonymous ones): `plugin workspace (2nd register() in root)`.
   */
  #registration(): string {
    const origin = this.currentOrigin()
    const node = this.context.plugins.current
    if (node.label !== null || node.plugin === null || node.ordinal === undefined || node.owner === null) return origin
    return `${origin} (${ordinal(node.ordinal)} register() in ${node.owner.path})`
  }

  annotate(annotation: ScopeAnnotation): this {
    this.assertDeclarable('annotate()')
    if (annotation.module !== undefined) {
      this.context.plugins.current.label = annotation.module
      this.modules.push({ path: annotation.module, providers: [...(annotation.providers ?? [])] })
    }
    if (annotation.errorResponses !== undefined) {
      this.errorResponses = annotation.errorResponses
      this.origins.set('errorResponses', this.currentOrigin())
    }
    return this
  }

  /** Fastify 5's hasRoute(): a route declared so far, anywhere in the server, with this method, path as declared and constraints (route-lookup.ts). */
  hasRoute(options: LookupOptions): boolean { return hasRoute(this.context, options) }
  /** Fastify 5's findRoute(): the route a URL reaches among those declared so far, as `{ handler, params, searchParams }`, or null. */
  findRoute(options: LookupOptions): FoundRoute | null { return findRoute(this.context, options) }
  /** Fastify 4/5's type-provider switch: schemas already type handlers here, so it is this scope, unchanged. */
  withTypeProvider(): this { return this }

  printRoutes(options?: { includeHooks?: boolean; commonPrefix?: false; includeMeta?: boolean | readonly (string | symbol)[]; json?: false }): string
  printRoutes(options: { json: true }): readonly RouteInspection[]
  printRoutes(options?: { json?: boolean; includeHooks?: boolean; commonPrefix?: false; includeMeta?: boolean | readonly (string | symbol)[] }): string | readonly RouteInspection[] {
    const { json, ...print } = checkPrintRoutesOptions(options, this.path)
    const view = this.context.facade.introspect()
    return json === true ? view.inspect().routes : view.printRoutes(print)
  }
  /** Fastify's printPlugins: every registration as loaded, nested, with the milliseconds it took (after boot). */
  printPlugins(): string { return this.context.facade.printPlugins() }
  printTree(): string
  printTree(options: { json: true }): ScopeInspection
  printTree(options?: { json?: boolean }): string | ScopeInspection {
    const view = this.context.facade.introspect()
    return options?.json === true ? view.inspect().root : view.printTree()
  }
  explain(route: string): string
  explain(route: string, options: { json: true }): RouteInspection
  explain(route: string, options?: { json?: boolean }): string | RouteInspection {
    const view = this.context.facade.introspect()
    return options?.json === true ? view.explainJson(route) : view.explain(route)
  }
  inspect(): Inspection { return this.context.facade.introspect().inspect() }
  openapi(info?: OpenApiInfo): OpenApiDocument { return this.context.facade.introspect().openapi(info) }

  addContentTypeParser(types: string | RegExp | Array<string | RegExp>, a: ContentTypeParserOptions | AnyParser, b?: AnyParser): this {
    this.assertDeclarable('addContentTypeParser()')
    const options = typeof a === 'function' ? {} : a ?? {}
    const fn = typeof a === 'function' ? a : b
    if (typeof fn !== 'function') throw runtimeError('ENC_ERR_CTP_INVALID', { path: this.path })
    if (options.parseAs !== undefined && options.parseAs !== 'string' && options.parseAs !== 'buffer') {
      throw runtimeError('ENC_ERR_CTP_INVALID', { path: this.path, parseAs: String(options.parseAs), hint: didYouMean(String(options.parseAs), ['string', 'buffer']) })
    }
    const mode = parserMode(fn, options.parseAs !== undefined, isAsyncFunction(fn))
    if (mode === 'payload') warnPayloadParser()
    for (const declared of Array.isArray(types) ? types : [types]) {
      const pattern = declared instanceof RegExp ? matchingPattern(declared) : null
      const type = declared instanceof RegExp ? `regexp:${declared.toString()}` : typeof declared === 'string' ? normalizeDeclaredType(declared) : null
      if (type === null) throw runtimeError('ENC_ERR_CTP_INVALID', { path: this.path, type: String(declared) })
      // As Fastify 3, '*' may be declared again: the later catch-all replaces the earlier one here
      // and below. The built-in JSON and text parsers are not in any scope's store, so each may
      // be replaced once, as Fastify allows, and only once.
      if (type !== '*' && this.#parserOwner(type) !== null) {
        throw runtimeError('ENC_ERR_CTP_ALREADY_PRESENT', { type, path: this.path })
      }
      this.parsers.set(type, { fn: fn as ContentTypeParserFn, parseAs: options.parseAs ?? 'string', bodyLimit: options.bodyLimit ?? null, mode, pattern })
    }
    return this
  }

  hasContentTypeParser(type: string | RegExp): boolean {
    const normalized = type instanceof RegExp ? `regexp:${type.toString()}` : normalizeDeclaredType(type)
    if (normalized === null) return false
    for (let scope: ScopeImpl | null = this; scope !== null; scope = scope.parent) {
      if (scope.parsers.has(normalized)) return true
      if (scope.removedAllParsers || scope.removedParsers.has(normalized)) return false
    }
    return this.context.defaultParsers.has(normalized)
  }

  /** Fastify's: this scope and its descendants no longer parse these types (built-in ones included). */
  removeContentTypeParser(types: string | RegExp | Array<string | RegExp>): this {
    this.assertDeclarable('removeContentTypeParser()')
    for (const declared of Array.isArray(types) ? types : [types]) {
      const type = declared instanceof RegExp ? `regexp:${declared.toString()}` : normalizeDeclaredType(String(declared))
      if (type === null) throw runtimeError('ENC_ERR_CTP_INVALID', { path: this.path, type: String(declared), call: 'removeContentTypeParser' })
      this.parsers.delete(type)
      this.removedParsers.add(type)
    }
    return this
  }

  /** Fastify's: this scope and its descendants start with no parser at all, built-in ones included. */
  removeAllContentTypeParsers(): this {
    this.assertDeclarable('removeAllContentTypeParsers()')
    this.parsers.clear()
    this.removedAllParsers = true
    return this
  }

  /**
   * Fastify's: the built-in JSON parser in the `(request, body, done)` form, for another media
   * type (`{ parseAs: 'string' }`). `onProtoPoisoning`/`onConstructorPoisoning`: 'error'
   * (refused with a 400, the default), 'remove' (the key is dropped) or 'ignore'.
   */
  getDefaultJsonParser(onProtoPoisoning: PoisonAction = 'error', onConstructorPoisoning: PoisonAction = 'error'): (request: unknown, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => void {
    // Checked here: secure-json-parse would take a misspelt action ('erorr') as 'ignore'.
    for (const [poisoning, given] of [['onProtoPoisoning', onProtoPoisoning], ['onConstructorPoisoning', onConstructorPoisoning]] as const) {
      if (!isPoisonAction(given)) throw runtimeError('ENC_ERR_CTP_INVALID', { path: this.path, poisoning, given: typeof given === 'string' ? `'${given}'` : String(given) })
    }
    const parse = this.context.makeJsonParser({ protoAction: onProtoPoisoning, constructorAction: onConstructorPoisoning }).fn
    return (request, body, done) => {
      let value: unknown
      try {
        value = parse(request as never, body)
      } catch (error) {
        done(error as Error)
        return
      }
      done(null, value)
    }
  }

  #parserOwner(type: string): ScopeImpl | null {
    for (let scope: ScopeImpl | null = this; scope !== null; scope = scope.parent) {
      if (scope.parsers.has(type)) return scope
      if (scope.removedAllParsers || scope.removedParsers.has(type)) return null
    }
    return null
  }

  /**
   * Fastify's ready(). On the root it boots the server and resolves once the onReady hooks have
   * run. On a plugin's scope (avvio's ready on a child instance) it resolves once every plugin
   * has loaded and every route is compiled, before the onReady hooks, in the order asked; a
   * plugin may call it while it loads. Both resolve with the scope they were called on; the
   * callback form gets `(error, scope)`.
   */
  ready(options?: ReadyOptions): Promise<this>
  ready(callback: (error: Error | null, scope?: this) => void): this
  ready(arg?: ReadyOptions | ((error: Error | null, scope?: this) => void)): Promise<this> | this {
    const options = typeof arg === 'function' ? undefined : arg
    const facade = this.context.facade
    // A callback takes no options (compileAll is a promise-form option).
    const booted = this.parent === null || options?.compileAll === true ? facade.ready(options) : facade.whenLoaded()
    if (typeof arg !== 'function') return booted.then(() => this) as Promise<this>
    settleInto(booted, () => { arg(null, this) }, (error) => { arg(error) })
    return this
  }
  bootProfile(options: { top?: number } = {}): BootProfile { return this.context.facade.bootProfile(options.top ?? 10) }
  // Fastify's callback forms are offered beside the promises (a Fastify app's tests and main
  // files use them): listen(port[, host[, backlog]], cb), listen(options, cb), close(cb),
  // inject(options, cb) and inject()'s light-my-request chain. With a callback nothing is returned.
  listen(port?: number, host?: string): Promise<string>
  listen(options: ListenOptions): Promise<string>
  listen(path: string): Promise<string>
  listen(port: number, callback: (error: Error | null, address?: string) => void): void
  listen(path: string, callback: (error: Error | null, address?: string) => void): void
  listen(port: number, host: string, callback: (error: Error | null, address?: string) => void): void
  listen(port: number, host: string, backlog: number, callback: (error: Error | null, address?: string) => void): void
  listen(options: ListenOptions, callback: (error: Error | null, address?: string) => void): void
  listen(a?: number | string | ListenOptions, host?: string | Function): Promise<string> | void {
    const callback = lastCallback<(error: Error | null, address?: string) => void>(arguments)
    if (callback === undefined) return this.context.facade.listen(a, host as string | undefined)
    const given = typeof host === 'string' ? host : undefined
    // On failure Fastify 3 calls back with (error, null): callers test `address === null`.
    const failed = callback as unknown as (error: Error, address: null) => void
    settleInto(this.context.facade.listen(typeof a === 'function' ? undefined : a, given), (address) => { callback(null, address) }, (error) => { failed(error, null) })
  }
  close(): Promise<void>
  close(callback: (error?: Error) => void): void
  close(): Promise<void> | void {
    const callback = lastCallback<(error?: Error) => void>(arguments)
    if (callback === undefined) return this.context.facade.close()
    settleInto(this.context.facade.close(), () => { callback() }, (error) => { callback(error) })
  }
  inject(options: InjectOptions | string): Promise<InjectResponse>
  inject(options: InjectOptions | string, callback: (error: Error | null, response?: InjectResponse) => void): void
  inject(): InjectChain
  inject(options?: InjectOptions | string, callback?: (error: Error | null, response?: InjectResponse) => void): Promise<InjectResponse> | InjectChain | void {
    if (options === undefined) return this.context.facade.inject()
    const response = this.context.facade.inject(options) as Promise<InjectResponse>
    if (callback === undefined) return response
    // Fastify 3's callback form: the response, or the error that kept the server from booting.
    settleInto(response, (res) => { callback(null, res) }, (error) => { callback(error) })
  }
}

/** The callback of Fastify's callback forms: the last argument, when it is a function. */
function lastCallback<F>(args: IArguments): F | undefined {
  const last: unknown = args.length > 0 ? args[args.length - 1] : undefined
  return typeof last === 'function' ? last as F : undefined
}

installUnsupportedApis(ScopeImpl.prototype)
installMissingMiddlewareUse(ScopeImpl.prototype)

function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th'
  return `${n}${suffix}`
}
