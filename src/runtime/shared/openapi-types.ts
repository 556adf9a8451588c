/** The `info` object of the document, and the servers it lists. Every field optional: title and version default to the app's. */
export interface OpenApiInfo {
  title?: string
  version?: string
  description?: string
  servers?: ReadonlyArray<{ url: string; description?: string }>
}

/** What `openapi()` documents. */
export interface OpenApiOptions {
  /**
   * `'all'` (default): every route of the server, whichever scope it is called on. `'scope'`: only
   * the routes of the scope it is called on and its descendants (a `/v1` module's own document,
   * beside the `/v2` module's), with the shared schemas they can see: @fastify/swagger's rule.
   */
  routes?: 'all' | 'scope'
}

/**
 * An OpenAPI 3.1 document (the fields Enclave writes; see https://spec.openapis.org/oas/v3.1.0).
 * A type alias, not an interface: an alias of an object type is assignable to `Record<string, unknown>`,
 * which is what validators and converters take (`@seriousme/openapi-schema-validator`'s `validate()`);
 * an interface is not (TS2345, "Index signature for type 'string' is missing"), and needed a cast.
 */
export type OpenApiDocument = {
  openapi: '3.1.0'
  info: { title: string; version: string; description?: string }
  servers?: Array<{ url: string; description?: string }>
  tags: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, OpenApiOperation>>
  components: {
    schemas: Record<string, Record<string, unknown>>
    securitySchemes?: Record<string, Record<string, unknown>>
  }
}

export interface OpenApiParameter {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  description?: string
  schema: Record<string, unknown>
}

export interface OpenApiResponse {
  description: string
  content?: Record<string, { schema: Record<string, unknown> }>
  headers?: Record<string, { schema: Record<string, unknown>; description?: string }>
}

export interface OpenApiOperation {
  operationId: string
  summary?: string
  description?: string
  deprecated?: boolean
  tags: string[]
  parameters?: OpenApiParameter[]
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> }
  responses: Record<string, OpenApiResponse>
  security?: Array<Record<string, string[]>>
}
