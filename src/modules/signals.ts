import { constants } from 'node:os'
import type { Scope } from '../runtime'
import type { SignalOptions } from './app-options'

/** Exit codes of an app started with closeOnSignals (README "Shutdown"). */
export const exitCodes = {
  /** close() finished: every in-flight request answered, every provider disposed. */
  closed: 0,
  /** close() rejected (an error was logged). */
  closeFailed: 1,
} as const

/**
 * Wires SIGINT/SIGTERM to one graceful close(), then exit. A second signal while closing exits at
 * once with 128 + the signal number (130 for SIGINT, 143 for SIGTERM, what a shell reports),
 * for the operator who pressed Ctrl-C twice. The listeners are removed when the app has closed,
 * whoever closed it. `onReceived` learns the signal before close() starts (the lifecycle methods are given it).
 */
export function closeOnSignals(app: Scope, options: SignalOptions, onReceived: (signal: NodeJS.Signals) => void = () => undefined): void {
  const signals = options.signals ?? ['SIGINT', 'SIGTERM']
  const exit = options.exit ?? ((code: number) => process.exit(code))
  let received: NodeJS.Signals | null = null
  const onSignal = (signal: NodeJS.Signals): void => {
    if (received !== null) {
      app.log.warn({ signal }, `${signal} received while closing after ${received}: exiting now`)
      exit(128 + constants.signals[signal])
      return
    }
    received = signal
    onReceived(signal)
    app.log.info({ signal }, `${signal} received, closing`)
    app.close().then(() => exit(exitCodes.closed), (error: unknown) => {
      app.log.error({ err: error }, 'close() failed')
      exit(exitCodes.closeFailed)
    })
  }
  for (const signal of signals) process.on(signal, onSignal)
  app.addHook('onClose', async () => {
    // Kept until close() is done: a second signal during close must still force the exit.
    for (const signal of signals) process.removeListener(signal, onSignal)
  })
}
