import type { InjectionToken } from 'tsyringe'
import type { PluginOptions } from '../runtime/types'
import { declarationError } from './declaration-error'
import { describeValue } from './module-options'

/** Instance type of a class token; `any` for string and symbol tokens, whose type TypeScript cannot know. */
export type ResolvedTokens<T extends readonly unknown[]> = { -readonly [K in keyof T]: T[K] extends abstract new (...args: any[]) => infer I ? I : any }

export interface UsePluginOptions<T extends readonly InjectionToken<any>[], O extends PluginOptions> {
  /** Providers visible from the module (its own, its ancestors'), resolved at boot. */
  inject?: T
  /**
   * Builds the plugin's options from the injected providers, once, at boot. May be async: createApp()
   * awaits it (bounded by pluginTimeout) before the module registers the plugin.
   */
  useFactory: (...deps: ResolvedTokens<T>) => O | Promise<O>
}

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
 * like any provider (README "Configuration"). The plugin is registered exactly as
 * `[plugin, options]` would be, in the same position.
 *
 * @example
 * @Module({
 *   providers: [{ provide: Config, useFactory: () => Config.fromEnv() }],
 *   plugins: [usePlugin(rateLimit, { inject: [Config], useFactory: (config: Config) => ({ max: config.rateLimitMax }) })],
 * })
 * class AppModule {}
 */
export function usePlugin<const T extends readonly InjectionToken<any>[] = [], O extends PluginOptions = PluginOptions>(
  plugin: Function, options: UsePluginOptions<T, O>): Function {
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
