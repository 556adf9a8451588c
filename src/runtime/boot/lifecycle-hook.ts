import { runtimeError } from '../errors/runtime-codes'
import { isThenable } from '../shared/thenable'

/**
 * Calls an async or callback-style function (a plugin, an onReady or onClose hook); a callback
 * that never comes fails after `timeout` ms. A function that declares `done` and also returns a
 * promise (an async plugin with three parameters) is finished by whichever comes first, as in
 * avvio: its rejection must not be lost.
 */
export function callLifecycleHook(fn: Function, thisArg: unknown, args: unknown[], callback: boolean, timeout: number, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (callback) {
      const timer = setTimeout(() => reject(runtimeError('ENC_ERR_PLUGIN_TIMEOUT', { what, timeout })), timeout)
      const done = (error?: Error | null): void => { clearTimeout(timer); if (error) reject(error); else resolve() }
      try {
        const result = fn.call(thisArg, ...args, done)
        if (isThenable(result)) result.then(() => done(), (error: unknown) => done(error as Error ?? new Error(`${what} rejected`)))
      } catch (error) {
        clearTimeout(timer)
        reject(error)
      }
      return
    }
    try {
      const result = fn.call(thisArg, ...args)
      if (isThenable(result)) result.then(() => resolve(), reject)
      else resolve()
    } catch (error) {
      reject(error)
    }
  })
}
