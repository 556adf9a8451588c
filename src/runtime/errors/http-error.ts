import { STATUS_CODES } from 'node:http'
import { runtimeError } from './runtime-codes'

/**
 * An error meant for the client: its message is sent as is, whatever its status (a 5xx too: the
 * throw says the text is for the client, as NestJS's HttpException does). The status must be an
 * error status, an integer from 400 to 599: anything else would be answered as a 500 that is not
 * what the thrower meant, so the constructor refuses it (`ENC_ERR_REPLY_INVALID_HTTP_ERROR`, a
 * FrameworkError: thrown in a handler it answers the generic 500, its message only in the log).
 *
 * @example
 * throw new HttpError(404, 'No user with id 7')   // -> 404 { statusCode, error: 'Not Found', message }
 */
export class HttpError extends Error {
  readonly statusCode: number
  readonly expose = true
  readonly code: string | undefined

  constructor(statusCode: number, message?: string, options: { code?: string; cause?: unknown } = {}) {
    if (!Number.isInteger(statusCode) || statusCode < 400 || statusCode > 599) {
      throw runtimeError('ENC_ERR_REPLY_INVALID_HTTP_ERROR', { given: describe(statusCode) })
    }
    super(message ?? STATUS_CODES[statusCode] ?? 'Error', options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'HttpError'
    this.statusCode = statusCode
    this.code = options.code
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value)
}
