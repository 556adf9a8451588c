import 'reflect-metadata' // tsyringe's injectable() below needs it: sideEffects false, so each file that needs it imports it
import { injectable, type InjectionToken } from 'tsyringe'
import { copyOwnMetadata, getModuleMeta, setModuleMeta } from './metadata'
import { toModuleMeta } from './module-options'
import type { ProviderEntry } from './types'

/** The `${method}Async` argument: NestJS's `useFactory` + `inject` (`imports` is not needed: the inject tokens come from the module's ancestors). */
export interface ConfigurableModuleAsyncOptions<O> {
  useFactory: (...args: any[]) => O | Promise<O>
  inject?: readonly InjectionToken[]
  /** NestJS's; ignored: what `inject` names is provided by an ancestor module (or a lifted one), as any dependency. */
  imports?: readonly unknown[]
}

/**
 * What `build()` gives: a base class whose subclasses (the `@Module()` that extends it) get the two
 * static methods, `register(options)` / `registerAsync({ useFactory, inject })` (or the names
 * `setClassMethodName()` chose). Each call declares a module class of its own: the subclass with the
 * options provided under MODULE_OPTIONS_TOKEN, listed in `plugins` (`lift()` it for its parent to see
 * its providers, NestJS's `exports`).
 */
export type ConfigurableModuleCls<O, M extends string> = (abstract new (...args: any[]) => object)
  & { [K in M]: <T extends Function>(this: T, options: O) => T }
  & { [K in `${M}Async`]: <T extends Function>(this: T, options: ConfigurableModuleAsyncOptions<O>) => T }

export interface ConfigurableModule<O, M extends string> {
  readonly ConfigurableModuleClass: ConfigurableModuleCls<O, M>
  /** The token the options are provided under: `@inject(MODULE_OPTIONS_TOKEN) options: O`. */
  readonly MODULE_OPTIONS_TOKEN: symbol
  /** Types only (NestJS's `typeof OPTIONS_TYPE`): undefined at run time. */
  readonly OPTIONS_TYPE: O
  readonly ASYNC_OPTIONS_TYPE: ConfigurableModuleAsyncOptions<O>
}

/**
 * NestJS's ConfigurableModuleBuilder, without dynamic module objects: `forRoot()` returns a module
 * class (the module tree is static), declared per call as docs/migrating-from-nestjs.md's configurable-module function
 * would. `setExtras()` and `setFactoryMethodName()` are not supported.
 *
 * @example
 * export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<CacheOptions>().setClassMethodName('forRoot').build()
 * \@Module({ providers: [Cache] }) export class CacheModule extends ConfigurableModuleClass {}
 * \@Module({ plugins: [lift(CacheModule.forRoot({ ttl: 60 }))] }) class AppModule {}
 */
export class ConfigurableModuleBuilder<O, M extends string = 'register'> {
  #method: string = 'register'

  /** The static methods' name: `forRoot` gives `forRoot()` and `forRootAsync()`. */
  setClassMethodName<N extends string>(name: N): ConfigurableModuleBuilder<O, N> {
    const next = new ConfigurableModuleBuilder<O, N>()
    next.#method = name
    return next
  }

  build(): ConfigurableModule<O, M> {
    const token = Symbol(`${this.#method}: MODULE_OPTIONS_TOKEN`)
    const method = this.#method
    abstract class ConfigurableModuleClass {}
    Object.defineProperties(ConfigurableModuleClass, {
      [method]: { value: function (this: Function, options: O) { return configured(this, { provide: token, useValue: options }) } },
      [`${method}Async`]: {
        value: function (this: Function, options: ConfigurableModuleAsyncOptions<O>) {
          return configured(this, { provide: token, useFactory: options.useFactory, inject: [...(options.inject ?? [])] })
        },
      },
    })
    return { ConfigurableModuleClass: ConfigurableModuleClass as never, MODULE_OPTIONS_TOKEN: token, OPTIONS_TYPE: undefined as never, ASYNC_OPTIONS_TYPE: undefined as never }
  }
}

/**
 * The module `base` (a subclass of ConfigurableModuleClass) with one more provider, as a class of its
 * own: its metadata (the @Module options, class decorators, @Hook methods' entries) is copied, the
 * options provider added, so each call is one module of the tree with its own providers.
 */
function configured(base: Function, options: ProviderEntry): Function {
  const meta = getModuleMeta(base) ?? toModuleMeta(base.name, {})
  const Configured = class extends (base as new (...args: any[]) => object) {}
  // The module path in messages names the module as declared (`AppModule > CacheModule`).
  Object.defineProperty(Configured, 'name', { value: base.name })
  copyOwnMetadata(base, Configured)
  setModuleMeta(Configured, { ...meta, providers: [...meta.providers, options] })
  injectable()(Configured as never)
  return Configured
}
