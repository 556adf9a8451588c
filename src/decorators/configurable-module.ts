import 'reflect-metadata' // tsyringe's injectable() below needs it: sideEffects false, so each file that needs it imports it
import { injectable, type InjectionToken } from 'tsyringe'
import { declarationError } from './declaration-error'
import { copyOwnMetadata, getModuleMeta, setModuleMeta } from './metadata'
import { describeValue, toModuleMeta } from './module-options'
import type { ProviderEntry } from './types'

/**
 * The `${method}Async` argument: NestJS's `useFactory` + `inject`, or a factory class (`useClass`, built
 * as a provider of the configured module; `useExisting`, one already visible) whose `create()` (or the
 * name `setFactoryMethodName()` chose) gives the options; and `imports`.
 */
export interface ConfigurableModuleAsyncOptions<O, F extends string = 'create'> {
  useFactory?: (...args: any[]) => O | Promise<O>
  inject?: readonly InjectionToken[]
  useClass?: new (...args: any[]) => ConfigurableModuleOptionsFactory<O, F>
  useExisting?: new (...args: any[]) => ConfigurableModuleOptionsFactory<O, F>
  /**
   * Modules providing what `inject` names (NestJS's `imports: [ConfigModule]`). One already visible
   * from where the configured module is listed (an ancestor, or lifted into one, a global one) is
   * used as it is; one that is not is lifted into the nearest common ancestor of every module importing
   * it (one instance for all, as NestJS's).
   */
  imports?: readonly Function[]
}

/** A `useClass`/`useExisting` factory: NestJS's ConfigurableModuleOptionsFactory (`create()` unless `setFactoryMethodName()` named another). */
export type ConfigurableModuleOptionsFactory<O, F extends string = 'create'> = { [K in F]: () => O | Promise<O> }

/** The builder's constructor options, as NestJS's ConfigurableModuleBuilderOptions. */
export interface ConfigurableModuleBuilderOptions {
  /** The token the options are provided under (MODULE_OPTIONS_TOKEN), as given. */
  optionsInjectionToken?: string | symbol
  /** `'Cache'` names the token `'CACHE_MODULE_OPTIONS'`, as NestJS does: each configurable module's prints as its own in `printTree()` and boot errors. */
  moduleName?: string
  /** Accepted for NestJS code: every `forRoot()` call already declares a module of its own. */
  alwaysTransient?: boolean
}

/**
 * What `setExtras()`'s transform receives and returns (NestJS's DynamicModule, the keys Enclave reads):
 * `providers` are added to the module, `imports` as in `forRootAsync()`, `global: true` makes its providers
 * visible to every module, as NestJS's global modules (listed in the root module it is lifted there, listed
 * lower it is hoisted into the root, one module however often listed). `exports` is accepted and
 * unused: a module's providers are visible to its descendants, and lifted, to its parent.
 */
export interface ConfigurableModuleDefinition {
  module: Function
  providers: ProviderEntry[]
  imports: Function[]
  global?: boolean
  exports?: readonly unknown[]
}

/**
 * What `build()` gives: a base class whose subclasses (the `@Module()` that extends it) get the two
 * static methods, `register(options)` / `registerAsync({ useFactory, inject, imports })` (or the names
 * `setClassMethodName()` chose). Each call declares a module class of its own: the subclass with the
 * options provided under MODULE_OPTIONS_TOKEN, listed in `plugins` (`lift()` it for its parent to see
 * its providers, NestJS's `exports`). `E` is what `setExtras()` declared (e.g. `{ isGlobal: boolean }`).
 */
export type ConfigurableModuleCls<O, M extends string, E = {}, F extends string = 'create'> = (abstract new (...args: any[]) => object)
  & { [K in M]: <T extends Function>(this: T, options: O & Partial<E>) => T }
  & { [K in `${M}Async`]: <T extends Function>(this: T, options: ConfigurableModuleAsyncOptions<O, F> & Partial<E>) => T }

export interface ConfigurableModule<O, M extends string, E = {}, F extends string = 'create'> {
  readonly ConfigurableModuleClass: ConfigurableModuleCls<O, M, E, F>
  /**
   * The token the options are provided under: `@inject(MODULE_OPTIONS_TOKEN) options: O` (the extras' keys
   * left out, as NestJS). The constructor's `optionsInjectionToken` as given, `'CACHE_MODULE_OPTIONS'` for
   * `moduleName: 'Cache'`, else a symbol named after the method (`Symbol(forRoot: MODULE_OPTIONS_TOKEN)`).
   */
  readonly MODULE_OPTIONS_TOKEN: string | symbol
  /** Types only (NestJS's `typeof OPTIONS_TYPE`): undefined at run time. */
  readonly OPTIONS_TYPE: O & Partial<E>
  readonly ASYNC_OPTIONS_TYPE: ConfigurableModuleAsyncOptions<O, F> & Partial<E>
}

type Transform<E> = (definition: ConfigurableModuleDefinition, extras: E) => ConfigurableModuleDefinition

/**
 * NestJS's ConfigurableModuleBuilder, without dynamic module objects: `forRoot()` returns a module
 * class (the module tree is static), declared per call as docs/migrating-from-nestjs.md's configurable-module function
 * would. `moduleName`/`optionsInjectionToken` name the token, `setFactoryMethodName()` the method a
 * `forRootAsync({ useClass })` factory implements, as NestJS's.
 *
 * @example
 * export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<CacheOptions>()
 *   .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
 *   .setClassMethodName('forRoot').build()
 * \@Module({ providers: [Cache] }) export class CacheModule extends ConfigurableModuleClass {}
 * \@Module({ plugins: [CacheModule.forRoot({ ttl: 60, isGlobal: true })] }) class AppModule {}
 */
export class ConfigurableModuleBuilder<O, M extends string = 'register', E = {}, F extends string = 'create'> {
  readonly #options: ConfigurableModuleBuilderOptions
  #method: string = 'register'
  #factoryMethod: string = 'create'
  #extras: object = {}
  #transform: Transform<any> = (definition) => definition

  constructor(options: ConfigurableModuleBuilderOptions = {}) {
    this.#options = { ...options }
  }

  /** The static methods' name: `forRoot` gives `forRoot()` and `forRootAsync()`. */
  setClassMethodName<N extends string>(name: N): ConfigurableModuleBuilder<O, N, E, F> {
    return this.#copy<N, E, F>({ method: name })
  }

  /** The method a `forRootAsync({ useClass })` / `{ useExisting }` factory class implements to give the options (`create` by default). */
  setFactoryMethodName<N extends string>(name: N): ConfigurableModuleBuilder<O, M, E, N> {
    return this.#copy<M, E, N>({ factoryMethod: name })
  }

  /**
   * Options of the module definition rather than of its providers (NestJS's `setExtras()`): the keys of
   * `extras` (with these defaults) are taken out of what MODULE_OPTIONS_TOKEN gives, and `transform`
   * turns them into the definition, e.g. `(definition, { isGlobal }) => ({ ...definition, global: isGlobal })`.
   */
  setExtras<X extends object>(extras: X, transform: Transform<X> = (definition) => definition): ConfigurableModuleBuilder<O, M, X, F> {
    return this.#copy<M, X, F>({ extras, transform })
  }

  #copy<N extends string, X, G extends string>(change: { method?: string; factoryMethod?: string; extras?: object; transform?: Transform<any> }): ConfigurableModuleBuilder<O, N, X, G> {
    const next = new ConfigurableModuleBuilder<O, N, X, G>(this.#options)
    next.#method = change.method ?? this.#method
    next.#factoryMethod = change.factoryMethod ?? this.#factoryMethod
    next.#extras = change.extras ?? this.#extras
    next.#transform = change.transform ?? this.#transform
    return next
  }

  build(): ConfigurableModule<O, M, E, F> {
    const token = optionsToken(this.#options, this.#method)
    const method = this.#method
    const factoryMethod = this.#factoryMethod
    const defaults = this.#extras
    const transform = this.#transform
    const extraKeys = Object.keys(defaults)
    const withoutExtras = (given: object): object => Object.fromEntries(Object.entries(given).filter(([key]) => !extraKeys.includes(key)))
    abstract class ConfigurableModuleClass {}
    Object.defineProperties(ConfigurableModuleClass, {
      [method]: {
        value: function (this: Function, options: O & object) {
          const value = extraKeys.length === 0 ? options : withoutExtras(options)
          return configured(this, `${method}()`, transform({ module: this, providers: [{ provide: token, useValue: value }], imports: [] }, { ...defaults, ...options }))
        },
      },
      [`${method}Async`]: {
        value: function (this: Function, options: ConfigurableModuleAsyncOptions<O, string>) {
          const call = `${method}Async()`
          const providers = asyncProviders(`${this.name}.${call}`, token, factoryMethod, options)
          const imports = options.imports === undefined ? [] : Array.isArray(options.imports) ? [...options.imports] : options.imports
          return configured(this, call, transform({ module: this, providers, imports: imports as Function[] }, { ...defaults, ...options }))
        },
      },
    })
    return { ConfigurableModuleClass: ConfigurableModuleClass as never, MODULE_OPTIONS_TOKEN: token, OPTIONS_TYPE: undefined as never, ASYNC_OPTIONS_TYPE: undefined as never }
  }
}

/** NestJS's naming: `optionsInjectionToken` as given, `moduleName: 'RateLimit'` gives `'RATE_LIMIT_MODULE_OPTIONS'`. */
function optionsToken(options: ConfigurableModuleBuilderOptions, method: string): string | symbol {
  if (options.optionsInjectionToken !== undefined) return options.optionsInjectionToken
  if (typeof options.moduleName === 'string' && options.moduleName.trim() !== '') {
    return `${options.moduleName.trim().split(/(?=[A-Z])/).join('_').toUpperCase()}_MODULE_OPTIONS`
  }
  return Symbol(`${method}: MODULE_OPTIONS_TOKEN`)
}

/**
 * The options provider of `${method}Async()`, as NestJS's: `useFactory` with its `inject`; `useClass`,
 * provided in the configured module too, or `useExisting`, its factory method's result (awaited at boot).
 */
function asyncProviders(name: string, token: string | symbol, factoryMethod: string, options: ConfigurableModuleAsyncOptions<unknown, string>): ProviderEntry[] {
  if (options === null || typeof options !== 'object') throw declarationError('ENC_ERR_DECL_MODULE_ENTRY', { name, entry: 'the async options', got: describeValue(options), expected: '{ useFactory, inject } or { useClass } or { useExisting }' })
  if (typeof options.useFactory === 'function') return [{ provide: token, useFactory: options.useFactory, inject: [...(options.inject ?? [])] }]
  const [key, factory] = options.useExisting !== undefined ? ['useExisting', options.useExisting] as const : ['useClass', options.useClass] as const
  if (typeof factory !== 'function' || typeof (factory.prototype as Record<string, unknown> | undefined)?.[factoryMethod] !== 'function') {
    throw declarationError('ENC_ERR_DECL_MODULE_ENTRY', {
      name, entry: factory === undefined && options.useFactory === undefined ? 'the async options' : key,
      got: factory === undefined ? (options.useFactory === undefined ? 'without useFactory, useClass or useExisting' : `useFactory ${describeValue(options.useFactory)}`) : typeof factory === 'function' ? `${factory.name || 'an anonymous class'}, without a ${factoryMethod}() method` : describeValue(factory),
      expected: `a useFactory function, or a useClass/useExisting class whose ${factoryMethod}() returns the options${factoryMethod === 'create' ? '' : ` (the name setFactoryMethodName() chose)`}`,
    })
  }
  const provider: ProviderEntry = { provide: token, useFactory: async (instance: Record<string, () => unknown>) => await instance[factoryMethod]!(), inject: [factory] }
  return key === 'useClass' ? [provider, factory as ProviderEntry] : [provider]
}

interface Configuration { readonly base: Function; readonly imports: readonly Function[]; readonly global: boolean }
const configurations = new WeakMap<Function, Configuration>()

/** What forRoot()/forRootAsync() declared beyond providers, for the module tree (scan). */
export function configurationOf(type: Function): Configuration | undefined {
  return configurations.get(type)
}

/**
 * The module `base` (a subclass of ConfigurableModuleClass) with the definition's providers added, as
 * a class of its own: its metadata (the @Module options, class decorators, @Hook methods' entries) is
 * copied, so each call is one module of the tree with its own providers.
 */
function configured(base: Function, call: string, definition: ConfigurableModuleDefinition): Function {
  const meta = getModuleMeta(base) ?? toModuleMeta(base.name, {})
  const name = `${base.name}.${call}`
  if (definition === null || typeof definition !== 'object' || !Array.isArray(definition.providers)) {
    throw declarationError('ENC_ERR_DECL_MODULE_ENTRY', { name, entry: "setExtras()'s transform", got: describeValue(definition), expected: 'a definition object ({ ...definition, global }) with its providers list' })
  }
  const imports = definition.imports ?? []
  if (!Array.isArray(imports)) throw declarationError('ENC_ERR_DECL_MODULE_ENTRY', { name, entry: 'imports', got: describeValue(imports), expected: 'an array of module classes' })
  imports.forEach((entry, index) => {
    // undefined here is most often a module file importing this one back (NestJS's forwardRef case).
    if (entry === undefined || entry === null) throw declarationError('ENC_ERR_DECL_MODULE_ENTRY', { name, entry: `imports[${index}]`, got: String(entry) })
    if (typeof entry !== 'function') throw declarationError('ENC_ERR_DECL_MODULE_ENTRY', { name, entry: `imports[${index}]`, got: describeValue(entry), expected: 'a module class' })
  })
  // The shape checks of @Module() (a provider entry's keys, its scope) apply to the added providers too.
  const added = toModuleMeta(name, { providers: definition.providers }).providers
  const Configured = class extends (base as new (...args: any[]) => object) {}
  // The module path in messages names the module as declared (`AppModule > CacheModule`).
  Object.defineProperty(Configured, 'name', { value: base.name })
  copyOwnMetadata(base, Configured)
  setModuleMeta(Configured, { ...meta, providers: [...meta.providers, ...added] })
  injectable()(Configured as never)
  configurations.set(Configured, { base, imports: Object.freeze([...imports]), global: definition.global === true })
  return Configured
}
