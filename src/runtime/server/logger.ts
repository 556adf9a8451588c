import type { Logger } from '../types'

const noop = (): void => {}

export const silentLogger: Logger = { info: noop, warn: noop, error: noop, debug: noop, trace: noop, fatal: noop, child: () => silentLogger }

/** One JSON line per entry on stdout/stderr: enough for the sample and for debugging tests. */
function lineLogger(): Logger {
  const write = (level: string, stream: NodeJS.WriteStream) => (obj: unknown, msg?: string): void => {
    const fields = obj instanceof Error ? { err: { message: obj.message, stack: obj.stack } }
      : typeof obj === 'object' && obj !== null ? serializeFields(obj as Record<string, unknown>) : { msg: String(obj) }
    stream.write(JSON.stringify({ level, time: Date.now(), ...fields, ...(msg === undefined ? {} : { msg }) }) + '\n')
  }
  const logger: Logger = { info: write('info', process.stdout), warn: write('warn', process.stderr), error: write('error', process.stderr), debug: noop, trace: noop, fatal: write('fatal', process.stderr), child: () => logger }
  return logger
}

function serializeFields(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(obj)) {
    const value = obj[key]
    out[key] = value instanceof Error ? { message: value.message, code: (value as { code?: unknown }).code, stack: value.stack } : value
  }
  return out
}

export function resolveLogger(option: Logger | boolean | undefined): Logger {
  if (option === true) return lineLogger()
  if (option === false || option === undefined) return silentLogger
  return completeLogger(option)
}

/**
 * Plugins call pino's whole surface (@fastify/multipart logs with trace, others use fatal and
 * child): a logger with only info/warn/error/debug gets the rest, trace as debug and fatal as
 * error, on an object that inherits from it (so its own fields stay readable).
 */
function completeLogger(logger: Logger): Logger {
  if (typeof logger.trace === 'function' && typeof logger.fatal === 'function' && typeof logger.child === 'function') return logger
  const complete: Logger = Object.create(logger)
  if (typeof logger.trace !== 'function') complete.trace = (obj: unknown, msg?: string) => logger.debug(obj, msg)
  if (typeof logger.fatal !== 'function') complete.fatal = (obj: unknown, msg?: string) => logger.error(obj, msg)
  if (typeof logger.child !== 'function') complete.child = () => complete
  return complete
}
