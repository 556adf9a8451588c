import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readDecorator } from '../shared/read-decorator'
import { runtimeError } from '../errors/runtime-codes'
import { HookStore } from './hooks'
import type { Decoration, DecoratorTarget } from './decorations'
import type { BodyParser } from '../shared/body-parser'
import { SchemaStore } from '../schemas'
import type { SchemaCompilation } from '../shared/schema-compilation'
import type { BootProfile } from '../shared/boot-profile'
import type { DeclareContext } from './declare-context'
import type { PoisonAction } from '../shared/json-poisoning'
import { declareRoute, shortcut } from './route-declaration'
import { fastifyApiVersion } from '../shared/plugin-meta'
import { installUnsupportedApis } from './unsupported-api'
import { checkPrintRoutesOptions } from './print-routes-options'
import { installMissingMiddlewareUse } from './missing-middleware'
import { findRoute, hasRoute, type FoundRoute, type LookupOptions } from './route-lookup'
import { currentOrigin, registeredPluginName } from './scope-origin'
import { declareDecoration, hasDecoration, inheritDecoration } from './scope-decorate'
import { addContentTypeParser, defaultJsonParser, hasContentTypeParser, removeAllContentTypeParsers, removeContentTypeParser, type AnyParser, type DefaultJsonParser } from './scope-parsers'
import { builtInErrorHandler, checkSetter, setNotFoundHandler } from './scope-handlers'
import { addSchema, setSchemaCompilation, setSchemaController, setSchemaErrorFormatter, visibleSerializerCompiler, visibleValidatorCompiler } from './scope-schemas'
import { addHook } from './scope-hooks'
import { after, hasPlugin, register, scopeThen, type ScopeThen } from './scope-plugins'
import { close, inject, lastCallback, listen, ready } from './scope-server-calls'
import type {
  ContentTypeParserOptions, ErrorHandler, HookName, InjectChain, InjectOptions, InjectResponse,
  ListenOptions, LogSerializers, PluginModule, ServerLogger, NotFoundHandler, NotFoundOptions, TypedErrorHandler, TypedNotFoundHandler, ReadyOptions, RouteOptions, RouteShorthandOptions, Scope, ScopeDecorations,
} from '../types'
import type { JsonSchema, ReplySerializer, SchemaControllerOptions, SchemaErrorFormatter, SerializerCompiler, SharedSchema, ValidatorCompiler } from '../schemas/types'
import type { Inspection, ModuleInspection, RouteInspection, ScopeAnnotation, ScopeInspection } from '../shared/introspection'
import type { OpenApiDocument, OpenApiInfo, OpenApiOptions } from '../shared/openapi-types'
import { openapiScope } from './openapi-options'

type AnyHandler = (...args: any[]) => unknown

/**
 * An encapsulation context (spec §3.3): a parent pointer and its own stores. Declarations only
 * record; boot resolves every store once, ancestors first (boot/scope-resolution.ts), and
 * compiles the routes. ready/listen/close/inject forward to the facade the composition root
 * built (server/create-server.ts): this class knows nothing of booting or serving.
 *
 * The class holds the stores and the public surface; each method of more than a line is a
 * function taking the scope, in the file of its concept: scope-origin.ts (who declares),
 * scope-decorate.ts, scope-hooks.ts, scope-plugins.ts (register, after, awaiting a scope),
 * scope-parsers.ts, scope-schemas.ts, scope-handlers.ts (setters, not-found handler) and
 * scope-server-calls.ts (ready/listen/close/inject with Fastify's callback forms).
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
  /**
   * The registered name (fastify-plugin's `name`, Fastify's pluginName) of the plugin that added
   * each onRoute hook, when it has one: the hooks that onRoute hook adds to routes are its.
   */
  readonly onRouteHookPlugins = new Map<unknown, string>()
  /** The modules whose declarations run here (scope.annotate({ module })). */
  readonly modules: ModuleInspection[] = []
  /** What this scope's error handler declares it answers (scope.annotate({ errorResponses })). */
  errorResponses: Readonly<Record<string, JsonSchema>> | null = null
  /** The media type this scope's error handler declares it answers in (scope.annotate({ errorContentType })). */
  errorContentType: string | null = null
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

  hasPlugin(name: string): boolean { return hasPlugin(this, name) }
  get then(): ScopeThen | undefined { return scopeThen(this) }
  after(fn?: (error: Error | null, done: (error?: Error | null) => void) => unknown): this
  after(fn: (error: Error | null, scope: this, done: (error?: Error | null) => void) => unknown): this
  after(fn?: (error: Error | null, ...rest: any[]) => unknown): this { after(this, fn); return this }

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
  startDraining(): void { this.context.facade.startDraining() }

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
  register(plugin: Function | PluginModule<Function>, options?: object): any { register(this, plugin, options); return this }

  // `any` schema: the typed signatures of the public Scope (types.ts) check the caller; this side only records.
  route(options: RouteOptions<any, any, any, any, string, string, unknown, any, any, any>): this { declareRoute(this, options as RouteOptions<any, any, any, any>); return this }
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

  addHook(name: HookName, fn: Function): this { addHook(this, name, fn); return this }
  /** avvio's `instance.onClose(fn)`, which Fastify's `addHook('onClose', fn)` is built on: the same hook. */
  onClose(fn: Function): this {
    return this.addHook('onClose', fn)
  }
  /**
   * On the prototype, as it always was, so that decorate('registeredPluginName') stays refused as
   * a member name; scope-origin.ts reads the same.
   */
  private registeredPluginName(): string | null { return registeredPluginName(this) }

  decorate(name: string | symbol, value: unknown, dependencies?: readonly (string | symbol)[]): this { declareDecoration(this, 'instance', name, value, dependencies); return this }
  decorateRequest(name: string | symbol, value: unknown, dependencies?: readonly (string | symbol)[]): this { declareDecoration(this, 'request', name, value, dependencies); return this }
  decorateReply(name: string | symbol, value: unknown, dependencies?: readonly (string | symbol)[]): this { declareDecoration(this, 'reply', name, value, dependencies); return this }
  hasDecorator(name: string | symbol): boolean { return hasDecoration(this, 'instance', name) }
  hasRequestDecorator(name: string | symbol): boolean { return hasDecoration(this, 'request', name) }
  hasReplyDecorator(name: string | symbol): boolean { return hasDecoration(this, 'reply', name) }
  /** Fastify 5's getDecorator(): a decoration visible here (a function bound to this scope); an undeclared name throws ENC_ERR_DEC_UNDECLARED. */
  getDecorator<T = unknown>(name: string | symbol): T { return readDecorator(this, 'scope', name) as T }

  /** Decorations visible here, ancestors' first. */
  visibleDecorations(target: DecoratorTarget): Decoration[] {
    const own = [...this.decorations[target].values()]
    return this.parent === null ? own : [...this.parent.visibleDecorations(target), ...own]
  }

  addSchema(schema: SharedSchema): this { addSchema(this, schema); return this }
  /** The visible shared schemas by `$id`; with a schemaController bucket, what its getSchemas() returns. */
  getSchemas(): Record<string, SharedSchema> { return this.schemas.getSchemas() as Record<string, SharedSchema> }
  getSchema(id: string): SharedSchema | undefined { return this.schemas.get(id) }

  // The schema type is the caller's claim about its own compiler; stored as any compiler is.
  setValidatorCompiler<S>(fn: ValidatorCompiler<S>): this { checkSetter(this, 'setValidatorCompiler', fn); this.ownValidatorCompiler = fn as ValidatorCompiler; return this }
  setSerializerCompiler<S>(fn: SerializerCompiler<S>): this { checkSetter(this, 'setSerializerCompiler', fn); this.ownSerializerCompiler = fn as SerializerCompiler; return this }
  /** Fastify's `fastify.validatorCompiler` (read-only; scope-schemas.ts). */
  get validatorCompiler(): ValidatorCompiler | undefined { return visibleValidatorCompiler(this) }
  /** Fastify's `fastify.serializerCompiler`, as validatorCompiler. */
  get serializerCompiler(): SerializerCompiler | undefined { return visibleSerializerCompiler(this) }
  setSchemaController(options: SchemaControllerOptions): this { setSchemaController(this, options); return this }
  setReplySerializer(fn: ReplySerializer): this { checkSetter(this, 'setReplySerializer', fn); this.replySerializer = fn; return this }
  setSchemaErrorFormatter(fn: SchemaErrorFormatter): this { setSchemaErrorFormatter(this, fn); return this }
  /** 'eager' or 'lazy' for the routes of this scope and its descendants (issue 16). */
  setSchemaCompilation(mode: SchemaCompilation): this { setSchemaCompilation(this, mode); return this }
  // `any` decorations: the public Scope's typed signatures check the caller (`this` the scope serving the route, types.ts).
  setErrorHandler(fn: TypedErrorHandler<any, any>): this { checkSetter(this, 'setErrorHandler', fn); this.ownErrorHandler = fn; this.#boundErrorHandler = fn.bind(this); return this }
  /** Fastify's `setNotFoundHandler(handler)` or `setNotFoundHandler({ preValidation, preHandler }, handler)`. */
  setNotFoundHandler(a: TypedNotFoundHandler<any, any> | NotFoundOptions<any, any>, b?: TypedNotFoundHandler<any, any>): this { setNotFoundHandler(this, a, b); return this }

  /** The module or plugin declaring right now (scope-origin.ts). */
  currentOrigin(): string { return currentOrigin(this) }

  annotate(annotation: ScopeAnnotation): this {
    this.assertDeclarable('annotate()')
    if (annotation.module !== undefined) {
      this.context.plugins.current.label = annotation.module
      this.modules.push({ path: annotation.module, providers: [...(annotation.providers ?? [])] })
    }
    if (annotation.errorResponses !== undefined) {
      // Kept in one spelling (`4xx`, a lower-case media type) for every reader, whichever form was given.
      this.errorResponses = Object.fromEntries(Object.entries(annotation.errorResponses).map(([key, schema]) => [key.toLowerCase(), schema]))
      this.origins.set('errorResponses', this.currentOrigin())
    }
    if (annotation.errorContentType !== undefined) this.errorContentType = annotation.errorContentType.toLowerCase()
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
  openapi(info?: OpenApiInfo, options?: OpenApiOptions): OpenApiDocument {
    return this.context.facade.introspect().openapi(info, openapiScope(this.path, options))
  }

  addContentTypeParser(types: string | RegExp | Array<string | RegExp>, a: ContentTypeParserOptions | AnyParser, b?: AnyParser): this { addContentTypeParser(this, types, a, b); return this }
  hasContentTypeParser(type: string | RegExp): boolean { return hasContentTypeParser(this, type) }
  /** Fastify's: this scope and its descendants no longer parse these types (built-in ones included). */
  removeContentTypeParser(types: string | RegExp | Array<string | RegExp>): this { removeContentTypeParser(this, types); return this }
  /** Fastify's: this scope and its descendants start with no parser at all, built-in ones included. */
  removeAllContentTypeParsers(): this { removeAllContentTypeParsers(this); return this }
  /** Fastify's: the built-in JSON parser in the `(request, body, done)` form, for another media type (scope-parsers.ts). */
  getDefaultJsonParser(onProtoPoisoning: PoisonAction = 'error', onConstructorPoisoning: PoisonAction = 'error'): DefaultJsonParser {
    return defaultJsonParser(this, onProtoPoisoning, onConstructorPoisoning)
  }

  /** Fastify's ready(): boots on the root, waits for loading on a plugin's scope (scope-server-calls.ts). */
  ready(options?: ReadyOptions): Promise<this>
  ready(callback: (error: Error | null, scope?: this) => void): this
  ready(arg?: ReadyOptions | ((error: Error | null, scope?: this) => void)): Promise<this> | this { return ready(this, arg) }
  bootProfile(options: { top?: number } = {}): BootProfile { return this.context.facade.bootProfile(options.top ?? 10) }
  listen(port?: number, host?: string): Promise<string>
  listen(options: ListenOptions): Promise<string>
  listen(path: string): Promise<string>
  listen(port: number, callback: (error: Error | null, address?: string) => void): void
  listen(path: string, callback: (error: Error | null, address?: string) => void): void
  listen(port: number, host: string, callback: (error: Error | null, address?: string) => void): void
  listen(port: number, host: string, backlog: number, callback: (error: Error | null, address?: string) => void): void
  listen(options: ListenOptions, callback: (error: Error | null, address?: string) => void): void
  listen(a?: number | string | ListenOptions, host?: string | Function): Promise<string> | void {
    return listen(this.context.facade, a, host, lastCallback(arguments))
  }
  close(): Promise<void>
  close(callback: (error?: Error) => void): void
  close(): Promise<void> | void { return close(this.context.facade, lastCallback(arguments)) }
  inject(options: InjectOptions | string): Promise<InjectResponse>
  inject(options: InjectOptions | string, callback: (error: Error | null, response?: InjectResponse) => void): void
  inject(): InjectChain
  inject(options?: InjectOptions | string, callback?: (error: Error | null, response?: InjectResponse) => void): Promise<InjectResponse> | InjectChain | void {
    return inject(this.context.facade, options, callback)
  }
}

installUnsupportedApis(ScopeImpl.prototype)
installMissingMiddlewareUse(ScopeImpl.prototype)
