import type { Logger } from '../runtime'
import { settleWithin } from './settle-within'
import type { RequestEnd } from '../decorators/internal'

/** What close() calls on an instance Enclave created: either method, or both (onClose first). */
interface Closable {
  onClose?: () => unknown
  dispose?: () => unknown
}

/** One created value and how close() releases it: its own methods, or the factory entry's `dispose`. */
interface Created {
  readonly value: unknown
  readonly release: ((value: any, end: RequestEnd) => unknown) | undefined
}

/**
 * An end that did not fail: what a singleton factory's `dispose(value, end)` is told at close()
 * (the type is shared with request-scoped factories), and what a request that succeeded releases with.
 */
export const succeeded: RequestEnd = Object.freeze({ failed: false, error: undefined })

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
  readonly #created: Created[] = []
  readonly #seen = new WeakSet<object>()

  /**
   * Records `value` when it is an object seen for the first time (a singleton resolves many
   * times). With `release` (a factory provider's `dispose`), close() calls that instead of the
   * value's own methods, and any value is recorded: a client without onClose()/dispose() (ioredis)
   * or a plain handle is released the way its factory says.
   */
  track(value: unknown, release?: (value: any, end: RequestEnd) => unknown): void {
    const isObject = (typeof value === 'object' || typeof value === 'function') && value !== null
    if (!isObject && release === undefined) return
    if (isObject) {
      if (this.#seen.has(value)) return
      this.#seen.add(value)
    }
    this.#created.push({ value, release })
  }

  /** Every tracked object, oldest first. */
  get instances(): readonly object[] {
    return this.#created.flatMap(({ value }) => (typeof value === 'object' || typeof value === 'function') && value !== null ? [value] : [])
  }

  /**
   * Releases every tracked value, newest first, one at a time: the factory's `dispose(value)`
   * when it has one, else onClose() then dispose() on the value. A failure or a call that
   * outlives `timeoutMs` is logged and the next one still runs: one broken pool must not keep
   * the others open, nor hang close().
   */
  async disposeAll(log: Logger, timeoutMs: number): Promise<void> {
    const created = this.#created.splice(0).reverse()
    for (const { value, release } of created) {
      if (release !== undefined) {
        await this.#call(() => release(value, succeeded), `${describe(value)} (factory provider dispose)`, log, timeoutMs)
        continue
      }
      const target = value as Closable
      for (const method of ['onClose', 'dispose'] as const) {
        if (typeof target[method] !== 'function') continue
        await this.#call(() => target[method]!(), `${describe(value)}.${method}()`, log, timeoutMs)
      }
    }
  }

  async #call(call: () => unknown, name: string, log: Logger, timeoutMs: number): Promise<void> {
    await settleWithin(Promise.resolve().then(call), timeoutMs, () => new Error(`${name} did not finish within ${timeoutMs} ms (pluginTimeout); moving on`), { unref: true })
      .catch((error: unknown) => log.error({ err: error }, `${name} failed while the app was closing`))
  }
}

function describe(value: unknown): string {
  const name = (value as { constructor?: { name?: unknown } } | null | undefined)?.constructor?.name
  return typeof name === 'string' && name !== '' ? name : 'provider'
}
