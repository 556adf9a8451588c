import type { Logger } from '../types'

/**
 * Writes one line whose `req`, `res` or `err` go through the user's pino serializers. One that
 * throws would throw out of the request path (the request hangs, the process sees an uncaught
 * exception) or out of the response's 'finish' listener: the line is written without `req` and
 * `res` (then without `err` too, if that was it), with the failure's message, and the request goes on.
 */
export function guardedLogLine(log: Logger, level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, msg: string): void {
  try {
    log[level](fields, msg)
  } catch (error) {
    const logSerializerError = error instanceof Error ? error.message : String(error)
    const { req: _req, res: _res, ...rest } = fields
    try {
      log[level]({ ...rest, logSerializerError }, msg)
    } catch {
      const { err: _err, ...bare } = rest
      try {
        log[level]({ ...bare, logSerializerError }, msg)
      } catch {
        // The logger itself throws (a hand-made one): a log line is not worth a request.
      }
    }
  }
}
