import type { PluginOptions } from '../types'
import { liftedTarget } from '../declare/lift'
import { kPluginMeta, kSkipOverride } from '../shared/plugin-meta'

/**
 * The prefix a registration puts a lifted plugin's routes under, or null when it applies none.
 * Enclave's rule (issue 11): `register(lift(plugin), { prefix })` applies the prefix to the
 * routes (and child plugins) the lifted plugin declares, as a lifted module's prefix does;
 * its hooks, decorators and the rest still land in the registering scope.
 *
 * A plugin wrapped by `fastify-plugin` (it carries `Symbol.for('plugin-meta')`), or one that
 * sets `Symbol.for('skip-override')` itself, keeps Fastify's rule instead: `prefix` is that
 * plugin's own option and is not applied (@fastify/static's documented `prefix` relies on it).
 */
export function liftedRoutePrefix(plugin: Function, options: PluginOptions): string | null {
  const target = liftedTarget(plugin) as unknown as Record<symbol, unknown>
  if (target[kPluginMeta] !== undefined || target[kSkipOverride] === true) return null
  return typeof options.prefix === 'string' ? options.prefix : null
}
