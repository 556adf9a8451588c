import type { DependencyContainer } from 'tsyringe'
import type { PluginOptions } from '../runtime'
import type { DeferredPlugin } from '../decorators/internal'
import { moduleError } from './module-error'
import { isThenable, settleWithin } from './settle-within'

/**
 * A usePlugin() entry's options, built by createApp once every provider exists, from the
 * module's container (the visibility its constructor dependencies have). An async useFactory
 * is awaited like an async factory provider, bounded by pluginTimeout (0: no limit), so the
 * plugin never receives a Promise and a factory that never settles cannot hang boot.
 */
export async function buildPluginOptions(deferred: DeferredPlugin, container: DependencyContainer, path: string, timeoutMs: number): Promise<PluginOptions> {
  const plugin = `usePlugin(${deferred.plugin.name || 'anonymous plugin'})`
  const refuse = (problem: string, cause?: unknown) => moduleError('ENC_ERR_MODULE_PLUGIN_OPTIONS', { path, plugin, problem }, cause === undefined ? undefined : { cause })
  let options: unknown
  try {
    options = deferred.useFactory(...(deferred.inject.map((token) => container.resolve(token)) as never[]))
  } catch (error) {
    throw refuse(`useFactory threw: ${reason(error)}`, error)
  }
  if (isThenable(options)) {
    try {
      options = await settleWithin(options, timeoutMs, () => refuse(`useFactory's promise did not settle within ${timeoutMs} ms (pluginTimeout)`))
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENC_ERR_MODULE_PLUGIN_OPTIONS') throw error
      throw refuse(`useFactory rejected: ${reason(error)}`, error)
    }
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    const got = options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options
    throw refuse(`useFactory returned ${got}`)
  }
  return options as PluginOptions
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
