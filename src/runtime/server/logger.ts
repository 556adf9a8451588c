import pino, { type DestinationStream, type LoggerOptions } from 'pino'
import type { Logger } from '../types'

const noop = (): void => {}

export const silentLogger: Logger = { info: noop, warn: noop, error: noop, debug: noop, trace: noop, fatal: noop, child: () => silentLogger }

/** Redacted unless the user's own `redact` says otherwise: credentials never reach a log line. */
export const defaultRedactPaths: readonly string[] = [
  'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie',
]

/** What the serve path needs to know about the logger it was given. */
export interface ResolvedLogger {
  readonly log: Logger
  /** A pino logger: each request gets `log.child({ [idLabel]: id })`, and the access log is on by default. */
  readonly pino: boolean
}

/** pino's own shape: what `child()` is called on for each request. */
export interface ChildLogger extends Logger {
  child(bindings: Record<string, unknown>): Logger
}

/**
 * `logger` option: `true` for pino at info level on stdout, pino options, or a pino instance
 * (used as it is: its redaction is its creator's); any other object with info/warn/error/debug
 * is used as it is (no child loggers, no access log unless asked). Off when absent or false.
 */
export function resolveLogger(option: unknown): ResolvedLogger {
  if (option === undefined || option === false || option === null) return { log: silentLogger, pino: false }
  if (option === true) return { log: createPino({}), pino: true }
  const candidate = option as Partial<ChildLogger> & { levels?: unknown }
  if (typeof candidate.info === 'function') {
    const isPino = typeof candidate.child === 'function' && typeof candidate.levels === 'object'
    return { log: isPino ? option as Logger : completeLogger(option as Logger), pino: isPino }
  }
  return { log: createPino(option as EnclaveLoggerOptions), pino: true }
}

/** pino options, plus `stream`: where the lines go (default stdout), as Fastify's logger option has it. */
export type EnclaveLoggerOptions = LoggerOptions & { stream?: DestinationStream }

function createPino(input: EnclaveLoggerOptions): Logger {
  const { stream, ...options } = input
  const redact = options.redact
  const paths = Array.isArray(redact) ? redact : redact !== undefined ? redact.paths : []
  const merged = { ...(Array.isArray(redact) || redact === undefined ? {} : redact), paths: [...new Set([...defaultRedactPaths, ...paths])] }
  const settings = { level: 'info', ...options, redact: merged }
  return (stream === undefined ? pino(settings) : pino(settings, stream)) as unknown as Logger
}

/**
 * Plugins call pino's whole surface (@fastify/multipart logs with trace, others use fatal and
 * child): a hand-made logger with only info/warn/error/debug gets the rest, trace as debug and
 * fatal as error, on an object that inherits from it (so its own fields stay readable).
 */
function completeLogger(logger: Logger): Logger {
  if (typeof logger.trace === 'function' && typeof logger.fatal === 'function' && typeof logger.child === 'function') return logger
  const complete: Logger = Object.create(logger)
  if (typeof logger.trace !== 'function') complete.trace = (obj: unknown, msg?: string) => logger.debug(obj, msg)
  if (typeof logger.fatal !== 'function') complete.fatal = (obj: unknown, msg?: string) => logger.error(obj, msg)
  if (typeof logger.child !== 'function') complete.child = () => complete
  return complete
}
