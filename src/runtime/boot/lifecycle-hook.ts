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
 * `boundPromise` false (onClose, preClose: avvio sets no limit on close handlers) leaves a
 * promise unbounded: close() has its own closeTimeout, and a disposer hook bounds each dispose().
 */
export function callLifecycleHook(fn: Function, thisArg: unknown, args: unknown[], callback: boolean, timeout: number, what: string, boundPromise = true): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let finished = false
    let timer: NodeJS.Timeout | undefined
    const finish = (error?: unknown): void => {
      if (finished) return
      finished = true
      // Cleared as soon as the work ends, so no boot timer keeps the process alive afterwards.
      if (timer !== undefined) clearTimeout(timer)
      if (error) reject(error)
      else resolve()
    }
    const startTimer = (waitingFor: 'done' | 'promise' | 'either'): void => {
      if (timeout > 0 && !finished) timer = setTimeout(() => finish(runtimeError('ENC_ERR_PLUGIN_TIMEOUT', { what, timeout, waitingFor })), timeout)
    }
    try {
      const result = fn.call(thisArg, ...args, ...(callback ? [(error?: Error | null) => finish(error ?? undefined)] : []))
      if (isThenable(result)) {
        result.then(() => finish(), (error: unknown) => finish(error ?? new Error(`${what} rejected`)))
        if (callback) startTimer('either')
        else if (boundPromise) startTimer('promise')
      } else if (callback) {
        startTimer('done')
      } else {
        finish()
      }
    } catch (error) {
      finish(error)
    }
  })
}
