import { runtimeError } from '../errors/runtime-codes'
import { isThenable } from '../shared/thenable'

/**
 * An after() callback: `()`, `(error)`, `(error, done)` or `(error, scope, done)` (avvio's forms),
 * run in the registering scope with the error of a plugin that failed before it, if any.
 */
export type AfterCallback = (...args: any[]) => unknown

/** One registration waiting to run: avvio's model, a tree in registration order. */
export interface PluginNode {
  /** Replaced by boot with the resolved default export of an `imported` registration (printPlugins names it). */
  plugin: Function | null
  /** Set instead of a plugin for an after() step: it runs even after a plugin failed, and gets the error. */
  readonly after: AfterCallback | null
  readonly options: Record<string, unknown>
  /**
   * The scope `register` was called on: the new scope's parent, or the scope a lifted plugin
   * runs in. Typed loosely so this file needs no scope import (boot/ reads it as a ScopeImpl).
   */
  readonly owner: { readonly path: string } | null
  readonly children: PluginNode[]
  /** The module this registration declares, set by `scope.annotate({ module })`: the origin of what it declares. */
  label: string | null
  /**
   * Which register() call of the plugin body (or root) it was made in: 1 for the first. Tells two
   * registrations of the same plugin apart in errors (ENC_ERR_DEC_ALREADY_PRESENT).
   */
  readonly ordinal?: number
  /** Set when the plugin starts loading: loaded once, whether by ready() or an awaited register(). */
  loading?: Promise<void>
  /** Set by boot once loaded: milliseconds the plugin and its own registrations took (printPlugins). */
  loadMs?: number
  /** Enclave's own bookkeeping step (a deferred addHook), left out of printPlugins. */
  readonly internal?: boolean
  /**
   * `register(import('x'))`: the module's default export, awaited when the node loads. Boot reads
   * the plugin's lift()/fastify-plugin marks on what it resolves to, as avvio does, so a lifted
   * default export still runs in the registering scope.
   */
  readonly imported?: () => Promise<Function>
}

/**
 * The registrations of one server. Boot walks it (boot/boot.ts) and sets `current` to the node
 * whose plugin body is running, so that registrations made inside a plugin become its children.
 */
export class PluginTree {
  readonly root: PluginNode = { plugin: null, after: null, options: {}, owner: null, children: [], label: null }
  current: PluginNode = this.root

  /**
   * Records a registration under the plugin whose body is running now (or the root), so that a
   * plugin's own registrations run right after its body and before its next sibling: the order
   * users read in their code.
   */
  enqueue(owner: { readonly path: string }, plugin: unknown, options: Record<string, unknown>): void {
    // `register(import('x'))` and an ES module namespace: Fastify takes the default export.
    if (isThenable(plugin)) {
      const pending = plugin
      // Boot awaits it only when its turn comes, after the plugins before it: an import that fails
      // sooner (a missing file) would be an unhandled rejection by then, which ends the process
      // before ready() can reject with it. Marked handled here; imported() still rejects with it.
      Promise.resolve(pending).catch(() => undefined)
      const imported = async (): Promise<Function> => {
        const loaded = moduleDefault(await pending)
        if (!isPlugin(loaded)) throw invalidPlugin(owner, loaded)
        return loaded
      }
      // printPlugins() names the registration before it resolves: a named placeholder stands in.
      const deferred = async function deferredImport(): Promise<void> {}
      this.current.children.push({ plugin: deferred, after: null, options, owner, children: [], label: null, imported, ordinal: this.#nextOrdinal() })
      return
    }
    plugin = moduleDefault(plugin)
    if (!isPlugin(plugin)) throw invalidPlugin(owner, plugin)
    this.current.children.push({ plugin, after: null, options, owner, children: [], label: null, ordinal: this.#nextOrdinal() })
  }

  #nextOrdinal(): number {
    return this.current.children.filter((node) => node.after === null).length + 1
  }

  /** Queues an after() step behind the registrations already queued in the plugin body running now. */
  enqueueAfter(owner: { readonly path: string }, callback: AfterCallback, label: string | null, internal = false): void {
    this.current.children.push({ plugin: null, after: callback, options: {}, owner, children: [], label, internal })
  }

  /** True when the plugin body running now (or the root) has registrations not loaded yet. */
  hasPending(): boolean {
    return this.current.children.length > 0
  }

  /**
   * Queues `run` behind the registrations already queued in the plugin body running now, as
   * avvio's after() does: `register(lift(auth)); addHook('preHandler', guard)` then adds auth's
   * hooks before guard, the order the user wrote. Runs in `owner`, as a lifted step.
   */
  enqueueDeferred(owner: { readonly path: string }, run: () => void): void {
    // An after() step without an error parameter: it runs even when a plugin before it failed
    // (as Fastify's addHook, an after() callback, does) and leaves the error to the next one.
    this.enqueueAfter(owner, function deferredDeclaration(): void { run() }, null, true)
  }
}

function moduleDefault(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { default?: unknown }).default === 'function') return (value as { default: unknown }).default
  return value
}

// A class cannot be called without `new`: an Enclave module class given to register() would fail
// inside the loader with V8's TypeError and no code. Told apart by its source text, as V8 has no API.
function isClass(value: Function): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(value))
}

function isPlugin(value: unknown): value is Function {
  return typeof value === 'function' && !isClass(value)
}

function invalidPlugin(owner: { readonly path: string }, plugin: unknown): Error {
  const got = typeof plugin === 'function'
    ? `the class ${plugin.name || '(anonymous)'} (a module class goes in createApp() or in a module's plugins, not in register())`
    : plugin === null ? 'null' : typeof plugin
  return runtimeError('ENC_ERR_PLUGIN_INVALID', { path: owner.path, got })
}
