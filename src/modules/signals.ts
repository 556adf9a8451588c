import { constants } from 'node:os'
import type { Scope } from '../runtime'
import type { SignalOptions } from './app-options'
import { moduleError } from './module-codes'
import { unknownOptions } from '../runtime/internal'

/** Exit codes of an app started with closeOnSignals (docs/operations.md, "Shutdown"). */
export const exitCodes = {
  /** close() finished: every in-flight request answered, every provider disposed. */
  closed: 0,
  /** close() rejected (an error was logged). */
  closeFailed: 1,
} as const

const signalOptionKeys: ReadonlySet<string> = new Set(['signals', 'exit', 'shutdownDelay'])
/** setTimeout's ceiling: a longer delay would fire at once (Node warns and uses 1 ms). */
const maxDelay = 2_147_483_647

/**
 * Wires SIGINT/SIGTERM to one graceful close(), then exit. A second signal while closing exits at
 * once with 128 + the signal number (130 for SIGINT, 143 for SIGTERM, what a shell reports),
 * for the operator who pressed Ctrl-C twice. The listeners are removed when the app has closed,
 * whoever closed it. `onReceived` learns the signal before close() starts (the lifecycle methods are given it).
 * With `shutdownDelay`, close() starts that long after the signal; meanwhile the app drains
 * (startDraining(): readiness fails, responses close their connections, new ones are still served).
 */
export function closeOnSignals(app: Scope, options: SignalOptions, onReceived: (signal: NodeJS.Signals) => void = () => undefined, root = 'Root'): void {
  checkSignalOptions(options, root)
  const signals = options.signals ?? ['SIGINT', 'SIGTERM']
  const exit = options.exit ?? ((code: number) => process.exit(code))
  const delay = options.shutdownDelay ?? 0
  let received: NodeJS.Signals | null = null
  const close = (): void => {
    app.close().then(() => exit(exitCodes.closed), (error: unknown) => {
      app.log.error({ err: error }, 'close() failed')
      exit(exitCodes.closeFailed)
    })
  }
  const onSignal = (signal: NodeJS.Signals): void => {
    if (received !== null) {
      app.log.warn({ signal }, `${signal} received while closing after ${received}: exiting now`)
      exit(128 + constants.signals[signal])
      return
    }
    received = signal
    onReceived(signal)
    if (delay === 0) {
      app.log.info({ signal }, `${signal} received, closing`)
      close()
      return
    }
    app.startDraining()
    app.log.info({ signal, shutdownDelay: delay }, `${signal} received, readiness fails now, closing in ${delay} ms`)
    // Not unref'd: the delay is part of the shutdown, and a server that has stopped listening
    // for another reason must still be closed (its providers released) once it is over.
    setTimeout(close, delay)
  }
  for (const signal of signals) process.on(signal, onSignal)
  app.addHook('onClose', async () => {
    // Kept until close() is done: a second signal during close must still force the exit.
    for (const signal of signals) process.removeListener(signal, onSignal)
  })
}

/** A mistyped key (`shutdownDelai`) or a delay in seconds given as a string would silently close at once. */
function checkSignalOptions(options: SignalOptions, root: string): void {
  const refuse = (problem: string): never => { throw moduleError('ENC_ERR_MODULE_SIGNAL_OPTIONS', { root, problem }) }
  if (typeof options !== 'object' || options === null) refuse(`expected true, false or an options object, got ${typeof options}`)
  const unknown = unknownOptions(options, [...signalOptionKeys])
  if (unknown !== null) refuse(unknown)
  const { signals, shutdownDelay, exit } = options
  if (signals !== undefined && (!Array.isArray(signals) || signals.some((name) => typeof name !== 'string' || !(name in constants.signals)))) {
    refuse(`signals must be a list of signal names such as 'SIGTERM', got ${JSON.stringify(signals)}`)
  }
  if (shutdownDelay !== undefined && (typeof shutdownDelay !== 'number' || !Number.isInteger(shutdownDelay) || shutdownDelay < 0 || shutdownDelay > maxDelay)) {
    refuse(`shutdownDelay must be a whole number of milliseconds from 0 to ${maxDelay}, got ${JSON.stringify(shutdownDelay)}`)
  }
  if (exit !== undefined && typeof exit !== 'function') refuse(`exit must be a function, got ${typeof exit}`)
}
