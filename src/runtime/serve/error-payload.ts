import fastJson from 'fast-json-stringify'

/**
 * Every body the framework builds itself goes through this compiled serializer, so that text
 * taken from the request (a URL in a 404 message, say) is always escaped into valid JSON.
 * Key order is part of the contract: statusCode, code (when present), error, message, details (an HttpError's, when present).
 */
export const errorPayloadSerializer: (payload: unknown) => string = fastJson({
  type: 'object',
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    error: { type: 'string' },
    message: { type: 'string' },
    // An HttpError's `details` (checked JSON-serializable when it was built), written as JSON.stringify does.
    details: { type: 'object', additionalProperties: true },
  },
}) as (payload: unknown) => string

/**
 * The built-in 404's payload in Fastify 3's key order (`message`, `error`, `statusCode`): Fastify
 * sends it as an object literal through JSON.stringify, so a client comparing body text sees that
 * order. Every other error payload keeps the error serializer's order above.
 */
export const notFoundPayloadSerializer: (payload: unknown) => string = fastJson({
  type: 'object',
  properties: {
    message: { type: 'string' },
    error: { type: 'string' },
    statusCode: { type: 'integer' },
  },
}) as (payload: unknown) => string
