/**
 * The schemas of the framework's own error bodies (error-payload.ts). Their fast-json-stringify
 * code is generated from these by scripts/error-payload-code.js into error-payload-code.ts.
 * Key order is part of the contract: statusCode, code (when present), error, message, details (an HttpError's, when present).
 */
export const errorPayloadSchema = {
  type: 'object',
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    error: { type: 'string' },
    message: { type: 'string' },
    // An HttpError's `details` (checked JSON-serializable when it was built), written as JSON.stringify does.
    details: { type: 'object', additionalProperties: true },
  },
} as const

/**
 * The built-in 404's payload in Fastify 3's key order (`message`, `error`, `statusCode`): Fastify
 * sends it as an object literal through JSON.stringify, so a client comparing body text sees that
 * order. Every other error payload keeps the order above.
 */
export const notFoundPayloadSchema = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    error: { type: 'string' },
    statusCode: { type: 'integer' },
  },
} as const
