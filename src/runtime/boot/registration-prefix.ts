import type { PluginOptions } from '../types'

/**
 * The prefix a registration puts a lifted plugin's routes under, or null when it applies none.
 * Enclave's rule (issue 11): `register(lift(plugin), { prefix })` applies the prefix to the
 * routes (and child plugins) the lifted plugin declares, as a lifted module's prefix does;
 * its hooks, decorators and the rest still land in the registering scope.
 *
 * SEAM: a plugin wrapped by `fastify-plugin` (it carries `Symbol.for('plugin-meta')`) keeps
 * Fastify's rule instead: `prefix` is that plugin's own option and is not applied. Return null
 * for it here; nothing else needs to change.
 */
export function liftedRoutePrefix(_plugin: Function, options: PluginOptions): string | null {
  return typeof options.prefix === 'string' ? options.prefix : null
}
