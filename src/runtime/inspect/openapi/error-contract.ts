import { STATUS_CODES } from 'node:http'
import type { JsonSchema } from '../../schemas/types'
import type { RouteInspection } from '../../shared/introspection'

/** The component every framework-made error body refers to (serve/error-payload.ts writes it). */
export const ERROR_COMPONENT = 'EnclaveError'

export const errorPayloadSchema: JsonSchema = {
  type: 'object',
  description: 'An error answered by the framework: { statusCode, code?, error, message, details? }.',
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string', description: 'A stable ENC_ERR_* code, when the framework has one.' },
    error: { type: 'string' },
    message: { type: 'string' },
    details: { type: 'object', additionalProperties: true, description: "An HttpError's extra fields for the client, when it has some." },
  },
}

export interface ErrorResponse {
  readonly description: string
  /** The schema as declared by an error handler, or null for the framework's own payload. */
  readonly schema: JsonSchema | null
  /** The media type it is answered in: the covering error handler's `contentType`, else JSON. */
  readonly contentType: string
  /** True for a status the error handler names itself: it replaces the route's own response for that status. */
  readonly declared: boolean
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])
const JSON_TYPE = 'application/json'

/**
 * Every status the framework itself may answer on this route, with why: 400 (validation, or a
 * body that does not parse), 401 where a guard hook runs, 403 where a guard class runs (its
 * handle() may return false), 404, 413 and 415 for methods with a
 * body, 500. The nearest error handler that declares its responses adds (or replaces) those:
 * a status key replaces that status, a range (`4xx`) or `default` documents the framework's
 * statuses it covers with its schema (they reach that handler too: a problem+json handler answers
 * the 415 as it answers its own 404), and its `contentType` is the media type of all of them.
 */
export function errorResponses(route: RouteInspection): Map<string, ErrorResponse> {
  const out = new Map<string, ErrorResponse>()
  const body = BODY_METHODS.has(route.method)
  if (Object.keys(route.validators).length > 0 || body) {
    out.set('400', { description: 'Bad Request: the request failed validation (message names the part and path) or its body could not be parsed.', schema: null, contentType: JSON_TYPE, declared: false })
  }
  for (const guard of route.security) {
    out.set(String(guard.status), { description: `${STATUS_CODES[guard.status] ?? 'Refused'}: ${guard.name} refused the credentials.`, schema: null, contentType: JSON_TYPE, declared: false })
  }
  const refusedBy = new Map<number, string[]>()
  for (const refusal of route.refusals) {
    if (!out.has(String(refusal.status))) refusedBy.set(refusal.status, [...refusedBy.get(refusal.status) ?? [], `${refusal.fn} (${refusal.code})`])
  }
  for (const [status, hooks] of refusedBy) {
    out.set(String(status), { description: `${STATUS_CODES[status] ?? 'Refused'}: refused by ${hooks.join(', ')}.`, schema: null, contentType: JSON_TYPE, declared: false })
  }
  out.set('404', { description: 'Not Found: no route matches the URL.', schema: null, contentType: JSON_TYPE, declared: false })
  if (body) {
    out.set('413', { description: 'Payload Too Large: the body is larger than the body limit.', schema: null, contentType: JSON_TYPE, declared: false })
    out.set('415', { description: 'Unsupported Media Type: no parser accepts the content type.', schema: null, contentType: JSON_TYPE, declared: false })
  }
  out.set('500', { description: 'Internal Server Error.', schema: null, contentType: JSON_TYPE, declared: false })
  const declared = route.errorHandlers.find((handler) => handler.responses !== null || handler.contentType !== null)
  if (declared === undefined) return out
  const contentType = declared.contentType ?? JSON_TYPE
  const responses = declared.responses ?? {}
  for (const [status, framework] of out) {
    const covering = responses[`${status[0]}xx`] ?? responses.default
    out.set(status, { description: framework.description, schema: covering ?? null, contentType, declared: false })
  }
  for (const [status, schema] of Object.entries(responses)) {
    const text = typeof schema.description === 'string' ? schema.description : `${STATUS_CODES[status] ?? 'Error'} (error handler ${declared.fn}).`
    out.set(status, { description: text, schema, contentType, declared: true })
  }
  return out
}
