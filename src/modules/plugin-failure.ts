import type { Scope } from '../runtime'
import { isMadeUpPluginName, readPluginMeta } from '../runtime/shared/plugin-meta'
import { moduleError } from './module-error'

/** What a failure report says about one `plugins` entry of a module. */
export interface PluginEntryLabel {
  /** The module path whose `plugins` list holds the entry. */
  readonly path: string
  readonly index: number
  readonly plugin: Function
  readonly usePlugin: boolean
  /** The usePlugin() inject tokens that createApp({ overrides }) replaced (described). */
  readonly overridden: readonly string[]
}

/**
 * Errors already reported: an after() step sees every failure still pending, also one from an
 * entry before its own (that entry was skipped), which it must pass on, not claim.
 */
const reported = new WeakSet<object>()

/**
 * An after() step for the entry just registered: a plugin that threw or rejected while loading
 * becomes ENC_ERR_MODULE_PLUGIN_FAILED naming the module and the plugin, its error as `cause`.
 * Enclave's own coded errors (a bad route inside the plugin, a callback plugin's timeout, a
 * version or dependency refusal) already name the scope path and say the fix: kept as they are.
 * Only the decorator layer does this; a runtime register() rejects with the plugin's own error,
 * as Fastify does.
 */
export function reportPluginFailure(scope: Scope, label: PluginEntryLabel | null): void {
  scope.after((error: unknown) => {
    if (error === null || error === undefined) return
    if (typeof error === 'object' && reported.has(error)) throw error
    // A child module (label null) reports its own entries; its other errors are its own too.
    const wrapped = label === null || isEnclaveError(error) ? error : pluginFailed(error, label)
    if (typeof wrapped === 'object' && wrapped !== null) reported.add(wrapped)
    throw wrapped
  })
}

function pluginFailed(error: unknown, label: PluginEntryLabel): Error {
  const name = pluginName(label.plugin)
  return moduleError('ENC_ERR_MODULE_PLUGIN_FAILED', {
    path: label.path,
    entry: `plugins[${label.index}]`,
    plugin: label.usePlugin ? `usePlugin(${name})` : name,
    reason: error instanceof Error ? error.message : String(error),
    overridden: label.overridden,
  }, { cause: error })
}

/** fastify-plugin's meta name or lift()'s name, else the function's name: what a user recognises in their list. */
export function pluginName(plugin: Function): string {
  const meta = readPluginMeta(plugin)
  // fastify-plugin names an unnamed plugin `fn-auto-3`: the function's own name says more.
  if (meta.registeredName !== null && !isMadeUpPluginName(meta.registeredName)) return `'${meta.registeredName}'`
  return meta.name === 'anonymous' || isMadeUpPluginName(meta.name) ? 'anonymous plugin' : meta.name
}

function isEnclaveError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('ENC_ERR_')
}
