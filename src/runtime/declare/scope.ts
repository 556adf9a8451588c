import type { Server } from 'node:http'
import { runtimeError } from '../errors/runtime-codes'
import { HookStore, assertHook } from './hooks'
import { toDecoration, applyDecoration, type Decoration, type DecoratorTarget } from './decorations'
import { normalizeDeclaredType } from '../shared/media-type'
import type { BodyParser } from '../shared/body-parser'
import { SchemaStore } from '../schemas'
import { checkSchemaCompilation, type SchemaCompilation } from '../shared/schema-compilation'
import type { BootProfile } from '../shared/boot-profile'
import type { DeclareContext } from './declare-context'
import { declareRoute, shortcut } from './route-declaration'
import type {
  ContentTypeParserFn, ContentTypeParserOptions, ErrorHandler, Handler, HookName, InjectOptions, InjectResponse,
  ListenOptions, Logger, NotFoundHandler, ReadyOptions, PluginFunction, PluginOptions, RouteOptions, RouteShorthandOptions, Scope,
} from '../types'
import type { SchemaErrorFormatter, SerializerCompiler, SharedSchema, ValidatorCompiler } from '../schemas/types'

type AnyHandler = (...args: any[]) => unknown

/**
 * An encapsulation context (spec §3.3): a parent pointer and its own stores. Declarations only
 * record; boot resolves every store once, ancestors first (boot/scope-resolution.ts), and
 * compiles the routes. ready/listen/close/inject forward to the facade the composition root
 * built (server/create-server.ts): this class knows nothing of booting or serving.
 */
export class ScopeImpl implements Scope {
  [decorator: string]: unknown
  readonly context: DeclareContext
  readonly parent: ScopeImpl | null
  readonly name: string
  readonly path: string
  readonly prefix: string
  readonly children: ScopeImpl[] = []
  readonly hooks = new HookStore()
  readonly decorations: Record<DecoratorTarget, Map<string, Decoration>> = { request: new Map(), reply: new Map(), instance: new Map() }
  readonly schemas: SchemaStore
  readonly parsers = new Map<string, BodyParser>()
  validatorCompiler: ValidatorCompiler | null = null
  serializerCompiler: SerializerCompiler | null = null
  schemaErrorFormatter: SchemaErrorFormatter | null = null
  /** Set by setSchemaCompilation(); null inherits the parent's (the server option at the root). */
  schemaCompilation: SchemaCompilation | null = null
  errorHandler: ErrorHandler | null = null
  notFoundHandler: NotFoundHandler | null = null

  constructor(init: { context: DeclareContext; parent: ScopeImpl | null; name: string; prefix: string }) {
    this.context = init.context
    this.parent = init.parent
    this.name = init.name
    this.path = init.parent === null ? init.name : `${init.parent.path} > ${init.name}`
    this.prefix = init.prefix
    this.schemas = new SchemaStore({ parent: init.parent?.schemas ?? null, scopePath: this.path })
    if (init.parent !== null) {
      init.parent.children.push(this)
      // Instance decorators are own properties: copy what the ancestors have so far; later
      // ones are pushed down by decorate().
      for (const decoration of init.parent.visibleDecorations('instance')) applyDecoration(this, decoration)
    }
  }

  createChild(name: string, prefix: string): ScopeImpl {
    return new ScopeImpl({ context: this.context, parent: this, name, prefix })
  }

  get server(): Server { return this.context.server }
  get log(): Logger { return this.context.log }
  get closing(): boolean { return this.context.facade.closing }

  /** Throws once the server has booted: declarations after boot would be silently ignored. */
  assertDeclarable(what: string): void {
    if (this.context.booted) {
      throw runtimeError('ENC_ERR_SCOPE_BOOTED', { what, path: this.path })
    }
  }

  register<O extends PluginOptions>(plugin: PluginFunction<O>, options?: O): this {
    this.assertDeclarable('register()')
    this.context.plugins.enqueue(this, plugin, (options ?? {}) as Record<string, unknown>)
    return this
  }

  // `any` schema: the typed signatures of the public Scope (types.ts) check the caller; this side only records.
  route(options: RouteOptions<any>): this { declareRoute(this, options); return this }
  get(path: string, a: AnyHandler | RouteShorthandOptions<any>, b?: AnyHandler): this { shortcut(this, 'GET', path, a, b); return this }
  head(path: string, a: AnyHandler | RouteShorthandOptions<any>, b?: AnyHandler): this { shortcut(this, 'HEAD', path, a, b); return this }
  post(path: string, a: AnyHandler | RouteShorthandOptions<any>, b?: AnyHandler): this { shortcut(this, 'POST', path, a, b); return this }
  put(path: string, a: AnyHandler | RouteShorthandOptions<any>, b?: AnyHandler): this { shortcut(this, 'PUT', path, a, b); return this }
  patch(path: string, a: AnyHandler | RouteShorthandOptions<any>, b?: AnyHandler): this { shortcut(this, 'PATCH', path, a, b); return this }
  delete(path: string, a: AnyHandler | RouteShorthandOptions<any>, b?: AnyHandler): this { shortcut(this, 'DELETE', path, a, b); return this }
  options(path: string, a: AnyHandler | RouteShorthandOptions<any>, b?: AnyHandler): this { shortcut(this, 'OPTIONS', path, a, b); return this }
  all(path: string, a: AnyHandler | RouteShorthandOptions<any>, b?: AnyHandler): this {
    shortcut(this, ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], path, a, b)
    return this
  }

  addHook(name: HookName, fn: Function): this {
    this.assertDeclarable(`addHook('${name}')`)
    assertHook(name, fn, this.path)
    this.hooks.add(name, fn, this as never)
    return this
  }

  decorate(name: string, value: unknown): this { return this.#decorate('instance', name, value) }
  decorateRequest(name: string, value: unknown): this { return this.#decorate('request', name, value) }
  decorateReply(name: string, value: unknown): this { return this.#decorate('reply', name, value) }
  hasDecorator(name: string): boolean { return this.#findDecoration('instance', name) !== undefined }
  hasRequestDecorator(name: string): boolean { return this.#findDecoration('request', name) !== undefined }
  hasReplyDecorator(name: string): boolean { return this.#findDecoration('reply', name) !== undefined }

  #decorate(target: DecoratorTarget, name: string, value: unknown): this {
    const method = target === 'instance' ? 'decorate' : target === 'request' ? 'decorateRequest' : 'decorateReply'
    this.assertDeclarable(`${method}('${name}')`)
    const reserved = target === 'instance' ? null : this.context.reservedNames[target]
    if (typeof name !== 'string' || name === '' || (reserved !== null ? reserved.has(name) : name in ScopeImpl.prototype || name in this)) {
      const owner = target === 'instance' ? this.#findDecoration('instance', name) : undefined
      if (owner === undefined) {
        throw runtimeError('ENC_ERR_DEC_RESERVED', { call: `${method}('${String(name)}')`, path: this.path, target: target === 'instance' ? 'scope' : target })
      }
    }
    if (this.#findDecoration(target, name) !== undefined) {
      throw runtimeError('ENC_ERR_DEC_ALREADY_PRESENT', { call: `${method}('${name}')`, path: this.path })
    }
    const decoration = toDecoration(target, name, value, this.path)
    this.decorations[target].set(name, decoration)
    if (target === 'instance') this.#pushDown(decoration)
    return this
  }

  #pushDown(decoration: Decoration): void {
    applyDecoration(this, decoration)
    for (const child of this.children) if (!child.decorations.instance.has(decoration.name)) child.#pushDown(decoration)
  }

  #findDecoration(target: DecoratorTarget, name: string): Decoration | undefined {
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
    return this
  }
  getSchemas(): Record<string, SharedSchema> { return this.schemas.visible() }
  getSchema(id: string): SharedSchema | undefined { return this.schemas.get(id) }

  setValidatorCompiler(fn: ValidatorCompiler): this { this.#setFunction('setValidatorCompiler', fn); this.validatorCompiler = fn; return this }
  setSerializerCompiler(fn: SerializerCompiler): this { this.#setFunction('setSerializerCompiler', fn); this.serializerCompiler = fn; return this }
  setSchemaErrorFormatter(fn: SchemaErrorFormatter): this { this.#setFunction('setSchemaErrorFormatter', fn); this.schemaErrorFormatter = fn; return this }
  /** 'eager' or 'lazy' for the routes of this scope and its descendants (issue 16). */
  setSchemaCompilation(mode: SchemaCompilation): this {
    this.assertDeclarable('setSchemaCompilation()')
    this.schemaCompilation = checkSchemaCompilation(mode, `setSchemaCompilation() in ${this.path}`)
    return this
  }
  setErrorHandler(fn: ErrorHandler): this { this.#setFunction('setErrorHandler', fn); this.errorHandler = fn; return this }
  setNotFoundHandler(fn: NotFoundHandler): this {
    this.#setFunction('setNotFoundHandler', fn)
    // Unknown URLs are attributed to a scope by prefix only. With its parent's prefix this scope
    // would answer the parent's unknown URLs too, which an ancestor must never see (spec §3.3.3).
    if (this.parent !== null && this.prefix === this.parent.prefix) {
      throw runtimeError('ENC_ERR_NOT_FOUND_NO_PREFIX', { path: this.path, prefix: this.prefix })
    }
    this.notFoundHandler = fn
    return this
  }

  #setFunction(method: string, fn: unknown): void {
    this.assertDeclarable(`${method}()`)
    if (typeof fn !== 'function') throw runtimeError('ENC_ERR_ROUTE_INVALID', { setter: method, path: this.path, got: typeof fn })
  }

  addContentTypeParser(types: string | string[], a: ContentTypeParserOptions | ContentTypeParserFn, b?: ContentTypeParserFn): this {
    this.assertDeclarable('addContentTypeParser()')
    const options = typeof a === 'function' ? {} : a
    const fn = typeof a === 'function' ? a : b
    if (typeof fn !== 'function') throw runtimeError('ENC_ERR_CTP_INVALID', { path: this.path })
    for (const declared of Array.isArray(types) ? types : [types]) {
      const type = typeof declared === 'string' ? normalizeDeclaredType(declared) : null
      if (type === null) throw runtimeError('ENC_ERR_CTP_INVALID', { path: this.path, type: String(declared) })
      if (this.#parserOwner(type) !== null) {
        throw runtimeError('ENC_ERR_CTP_ALREADY_PRESENT', { type, path: this.path })
      }
      this.parsers.set(type, { fn, parseAs: options.parseAs ?? 'string', bodyLimit: options.bodyLimit ?? null })
    }
    return this
  }

  hasContentTypeParser(type: string): boolean {
    const normalized = normalizeDeclaredType(type)
    return normalized !== null && (this.#parserOwner(normalized) !== null || this.context.defaultParsers.has(normalized))
  }

  #parserOwner(type: string): ScopeImpl | null {
    for (let scope: ScopeImpl | null = this; scope !== null; scope = scope.parent) if (scope.parsers.has(type)) return scope
    return null
  }

  ready(options?: ReadyOptions): Promise<this> { return this.context.facade.ready(options).then(() => this) }
  bootProfile(options: { top?: number } = {}): BootProfile { return this.context.facade.bootProfile(options.top ?? 10) }
  listen(a?: number | ListenOptions, host?: string): Promise<string> { return this.context.facade.listen(a, host) }
  close(): Promise<void> { return this.context.facade.close() }
  inject(options: InjectOptions | string): Promise<InjectResponse> { return this.context.facade.inject(options) }
}
