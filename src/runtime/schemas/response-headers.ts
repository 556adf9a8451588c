import type { JsonSchema } from './types'

/**
 * @fastify/swagger's spelling for documenting what headers a status sends: a `headers` object at
 * the top of a response status schema, a schema for each header name
 * (`response: { 200: { type: 'object', headers: { etag: { type: 'string' } }, properties }, 304: { description, headers } }`).
 * It is OpenAPI's Response Object `headers`, written into the document by openapi(). JSON Schema has
 * no `headers` keyword, and ajv and fast-json-stringify ignore it, so it is documentation only:
 * the keyword check reads each header's schema, not `headers` itself, as a keyword.
 * Only a plain object of object schemas counts; anything else is left to the keyword check.
 */
export function responseHeadersOf(schema: unknown): Record<string, JsonSchema> | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return null
  const headers = (schema as { headers?: unknown }).headers
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return null
  for (const value of Object.values(headers)) if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  return headers as Record<string, JsonSchema>
}

/** The response schema without its documented `headers` (the schema itself when it has none). */
export function withoutResponseHeaders(schema: JsonSchema): JsonSchema {
  if (responseHeadersOf(schema) === null) return schema
  const { headers: _documented, ...rest } = schema as JsonSchema & { headers: unknown }
  return rest
}

/**
 * A status schema that only documents, a 304's or a 301's `{ description, headers }`: read as the
 * schema it is, never as a properties shorthand (which would make `headers` a body property and
 * each header name a keyword).
 */
export function documentsOnly(schema: JsonSchema): boolean {
  return responseHeadersOf(schema) !== null && Object.keys(schema).every((key) => key === 'headers' || key === 'description' || key.startsWith('x-'))
}
