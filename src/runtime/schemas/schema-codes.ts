import { FrameworkError } from '../errors/framework-error'

/**
 * The schema subsystem's error codes, same shape as `runtimeErrorCodes`: `status` is the HTTP status
 * for errors raised while answering a request, `null` for boot errors. Validation failures themselves
 * carry no code: their 400 payload is exactly `{ statusCode, error, message }` (spec §2.4).
 */
export const schemaErrorCodes = {
  ENC_ERR_SCH_NOT_OBJECT: { status: null, summary: 'a shared schema or a route schema part is not a JSON Schema object' },
  ENC_ERR_SCH_MISSING_ID: { status: null, summary: 'addSchema() was given a schema without a string $id' },
  ENC_ERR_SCH_DUPLICATE_ID: { status: null, summary: 'a shared schema $id is already declared in the scope, an ancestor or a descendant' },
  ENC_ERR_SCH_ASYNC: { status: null, summary: 'a schema uses $async; asynchronous work belongs in a preHandler hook' },
  ENC_ERR_SCH_ASYNC_RESULT: { status: 500, summary: 'a custom validator returned a Promise; validation must be synchronous' },
  ENC_ERR_SCH_QUERY_ALIAS_CONFLICT: { status: null, summary: 'a route schema has both querystring and its alias query' },
  ENC_ERR_SCH_RESPONSE_KEY: { status: null, summary: 'a response schema key is not a status code, a range key (2xx) or default' },
  ENC_ERR_SCH_PLUGIN_INVALID: { status: null, summary: 'a validator.plugins entry is not a function or [function, options]' },
  ENC_ERR_SCH_VALIDATION_BUILD: { status: null, summary: 'a validator could not be compiled for a route schema part' },
  ENC_ERR_SCH_SERIALIZATION_BUILD: { status: null, summary: 'a response serializer could not be compiled for a route' },
  ENC_ERR_SCH_REF_NOT_VISIBLE: { status: null, summary: 'a $ref names a shared schema that is not visible from the route scope' },
  ENC_ERR_SCH_REF_INVALID: { status: null, summary: 'a $ref names a visible (or the local) schema, but the path or anchor inside it does not exist' },
  ENC_ERR_SCH_PART_VALIDATOR_MISSING: { status: null, summary: 'a per-part validator compiler has no validator for the httpPart' },
  ENC_ERR_SCH_FORMATTER_RESULT: { status: 500, summary: 'the schema error formatter did not return an Error' },
  ENC_ERR_SCH_UNKNOWN_PART: { status: null, summary: 'a route schema has a key that is not a part (body, querystring, query, params, headers, response) nor an OpenAPI annotation' },
  ENC_ERR_SCH_UNKNOWN_KEYWORD: { status: null, summary: 'a route or shared schema uses a JSON Schema keyword the validator does not know (validator.customKeywords lists custom ones)' },
} as const

export type SchemaErrorCode = keyof typeof schemaErrorCodes

/** Builds a coded error of this area; the code is checked against the table at compile time. */
export function schemaError(code: SchemaErrorCode, message: string, options: { cause?: unknown } = {}): FrameworkError {
  const status = schemaErrorCodes[code].status
  return new FrameworkError(code, message, {
    ...(status === null ? {} : { statusCode: status }),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  })
}

/** True for an error this area already coded (it names the route and the fix; do not wrap it again). */
export function isSchemaError(error: unknown): error is FrameworkError {
  return error instanceof FrameworkError && Object.prototype.hasOwnProperty.call(schemaErrorCodes, error.code)
}

/** How an unexpected value reads in an error message: `null`, `an array`, `a string` ... */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  const type = typeof value
  return type === 'undefined' ? 'undefined' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`
}
