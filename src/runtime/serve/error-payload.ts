import { evaluateStandaloneSerializer } from '../schemas/code-cache/fjs-pack'
import { ERROR_PAYLOAD_CODE, NOT_FOUND_PAYLOAD_CODE } from './error-payload-code'

/**
 * Every body the framework builds itself goes through this compiled serializer, so that text
 * taken from the request (a URL in a 404 message, say) is always escaped into valid JSON.
 * Key order is part of the contract: statusCode, code (when present), error, message, details (an HttpError's, when present).
 * It is fast-json-stringify's own code for errorPayloadSchema, generated ahead (error-payload-code.ts):
 * compiling it here would load fast-json-stringify and ajv 8 in every process, schemas or not.
 */
export const errorPayloadSerializer: (payload: unknown) => string = evaluateStandaloneSerializer(ERROR_PAYLOAD_CODE) as (payload: unknown) => string

/** The built-in 404's payload in Fastify 3's key order (notFoundPayloadSchema), generated the same way. */
export const notFoundPayloadSerializer: (payload: unknown) => string = evaluateStandaloneSerializer(NOT_FOUND_PAYLOAD_CODE) as (payload: unknown) => string
