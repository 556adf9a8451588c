import type { Plugin, PluginFunction, PluginOptions } from '../types'

const kLifted = Symbol('enclave.lifted')

type Lifted<P> = P & { readonly [kLifted]: P }

/**
 * Runs `plugin` in the registering scope instead of a child scope, so its request decorators,
 * hooks, schemas and parsers become visible to that scope and all its descendants (spec §3.3.5).
 * Also accepts anything a higher layer registers (a module class): the wrapper only records
 * the target, so `lift(X)` never changes X itself.
 *
 * @example
 * app.register(lift(authPlugin))   // `request.user` now exists on every route of `app`
 */
export function lift<O extends PluginOptions>(plugin: PluginFunction<O>): PluginFunction<O>
export function lift<P extends Function>(plugin: P): P
export function lift<P extends Function>(plugin: P): P {
  if (typeof plugin !== 'function') throw new TypeError('lift() takes a plugin function')
  if (isLifted(plugin)) return plugin
  const target = plugin as unknown as Plugin
  // Keep the arity: a callback plugin is recognised by its third parameter.
  const wrapper = target.length >= 3
    ? function (this: unknown, scope: never, options: never, done: never) { return (target as Function).call(this, scope, options, done) }
    : function (this: unknown, scope: never, options: never) { return (target as Function).call(this, scope, options) }
  Object.defineProperty(wrapper, 'name', { value: plugin.name })
  Object.defineProperty(wrapper, kLifted, { value: plugin })
  return wrapper as unknown as P
}

export function isLifted(value: unknown): boolean {
  return typeof value === 'function' && (value as Partial<Lifted<unknown>>)[kLifted] !== undefined
}

/** The function or class that `lift()` wrapped, or `value` itself when it is not lifted. */
export function liftedTarget<T>(value: T): T {
  return isLifted(value) ? (value as unknown as Lifted<T>)[kLifted] : value
}
