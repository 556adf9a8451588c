/**
 * Every error Enclave raises carries a stable `code` (`ENC_ERR_<AREA>_<WHAT>`), listed in
 * the error table in docs/errors.md. Boot errors say what happened, where (route, scope path) and how to fix it.
 */
export class FrameworkError extends Error {
  readonly code: string
  /** Set for errors that answer a request; boot errors have none. */
  readonly statusCode: number | undefined

  constructor(code: string, message: string, options: { statusCode?: number; cause?: unknown } = {}) {
    // A 4xx is the client's mistake (bad JSON, a too-large body ...): its stack would only point
    // into the pipeline, and capturing it is the largest cost of a path any client can trigger
    // at will. Boot errors and 5xx keep theirs.
    const clientError = options.statusCode !== undefined && options.statusCode >= 400 && options.statusCode < 500
    const limit = Error.stackTraceLimit
    if (clientError) Error.stackTraceLimit = 0
    // The message is assigned after name and code, not passed to super(): Fastify 3's errors
    // (fastify-error) carry it as an own enumerable field in this order, so Object.keys(error) and
    // JSON.stringify(error) give name, code, message, statusCode on both (the stack reads it lazily).
    super(undefined, options.cause === undefined ? undefined : { cause: options.cause })
    if (clientError) Error.stackTraceLimit = limit
    this.name = 'FrameworkError'
    this.code = code
    this.message = message
    this.statusCode = options.statusCode
  }
}

export function isFrameworkError(error: unknown): error is FrameworkError {
  return error instanceof FrameworkError
}
