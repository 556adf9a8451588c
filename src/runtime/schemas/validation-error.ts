import { schemaError } from './schema-codes'
import { CLIENT_TEXT_LIMIT, VALIDATION_ERRORS_LISTED, clipClientText } from '../errors/client-text'
import type { HttpPart, PartFailure, SchemaErrorFormatter, SchemaValidationError, ValidationContext } from './types'

const CONTEXT: Readonly<Record<HttpPart, ValidationContext>> = {
  body: 'body',
  params: 'params',
  headers: 'headers',
  querystring: 'query',   // spec §2.5 names the query string part `query`
}

/**
 * The default schema error formatter (spec §2.4): for each error `<dataVar><path> <message>`, joined
 * by `, `. Reads ajv 6's `dataPath` and ajv 8's `instancePath`, so with the ajv 8 factory messages keep
 * the same shape but say "must" where ajv 6 says "should". The Error has no `code`: the 400 payload is
 * exactly `{ statusCode, error, message }`. Past VALIDATION_ERRORS_LISTED errors (only `allErrors: true`
 * makes more than one) the rest are counted: `..., and 199900 more errors`.
 *
 * @example
 * defaultSchemaErrorFormatter(validate.errors, 'body').message   // "body should have required property 'name'"
 */
export function defaultSchemaErrorFormatter(errors: unknown[], dataVar: string): Error {
  return clientError(defaultValidationMessage(errors, dataVar))
}

/** The default formatter's message, without its Error: the pipeline's 400 that nobody observes needs only this. */
export function defaultValidationMessage(errors: unknown[], dataVar: string): string {
  if (!Array.isArray(errors) || errors.length === 0) return `${dataVar} failed validation`
  let text = ''
  const listed = Math.min(errors.length, VALIDATION_ERRORS_LISTED)
  for (let i = 0; i < listed; i++) {
    const error = errors[i] as { dataPath?: unknown; instancePath?: unknown; message?: unknown; keyword?: unknown; params?: { propertyName?: unknown } } | string | null
    if (i > 0) text += ', '
    if (typeof error === 'string') {
      text += `${dataVar} ${error}`
      continue
    }
    const path = typeof error?.dataPath === 'string' ? error.dataPath : typeof error?.instancePath === 'string' ? error.instancePath : ''
    let message = typeof error?.message === 'string' ? error.message : 'is invalid'
    // ajv 6 quotes the offending property name whole in a propertyNames message (ajv 8 does not).
    const name = error?.keyword === 'propertyNames' ? error.params?.propertyName : undefined
    if (typeof name === 'string' && name.length > CLIENT_TEXT_LIMIT) {
      // A replacer function: a string replacement would expand `$&` / `$'` written in the client's
      // key (each `$&` repeats the whole key), turning a 100 KB key into a 400 of megabytes.
      const clipped = clipClientText(name)
      message = message.replace(name, () => clipped)
    }
    text += `${dataVar}${path.length > CLIENT_TEXT_LIMIT ? clipClientText(path) : path} ${message}`
  }
  if (errors.length > listed) text += `, and ${errors.length - listed} more error${errors.length - listed === 1 ? '' : 's'}`
  return text
}

// The default formatter as bound to each scope (scope-resolution.ts): a route whose formatter is
// one of these may skip building the Error when nothing would observe it (serve/validation-reply.ts).
const boundDefaults = new WeakSet<SchemaErrorFormatter>()

/** defaultSchemaErrorFormatter bound to `scope`, recognisable by isDefaultFormatter(). */
export function bindDefaultFormatter(scope: unknown): SchemaErrorFormatter {
  const bound = defaultSchemaErrorFormatter.bind(scope)
  boundDefaults.add(bound)
  return bound
}

export function isDefaultFormatter(formatter: SchemaErrorFormatter): boolean {
  return formatter === defaultSchemaErrorFormatter || boundDefaults.has(formatter)
}

/**
 * An Error without a captured stack. A validation failure is the client's mistake, its stack
 * would only point into the pipeline, and capturing it was the largest single cost of the 400
 * path (any client can make a server take that path as often as it likes).
 */
function clientError(message: string): Error {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  const error = new Error(message)
  Error.stackTraceLimit = limit
  return error
}

/**
 * Turns a failed part validation into the error the runtime raises (spec §2.5, §7): `validation`,
 * `validationContext` and `statusCode` (400, unless the formatter's Error already carries a numeric
 * status of 400 or more). `{ error }` failures from other libraries are used as they are, with
 * `validation` set to their own `validation`, else `details`, else their message. A formatter that
 * throws is left to propagate (the runtime answers 500).
 *
 * @example
 * const failure = route.body(request.body)
 * if (failure !== undefined && !('value' in failure)) {
 *   throw toValidationError(failure, 'body', scopeFormatter ?? defaultSchemaErrorFormatter, scope)
 * }
 */
export function toValidationError(failure: PartFailure, part: HttpPart, formatter: SchemaErrorFormatter, thisArg: unknown): SchemaValidationError {
  let error: Error & Partial<SchemaValidationError> & { details?: unknown }
  let validation: unknown
  if ('error' in failure) {
    error = failure.error
    validation = error.validation ?? error.details ?? error.message
  } else {
    const formatted: unknown = formatter.call(thisArg, failure.errors, part)
    if (!(formatted instanceof Error)) {
      throw schemaError('ENC_ERR_SCH_FORMATTER_RESULT', { got: formatted === null ? 'null' : typeof formatted, part })
    }
    error = formatted
    validation = failure.errors
  }
  const status = error.statusCode
  if (typeof status !== 'number' || status < 400) {
    // Fastify 3 sets no statusCode here, so its error's own enumerable keys (Object.keys, JSON.stringify,
    // a spread into a log line) are `validation` and `validationContext` only: ours is there to read, not to list.
    if (Object.hasOwn(error, 'statusCode')) error.statusCode = 400
    else Object.defineProperty(error, 'statusCode', { value: 400, writable: true, enumerable: false, configurable: true })
  }
  error.validation = validation
  // A custom validator's own Error may name its context already: it is kept, as Fastify does.
  if (!('error' in failure) || error.validationContext === undefined) error.validationContext = CONTEXT[part]
  return error as SchemaValidationError
}
