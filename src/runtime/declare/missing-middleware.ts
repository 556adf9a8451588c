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

const guardedUses = new WeakMap<Function, Function>()

/**
 * @fastify/middie's `use()`, refusing an Express error middleware `(err, req, res, next)` when it is
 * given: middie has no error middleware and calls every function as `(req, res, next)`, so the one
 * an Express app adds last would fail every request with a TypeError far from the cause. Only
 * middie's: @fastify/express runs Express's own router, which does call error middleware.
 * One wrapper per function, so the `use` middie's onRegister hands each child is still "the same
 * function" to decorate()'s shadowing check.
 */
export function guardMiddieUse(use: Function): Function {
  let guarded = guardedUses.get(use)
  if (guarded === undefined) {
    guarded = function (this: { path: string }, ...args: unknown[]): unknown {
      const fn = args[args.length - 1]
      if (typeof fn === 'function' && fn.length === 4) throw runtimeError('ENC_ERR_PLUGIN_ERROR_MIDDLEWARE', { path: this.path, name: fn.name })
      return use.apply(this, args)
    }
    Object.defineProperty(guarded, 'name', { value: use.name })
    guardedUses.set(use, guarded)
  }
  return guarded
}

/** Whether decorate('use', value) is @fastify/middie's `use` (given by its plugin, or handed down by its onRegister hook). */
export function isMiddieUse(value: Function, pluginName: string | null): boolean {
  return pluginName === '@fastify/middie' || guardedUses.has(value)
}
