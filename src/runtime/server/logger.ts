import type { Logger } from '../types'

const noop = (): void => {}

export const silentLogger: Logger = { info: noop, warn: noop, error: noop, debug: noop }

/** One JSON line per entry on stdout/stderr: enough for the sample and for debugging tests. */
function lineLogger(): Logger {
  const write = (level: string, stream: NodeJS.WriteStream) => (obj: unknown, msg?: string): void => {
    const fields = obj instanceof Error ? { err: { message: obj.message, stack: obj.stack } }
      : typeof obj === 'object' && obj !== null ? serializeFields(obj as Record<string, unknown>) : { msg: String(obj) }
    stream.write(JSON.stringify({ level, time: Date.now(), ...fields, ...(msg === undefined ? {} : { msg }) }) + '\n')
  }
  return { info: write('info', process.stdout), warn: write('warn', process.stderr), error: write('error', process.stderr), debug: noop }
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
  return option
}
