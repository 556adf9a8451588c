import { runtimeError } from '../errors/runtime-codes'
import type { ScopeImpl } from './scope'
import { currentOrigin } from './scope-origin'
import type { PluginModule } from '../types'

/** What a scope's `then` is before boot: avvio's incremental loading. */
export type ScopeThen = (resolve: (value: unknown) => void, reject: (error: unknown) => void) => void

/** True when a plugin with this plugin-meta (or display) name was registered in `from` or an ancestor. */
export function hasPlugin(from: ScopeImpl, name: string): boolean {
  for (let scope: ScopeImpl | null = from; scope !== null; scope = scope.parent) if (scope.pluginNames.includes(name)) return true
  return false
}

/**
 * Awaiting a scope before boot loads everything registered so far (avvio's incremental
 * loading): `await scope.register(plugin)` returns once the plugin and its own registrations
 * ran, so the next line sees its decorators and its onRoute hooks. After boot a scope is not
 * thenable, so returning it from an async function is harmless.
 */
export function scopeThen(scope: ScopeImpl): ScopeThen | undefined {
  const context = scope.context
  if (context.booted || context.resolvingScope) return undefined
  const node = context.plugins.current
  return (resolve, reject) => {
    context.facade.loadPending(node).then(() => {
      // Resolving with the scope itself reads `then` again: answer undefined this once.
      context.resolvingScope = true
      try { resolve(scope) } finally { context.resolvingScope = false }
    }, reject)
  }
}

export function register(scope: ScopeImpl, plugin: Function | PluginModule<Function>, options: object | undefined): void {
  scope.assertDeclarable('register()')
  scope.context.plugins.enqueue(scope, plugin, (options ?? {}) as Record<string, unknown>)
}

/**
 * Runs `fn` once the plugins registered so far in this plugin have loaded (avvio's after()).
 * `fn` takes avvio's forms: `()`, `(error)`, `(error, done)` or `(error, scope, done)`. When a
 * plugin before it failed, the plugins in between are skipped and `fn` gets the error; a
 * callback that takes `error` handles it (boot goes on unless it throws, rejects or passes it
 * to `done`); `()` leaves it to the next after() or to ready().
 * Without `fn`, `await scope.after()` does the same as awaiting the scope.
 */
export function after(scope: ScopeImpl, fn: ((error: Error | null, ...rest: any[]) => unknown) | undefined): void {
  scope.assertDeclarable('after()')
  if (fn === undefined) return
  if (typeof fn !== 'function') throw runtimeError('ENC_ERR_PLUGIN_INVALID', { path: scope.path, got: typeof fn })
  // What an after() callback declares belongs to whoever called after() (a module's routes are
  // declared this way), not to a plugin named "after".
  scope.context.plugins.enqueueAfter(scope, fn, currentOrigin(scope))
}
