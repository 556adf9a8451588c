import type { Logger } from '../runtime'

/** What close() calls on an instance Enclave created: either method, or both (onClose first). */
interface Closable {
  onClose?: () => unknown
  dispose?: () => unknown
}

/**
 * The instances one app created (class and factory providers, module instances, controllers), in
 * creation order, so close() can release them in reverse: a provider is created after what it
 * depends on, so disposing newest first never closes a pool under a repository still using it.
 *
 * tsyringe's own container.dispose() is not used: it awaits every disposable at once, in no
 * order, and never sees factory-built values. `useValue` providers are not tracked: whoever
 * built the value owns it (a test may share one client between two apps).
 */
export class Disposer {
  readonly #created: object[] = []
  readonly #seen = new WeakSet<object>()

  /** Records `value` when it is an object seen for the first time (a singleton resolves many times). */
  track(value: unknown): void {
    if (typeof value !== 'object' && typeof value !== 'function') return
    if (value === null || this.#seen.has(value)) return
    this.#seen.add(value)
    this.#created.push(value)
  }

  /** Every tracked instance, oldest first. */
  get instances(): readonly object[] { return this.#created }

  /**
   * Calls onClose() then dispose() on every tracked instance, newest first, one at a time. A
   * failure or a call that outlives `timeoutMs` is logged and the next instance still runs:
   * one broken pool must not keep the others open, nor hang close().
   */
  async disposeAll(log: Logger, timeoutMs: number): Promise<void> {
    const instances = this.#created.splice(0).reverse()
    for (const instance of instances) {
      const target = instance as Closable
      for (const method of ['onClose', 'dispose'] as const) {
        if (typeof target[method] !== 'function') continue
        const name = `${instance.constructor?.name ?? 'provider'}.${method}()`
        await bounded(() => target[method]!(), timeoutMs, name)
          .catch((error: unknown) => log.error({ err: error }, `${name} failed while the app was closing`))
      }
    }
  }
}

async function bounded(call: () => unknown, timeoutMs: number, name: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not finish within ${timeoutMs} ms (pluginTimeout); moving on`)), timeoutMs)
    timer.unref()
  })
  try {
    await Promise.race([Promise.resolve().then(call), limit])
  } finally {
    clearTimeout(timer)
  }
}
