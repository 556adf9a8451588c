import { runtimeError } from '../errors/runtime-codes'

/**
 * Scope members a plugin is expected to replace by decorating: Fastify 3's default `use()` throws
 * until @fastify/middie (or @fastify/express) decorates its own, so `decorate('use', ...)` must
 * not be refused as a reserved name.
 */
export const pluginReplaceableMembers: ReadonlySet<string | symbol> = new Set(['use'])

/**
 * Fastify 3's default `use()`: without a middleware plugin, a coded error naming the plugins that
 * provide it, rather than `use is not a function`.
 */
export function installMissingMiddlewareUse(prototype: object): void {
  Object.defineProperty(prototype, 'use', {
    configurable: true,
    writable: true,
    value: function use(this: { path: string }): never {
      throw runtimeError('ENC_ERR_PLUGIN_MISSING_MIDDLEWARE', { path: this.path })
    },
  })
}
