import type { Logger } from '../runtime'
import { moduleError } from './module-error'
import { walk, type ModuleNode } from './module-tree'
import { settleWithin } from './settle-within'

/** NestJS's lifecycle method names, in the order Enclave calls them (README "Coming from NestJS"). */
type BootHook = 'onModuleInit' | 'onApplicationBootstrap'
type ShutdownHook = 'onModuleDestroy' | 'beforeApplicationShutdown' | 'onApplicationShutdown'

/** One instance a module built or was given, and how messages name it (`provider 'config'`, `controller BooksController`). */
export interface BuiltInstance {
  readonly value: unknown
  readonly what: string
}

interface Owned {
  readonly node: ModuleNode
  readonly value: object
  readonly what: string
}

/**
 * Calls NestJS's lifecycle methods on what one app built (providers of every kind, useValue and
 * overrides included, controllers and module classes). Modules go deepest first, as NestJS orders
 * them by distance from the root, the same order for every hook; within a module, one instance at
 * a time (NestJS starts a module's calls together): providers, controllers, then the module class.
 * An instance reachable from several modules (lifted, or one useValue object listed twice) is
 * called once, for the first module that lists it in that order.
 */
export class LifecycleHooks {
  readonly #owned: readonly Owned[]
  #signal: string | undefined
  #beforeDone: Promise<void> | null = null

  constructor(root: ModuleNode, instancesOf: (node: ModuleNode) => readonly BuiltInstance[]) {
    const depth = (node: ModuleNode): number => node.parent === null ? 0 : depth(node.parent) + 1
    // Array.prototype.sort is stable: same-depth modules keep the tree's pre-order.
    const nodes = [...walk(root)].sort((a, b) => depth(b) - depth(a))
    const seen = new Set<object>()
    const owned: Owned[] = []
    for (const node of nodes) {
      for (const { value, what } of instancesOf(node)) {
        if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue
        seen.add(value)
        owned.push({ node, value, what })
      }
    }
    this.#owned = owned
  }

  /** The signal closeOnSignals received: what the shutdown hooks are given. */
  signalled(signal: string): void {
    this.#signal = signal
  }

  /** onModuleInit() of every instance; a throw (or a call outliving `timeoutMs`) fails boot with a coded error. */
  init(timeoutMs: number): Promise<void> {
    return this.#boot('onModuleInit', timeoutMs)
  }

  /** onApplicationBootstrap(), once every module is initialised and the server booted. */
  bootstrap(timeoutMs: number): Promise<void> {
    return this.#boot('onApplicationBootstrap', timeoutMs)
  }

  /**
   * onModuleDestroy() then beforeApplicationShutdown(signal): the first of close()'s work. Runs
   * once, whichever calls it first (the root's preClose hook, or the onClose release when a failed
   * boot runs no preClose hook).
   */
  beforeShutdown(log: Logger, timeoutMs: number): Promise<void> {
    this.#beforeDone ??= (async () => {
      await this.#shutdown('onModuleDestroy', log, timeoutMs)
      await this.#shutdown('beforeApplicationShutdown', log, timeoutMs)
    })()
    return this.#beforeDone
  }

  /** onApplicationShutdown(signal): after every provider was released. */
  afterShutdown(log: Logger, timeoutMs: number): Promise<void> {
    return this.#shutdown('onApplicationShutdown', log, timeoutMs)
  }

  async #boot(hook: BootHook, timeoutMs: number): Promise<void> {
    for (const { node, value, what: instance } of this.#owned) {
      const method = methodOf(value, hook)
      if (method === undefined) continue
      const what = `${hook}() of ${instance}`
      try {
        await settleWithin(Promise.resolve().then(() => method.call(value)), timeoutMs,
          () => new Error(`it did not finish within ${timeoutMs} ms (pluginTimeout)`))
      } catch (error) {
        throw moduleError('ENC_ERR_MODULE_LIFECYCLE_HOOK', { what, path: node.path, reason: error instanceof Error ? error.message : String(error) }, { cause: error })
      }
    }
  }

  // A failing or hanging shutdown hook is logged and the next one still runs, as a failing dispose() is.
  async #shutdown(hook: ShutdownHook, log: Logger, timeoutMs: number): Promise<void> {
    const args = hook === 'onModuleDestroy' ? [] : [this.#signal]
    for (const { node, value, what: instance } of this.#owned) {
      const method = methodOf(value, hook)
      if (method === undefined) continue
      const what = `${hook}() of ${instance} (${node.path})`
      await settleWithin(Promise.resolve().then(() => method.apply(value, args)), timeoutMs,
        () => new Error(`${what} did not finish within ${timeoutMs} ms (pluginTimeout); moving on`), { unref: true })
        .catch((error: unknown) => log.error({ err: error }, `${what} failed while the app was closing`))
    }
  }
}


/**
 * The instance's lifecycle method, if it has one. Reading it may throw (a strict mock given as
 * useValue, a Proxy refusing unknown keys): that counts as the method failing, so boot fails with
 * the coded error and close() logs it and goes on, instead of a bare error or a skipped release.
 */
function methodOf(value: object, hook: BootHook | ShutdownHook): ((...args: unknown[]) => unknown) | undefined {
  try {
    const method = (value as Record<string, unknown>)[hook]
    return typeof method === 'function' ? method as (...args: unknown[]) => unknown : undefined
  } catch (error) {
    return () => { throw error }
  }
}
