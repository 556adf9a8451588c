import 'reflect-metadata' // tsyringe's injectable() below needs it: sideEffects false, so each file that needs it imports it
import { injectable, type InjectionToken } from 'tsyringe'
import { declarationError } from './declaration-error'
import { copyOwnMetadata, getModuleMeta, setModuleMeta } from './metadata'
import { describeValue, toModuleMeta } from './module-options'
import type { ProviderEntry } from './types'

/** The `${method}Async` argument: NestJS's `useFactory` + `inject` + `imports`. */
export interface ConfigurableModuleAsyncOptions<O> {
  useFactory: (...args: any[]) => O | Promise<O>
  inject?: readonly InjectionToken[]
  /**
   * Modules providing what `inject` names (NestJS's `imports: [ConfigModule]`). One already visible
   * from where the configured module is listed (an ancestor, or lifted into one, a global one) is
   * used as it is; one that is not is lifted into the configured module, as a copy of its own.
   */
  imports?: readonly Function[]
}

/**
 * What `setExtras()`'s transform receives and returns (NestJS's DynamicModule, the keys Enclave reads):
 * `providers` are added to the module, `imports` as in `forRootAsync()`, `global: true` lifts the module
 * (listed in the root module, as NestJS advises for global modules, its providers are visible to every
 * module; listed lower, to the listing module's subtree, as lift() does). `exports` is accepted and
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
export type ConfigurableModuleCls<O, M extends string, E = {}> = (abstract new (...args: any[]) => object)
  & { [K in M]: <T extends Function>(this: T, options: O & Partial<E>) => T }
  & { [K in `${M}Async`]: <T extends Function>(this: T, options: ConfigurableModuleAsyncOptions<O> & Partial<E>) => T }

export interface ConfigurableModule<O, M extends string, E = {}> {
  readonly ConfigurableModuleClass: ConfigurableModuleCls<O, M, E>
  /** The token the options are provided under: `@inject(MODULE_OPTIONS_TOKEN) options: O` (the extras' keys left out, as NestJS). */
  readonly MODULE_OPTIONS_TOKEN: symbol
  /** Types only (NestJS's `typeof OPTIONS_TYPE`): undefined at run time. */
  readonly OPTIONS_TYPE: O & Partial<E>
  readonly ASYNC_OPTIONS_TYPE: ConfigurableModuleAsyncOptions<O> & Partial<E>
}

type Transform<E> = (definition: ConfigurableModuleDefinition, extras: E) => ConfigurableModuleDefinition

/**
 * NestJS's ConfigurableModuleBuilder, without dynamic module objects: `forRoot()` returns a module
 * class (the module tree is static), declared per call as docs/migrating-from-nestjs.md's configurable-module function
 * would. `setFactoryMethodName()` is not supported.
 *
 * @example
 * export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<CacheOptions>()
 *   .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
 *   .setClassMethodName('forRoot').build()
 * \@Module({ providers: [Cache] }) export class CacheModule extends ConfigurableModuleClass {}
 * \@Module({ plugins: [CacheModule.forRoot({ ttl: 60, isGlobal: true })] }) class AppModule {}
 */
export class ConfigurableModuleBuilder<O, M extends string = 'register', E = {}> {
  #method: string = 'register'
  #extras: object = {}
  #transform: Transform<any> = (definition) => definition

  /** The static methods' name: `forRoot` gives `forRoot()` and `forRootAsync()`. */
  setClassMethodName<N extends string>(name: N): ConfigurableModuleBuilder<O, N, E> {
    return this.#copy<N, E>(name, this.#extras, this.#transform)
  }

  /**
   * Options of the module definition rather than of its providers (NestJS's `setExtras()`): the keys of
   * `extras` (with these defaults) are taken out of what MODULE_OPTIONS_TOKEN gives, and `transform`
   * turns them into the definition, e.g. `(definition, { isGlobal }) => ({ ...definition, global: isGlobal })`.
   */
  setExtras<X extends object>(extras: X, transform: Transform<X> = (definition) => definition): ConfigurableModuleBuilder<O, M, X> {
    return this.#copy<M, X>(this.#method, extras, transform)
  }

  #copy<N extends string, X>(method: string, extras: object, transform: Transform<any>): ConfigurableModuleBuilder<O, N, X> {
    const next = new ConfigurableModuleBuilder<O, N, X>()
    next.#method = method
    next.#extras = extras
    next.#transform = transform
    return next
  }

  build(): ConfigurableModule<O, M, E> {
    const token = Symbol(`${this.#method}: MODULE_OPTIONS_TOKEN`)
    const method = this.#method
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
        value: function (this: Function, options: ConfigurableModuleAsyncOptions<O>) {
          const provider: ProviderEntry = { provide: token, useFactory: options.useFactory, inject: [...(options.inject ?? [])] }
          const imports = options.imports === undefined ? [] : Array.isArray(options.imports) ? [...options.imports] : options.imports
          return configured(this, `${method}Async()`, transform({ module: this, providers: [provider], imports: imports as Function[] }, { ...defaults, ...options }))
        },
      },
    })
    return { ConfigurableModuleClass: ConfigurableModuleClass as never, MODULE_OPTIONS_TOKEN: token, OPTIONS_TYPE: undefined as never, ASYNC_OPTIONS_TYPE: undefined as never }
  }
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
