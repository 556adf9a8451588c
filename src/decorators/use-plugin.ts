import type { InjectionToken } from 'tsyringe'
import type { PluginOptions, PluginOptionsOf } from '../runtime/types'
import { declarationError } from './declaration-error'
import { describeValue } from './module-options'

/** Instance type of a class token; `any` for string and symbol tokens, whose type TypeScript cannot know. */
export type ResolvedTokens<T extends readonly unknown[]> = { -readonly [K in keyof T]: T[K] extends abstract new (...args: any[]) => infer I ? I : any }

/** The shape of usePlugin's second argument; `O`: the options the plugin takes (PluginOptionsOf the plugin). */
export interface UsePluginOptions<T extends readonly InjectionToken<any>[], O = PluginOptions> {
  /** Providers visible from the module (its own, its ancestors'), resolved at boot. */
  inject?: T
  /**
   * Builds the plugin's options from the injected providers, once, at boot. May be async: createApp()
   * awaits it (bounded by pluginTimeout) before the module registers the plugin.
   */
  useFactory: (...deps: ResolvedTokens<T>) => O | Promise<O>
}

/**
 * UsePluginOptions as usePlugin() checks it for plugin `P`. `F`, the factory as written, is a type
 * parameter bounded by a factory of the plugin's options (PluginOptionsOf<P>, or a promise of
 * them): its returned values are checked against them, and ExactOptions then looks at the keys,
 * because TypeScript does not check a returned object literal for excess properties (a misspelt
 * option beside valid ones would otherwise pass).
 */
type CheckedUsePluginOptions<T extends readonly InjectionToken<any>[], P, F> = { inject?: T; useFactory: F } & ExactOptions<F, PluginOptionsOf<P>>
/**
 * The bound of a factory as written. Its parameters end in `...undefined[]` (what a parameter past the
 * injected ones receives) so that its arity never looks smaller than the factory's: TypeScript reads this
 * bound while `T` is not yet inferred from `inject` (both sit in one object argument), sees `T` as `[]`,
 * and would drop the contextual signature of a factory with annotated parameters (`(config: Config) =>`),
 * widening the literals it returns (`cookie: { secure: 'auto' }` read as `string`, then refused).
 */
type OptionsFactory<T extends readonly InjectionToken<any>[], P> =
  (...deps: [...ResolvedTokens<T>, ...undefined[]]) => PluginOptionsOf<P> | Promise<PluginOptionsOf<P>>
/** Nothing when every key the factory returns is an option of the plugin; else a factory type whose result has those keys `never`. */
type ExactOptions<F, O> = [F] extends [(...deps: never[]) => infer R] ? ExactResult<Awaited<R>, O> : unknown
type ExactResult<R, O> = [UnknownKeys<R, O>] extends [never] ? unknown
  : { useFactory: (...deps: never[]) => { [K in UnknownKeys<R, O>]: never } | Promise<{ [K in UnknownKeys<R, O>]: never }> }
type UnknownKeys<R, O> = Exclude<keyof R, KeysOfUnion<O>>
type KeysOfUnion<O> = O extends unknown ? keyof O : never

/** What usePlugin() recorded, for the module layer. */
export interface DeferredPlugin {
  readonly plugin: Function
  readonly inject: readonly InjectionToken[]
  readonly useFactory: (...deps: never[]) => unknown
}

const kDeferred = Symbol('enclave.deferredPlugin')

/**
 * An entry of `@Module({ plugins })` whose options come from providers, at boot: configuration
 * is not read at import time, and a test changes it with `createApp(Root, { overrides })`
 * like any provider (docs/controllers.md, "Configuration"). The plugin is registered exactly as
 * `[plugin, options]` would be, in the same position. What `useFactory` returns is checked against
 * the plugin's own options type, a Fastify-typed plugin's (@fastify/*) included.
 *
 * @example
 * @Module({
 *   providers: [{ provide: Config, useFactory: () => Config.fromEnv() }],
 *   plugins: [usePlugin(rateLimit, { inject: [Config], useFactory: (config: Config) => ({ max: config.rateLimitMax }) })],
 * })
 * class AppModule {}
 */
export function usePlugin<const T extends readonly InjectionToken<any>[] = [], P extends Function = Function,
  F extends OptionsFactory<T, P> = OptionsFactory<T, P>>(plugin: P, options: CheckedUsePluginOptions<T, P, F>): Function {
  const name = typeof plugin === 'function' ? plugin.name || 'anonymous plugin' : describeValue(plugin)
  const inject = options?.inject ?? []
  if (typeof plugin !== 'function' || typeof options?.useFactory !== 'function' || !Array.isArray(inject)) {
    throw declarationError('ENC_ERR_DECL_USE_PLUGIN', { case: 'arguments', plugin: name,
      got: typeof plugin !== 'function' ? `plugin ${describeValue(plugin)}` : !Array.isArray(inject) ? `inject ${describeValue(inject)}` : `useFactory ${describeValue(options?.useFactory)}` })
  }
  // A function, so it is a valid plugins entry; registered by hand (not through a module) it refuses loudly.
  const entry = function usePluginEntry(): never { throw declarationError('ENC_ERR_DECL_USE_PLUGIN', { case: 'registered', plugin: name }) }
  Object.defineProperty(entry, 'name', { value: `usePlugin(${name})` })
  const deferred: DeferredPlugin = Object.freeze({ plugin, inject: Object.freeze([...inject]), useFactory: options.useFactory as DeferredPlugin['useFactory'] })
  Object.defineProperty(entry, kDeferred, { value: deferred })
  return entry
}

/** The recorded plugin and options factory of a usePlugin() entry, `undefined` for anything else. */
export function deferredPluginOf(entry: Function): DeferredPlugin | undefined {
  return (entry as unknown as Record<symbol, DeferredPlugin | undefined>)[kDeferred]
}
