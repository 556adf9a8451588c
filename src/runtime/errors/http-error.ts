import { STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http'
import { inspect } from 'node:util'
import { runtimeError } from './runtime-codes'
import { isPlainObject } from './plain-object'
import { unknownOptions } from '../schemas'

const optionKeys: ReadonlyArray<keyof HttpErrorOptions> = ['code', 'cause', 'details', 'headers']

/** What `new HttpError(status, message, options)` takes besides the status and message. */
export interface HttpErrorOptions {
  /** A machine-readable code for clients to match on: the body's `code`. */
  code?: string
  cause?: unknown
  /**
   * Extra fields for the client (NestJS's `new NotFoundException({ message, catId })`): the body's
   * `details`, after `message`. A plain object JSON.stringify() can write, checked here, so a reply
   * never fails on it; shown at a 5xx too, as the message is.
   */
  details?: Record<string, unknown>
  /**
   * Response headers that belong to this error: `WWW-Authenticate` on a 401 (RFC 9110 §11.6.1
   * requires it), `Retry-After` on a 429 or 503, `Allow` on a 405. Set on the reply before the
   * error handlers run, as Fastify 3 sets an error's `headers` (http-errors' field), so an
   * `@ErrorHandler()` that rethrows keeps them. Names and values are checked here, as details are.
   */
  headers?: Readonly<Record<string, string | number | readonly string[]>>
}

/**
 * An error meant for the client: its message is sent as is, whatever its status (a 5xx too: the
 * throw says the text is for the client, as NestJS's HttpException does). The status must be an
 * error status, an integer from 400 to 599: anything else would be answered as a 500 that is not
 * what the thrower meant, so the constructor refuses it (`ENC_ERR_REPLY_INVALID_HTTP_ERROR`, a
 * FrameworkError: thrown in a handler it answers the generic 500, its message only in the log).
 * Only an HttpError's `details` reach the built-in body: another error's own fields may hold internals.
 *
 * @example
 * throw new HttpError(404, 'No user with id 7')   // -> 404 { statusCode, error: 'Not Found', message }
 * throw new HttpError(404, 'No cat', { details: { catId: 7 } })   // -> 404 { statusCode, error, message, details: { catId: 7 } }
 */
export class HttpError extends Error {
  readonly statusCode: number
  readonly expose = true
  readonly code: string | undefined
  readonly details: Record<string, unknown> | undefined
  readonly headers: Readonly<Record<string, string | number | readonly string[]>> | undefined

  constructor(statusCode: number, message?: string, options: HttpErrorOptions = {}) {
    if (!Number.isInteger(statusCode) || statusCode < 400 || statusCode > 599) {
      // new HttpError('Not found', 404), the order of Error's and http-errors' createError(404, msg) mixed up.
      const swapped = typeof statusCode === 'string' && Number.isInteger(message) ? ` (the status comes first: new HttpError(${String(message)}, ${describe(statusCode)}))` : ''
      throw runtimeError('ENC_ERR_REPLY_INVALID_HTTP_ERROR', { given: `${describe(statusCode)}${swapped}` })
    }
    // NestJS's new NotFoundException({ message, code }) shape: its object would read "[object Object]".
    if (message !== undefined && typeof message !== 'string') throw runtimeError('ENC_ERR_REPLY_INVALID_HTTP_ERROR', { message: describe(message), status: statusCode })
    if (options === null || typeof options !== 'object' || Array.isArray(options)) throw runtimeError('ENC_ERR_REPLY_INVALID_HTTP_ERROR', { options: `the options must be an object, got ${describe(options)}` })
    const unknown = unknownOptions(options, optionKeys)
    if (unknown !== null) throw runtimeError('ENC_ERR_REPLY_INVALID_HTTP_ERROR', { options: unknown })
    if (options.details !== undefined) checkDetails(options.details)
    if (options.headers !== undefined) checkHeaders(options.headers)
    super(message ?? STATUS_CODES[statusCode] ?? 'Error', options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'HttpError'
    this.statusCode = statusCode
    this.code = options.code
    this.details = options.details
    this.headers = options.headers === undefined ? undefined : { ...options.headers }
  }
}

// A header Node would refuse (a CR/LF in a value, a space in a name) would otherwise fail the
// error reply itself, at answer time, as a 500 far from the throw.
function checkHeaders(headers: unknown): void {
  if (!isPlainObject(headers)) {
    throw runtimeError('ENC_ERR_REPLY_INVALID_HTTP_ERROR', { headers: `a plain object of header names to values, got ${Array.isArray(headers) ? 'an array' : describe(headers)}` })
  }
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    const values = Array.isArray(value) ? value : [value]
    const problem = values.some((v) => typeof v !== 'string' && typeof v !== 'number')
      ? `a value that is not a string, number or array of strings (${name}: ${describe(value)})`
      : refused(() => { validateHeaderName(name); for (const v of values) validateHeaderValue(name, String(v)) })
    if (problem !== null) throw runtimeError('ENC_ERR_REPLY_INVALID_HTTP_ERROR', { headers: problem })
  }
}

function refused(check: () => void): string | null {
  try { check(); return null } catch (error) { return (error as Error).message }
}

// Checked when thrown, not when answered: a detail JSON cannot write (a BigInt, a cycle) would
// otherwise fail the error reply itself, far from the line that built it.
function checkDetails(details: unknown): void {
  let problem: string | null = isPlainObject(details) ? null : Array.isArray(details) ? 'an array' : details !== null && typeof details === 'object' ? `an instance of ${(details as object).constructor?.name ?? 'a class'}` : describe(details)
  if (problem === null) {
    try { JSON.stringify(details) } catch (error) { problem = `an object JSON.stringify() refuses (${(error as Error).message})` }
  }
  if (problem !== null) throw runtimeError('ENC_ERR_REPLY_INVALID_HTTP_ERROR', { details: problem })
}

/** A value as code would write it (`{ message: 'x' }`, not `[object Object]`), on one line. */
function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : inspect(value, { depth: 2, breakLength: Infinity, maxArrayLength: 5, maxStringLength: 80 })
}
