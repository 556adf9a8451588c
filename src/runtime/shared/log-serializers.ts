import pino from 'pino'
import { CLIENT_TEXT_LIMIT, VALIDATION_ERRORS_LISTED, clipClientText } from '../errors/client-text'
import { clipLogStack, clipLogText } from '../errors/log-text'

/**
 * Fastify 3's log serializers (lib/logger.js): the access log passes the request and the reply
 * themselves under `req` and `res`, so that a user's own `serializers.req` reads what it reads
 * in Fastify (`req.headers`, `req.ip`, `req.id` ...); these turn them into the default lines.
 */
interface LoggedRequest { method: string; url: string; headers?: Record<string, unknown>; hostname?: string; ip?: string; socket?: { remotePort?: number } | null }
interface LoggedReply { statusCode: number; raw?: { statusCode: number } }

export const fastifyLogSerializers: Readonly<{
  req(req: LoggedRequest): Record<string, unknown>
  res(reply: LoggedReply): { statusCode: number }
  err(error: Error): Record<string, unknown>
}> = Object.freeze({
  req(req: LoggedRequest) {
    return {
      method: req.method,
      url: req.url,
      version: req.headers?.['accept-version'],
      hostname: req.hostname,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }
  },
  res(reply: LoggedReply) {
    return { statusCode: reply.raw?.statusCode ?? reply.statusCode }
  },
  err(error: Error) {
    const logged = (pino.stdSerializers.err as unknown as (error: Error) => Record<string, unknown> | null)(error)
    // pino gives back what is not error-like as it came (null, a number, the caller's own object,
    // maybe frozen): only its own copy of an error is clipped.
    if (logged === null || typeof logged !== 'object' || (logged as unknown) === error) return logged as Record<string, unknown>
    if (Array.isArray(logged.validation)) clipValidation(logged)
    // A message past LOG_TEXT_LIMIT (log-text.ts) is clipped in `message` and inside `stack`.
    if (typeof logged.stack === 'string') logged.stack = clipLogStack(logged.stack, error.message)
    if (typeof logged.message === 'string') logged.message = clipLogText(logged.message)
    return logged
  },
})

// A validation error's `validation` (ajv's errors) names the client's keys in `dataPath`,
// `propertyName`, `params.propertyName` and ajv 6's propertyNames `message`: the log line gets them
// clipped (error.validation itself is left as ajv made it).
type Entry = Record<string, unknown>
const isEntry = (value: unknown): value is Entry => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The logged entries: the first VALIDATION_ERRORS_LISTED, the rest counted in `validationOmitted`
 * (a number beside the array, not a string inside it: log indexers type an array by its entries).
 */
function clipValidation(logged: Record<string, unknown>): void {
  let entries = logged.validation as unknown[]
  if (entries.length > VALIDATION_ERRORS_LISTED) {
    logged.validationOmitted = entries.length - VALIDATION_ERRORS_LISTED
    entries = entries.slice(0, VALIDATION_ERRORS_LISTED)
  }
  logged.validation = entries.some(holdsLongText) ? entries.map(clipEntry) : entries
}

function holdsLongText(entry: unknown): boolean {
  if (!isEntry(entry)) return false
  for (const key in entry) {
    const value = entry[key]
    if (typeof value === 'string' ? value.length > CLIENT_TEXT_LIMIT : isEntry(value) && key === 'params' && holdsLongText(value)) return true
  }
  return false
}

function clipEntry(entry: unknown): unknown {
  if (!isEntry(entry) || !holdsLongText(entry)) return entry
  const copy: Entry = {}
  for (const key in entry) {
    const value = entry[key]
    copy[key] = typeof value === 'string' ? clipClientText(value) : key === 'params' ? clipEntry(value) : value
  }
  return copy
}
