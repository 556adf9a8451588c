import { runtimeError } from '../errors/runtime-codes'
import { isThenable } from '../shared/thenable'

/**
 * Calls an async or callback-style function (a plugin, an after() callback, an onReady or onClose
 * hook). As avvio does in Fastify 3, whichever way it finishes is bounded by `timeout` ms (0: no
 * limit): a `done` that never comes or a promise that never settles fails with
 * ENC_ERR_PLUGIN_TIMEOUT instead of hanging boot. A function that declares `done` and also
 * returns a promise is finished by whichever comes first: its rejection must not be lost.
 * What comes after the end (a late done(), a late settle) is ignored, and a late rejection is
 * handled here, so it is never an unhandled rejection.
 * `boundPromise` false leaves a promise unbounded: the module layer's own close hooks, which bound
 * each of their steps (shared/self-bounded-hook.ts).
 */
export function callLifecycleHook(fn: Function, thisArg: unknown, args: unknown[], callback: boolean, timeout: number, what: string, boundPromise = true): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let finished = false
    let timer: NodeJS.Timeout | undefined
    // The clearTimeout of the moment the timer was set: a test that installs fake timers while a
    // plugin loads (Fastify's own suite does) must not get a native timer to clear.
    const clear: typeof clearTimeout = clearTimeout
    const finish = (error?: unknown): void => {
      if (finished) return
      finished = true
      // Cleared as soon as the work ends, so no boot timer keeps the process alive afterwards.
      if (timer !== undefined) clear(timer)
      if (error) reject(error)
      else resolve()
    }
    // Armed before the call, as avvio does: a plugin that advances (fake) time while it runs
    // still sees its limit. What it waits for is known once it returns.
    let waitingFor: 'done' | 'promise' | 'either' = callback ? 'done' : 'promise'
    if (timeout > 0) timer = setTimeout(() => finish(runtimeError('ENC_ERR_PLUGIN_TIMEOUT', { what, timeout, waitingFor })), timeout)
    try {
      const result = fn.call(thisArg, ...args, ...(callback ? [(error?: Error | null) => finish(error ?? undefined)] : []))
      if (isThenable(result)) {
        if (callback) waitingFor = 'either'
        else if (!boundPromise && timer !== undefined) { clear(timer); timer = undefined }
        result.then(() => finish(), (error: unknown) => finish(error ?? new Error(`${what} rejected`)))
      } else if (!callback) {
        finish()
      }
    } catch (error) {
      finish(error)
    }
  })
}
