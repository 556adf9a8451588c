/**
 * A logger the user built (a pino instance, or any object with `info`), as opposed to pino options:
 * the one rule createServer()'s `logger` and Fastify 5's `loggerInstance` are both read by.
 */
export function isBuiltLogger(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { info?: unknown }).info === 'function'
}
