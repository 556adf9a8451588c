import { STATUS_CODES } from 'node:http'
import type { JsonSchema } from '../../schemas/types'
import type { RouteInspection, SchemaInspection } from '../../shared/introspection'
import type { OpenApiOperation, OpenApiParameter, OpenApiResponse } from '../../shared/openapi-types'
import { convertSchema } from './convert-schema'
import { documentsOnly, responseHeadersOf, withoutResponseHeaders } from '../../schemas/response-headers'
import type { ComponentNames } from './component-names'
import { ERROR_COMPONENT, errorResponses } from './error-contract'
import { pathTemplate } from './path-template'
import { withStandardSchemasConverted } from './standard-json-schema'

export interface OperationContext {
  readonly names: ComponentNames
  readonly schemas: readonly SchemaInspection[]
  readonly tag: string
  readonly operationId: string
}

/** One route method as an OpenAPI Operation: parameters, request body, responses (declared, then the error contract), security. */
export function buildOperation(inspected: RouteInspection, context: OperationContext): OpenApiOperation {
  const route = withStandardSchemasConverted(inspected)
  const toOpenApi = (schema: JsonSchema): JsonSchema => convertSchema(schema, {
    resolve: (id) => context.names.resolve(id, route.visibleSchemas), componentPath: null,
  })
  const operation: OpenApiOperation = { operationId: context.operationId, tags: [context.tag], responses: {} }
  for (const key of ['summary', 'description'] as const) if (typeof route.docs[key] === 'string') operation[key] = route.docs[key] as string
  if (route.docs.deprecated === true) operation.deprecated = true

  const parameters = [...pathParameters(route, toOpenApi), ...partParameters(route, 'querystring', 'query', toOpenApi, context), ...partParameters(route, 'headers', 'header', toOpenApi, context)]
  if (parameters.length > 0) operation.parameters = parameters
  if (route.validators.body !== undefined && route.schema.body !== null) {
    operation.requestBody = { required: true, content: mediaTypes(route.docs.consumes, toOpenApi(route.schema.body)) }
  } else if (declaredTypes(route.docs.consumes) !== null && !BODILESS.has(route.method)) {
    // An upload read by the handler (@fastify/multipart's request.file()) has no body schema, but
    // consumes names what it takes: that much is documented, its fields are not invented, and
    // `required` stays OpenAPI's default (false): nothing checks that a body comes.
    operation.requestBody = { required: false, content: Object.fromEntries(declaredTypes(route.docs.consumes)!.map((type) => [type, { schema: undescribedBody(type) }])) }
  }

  const responses: Record<string, OpenApiResponse> = {}
  for (const [key, schema] of Object.entries(route.schema.response ?? {})) {
    const status = openApiKey(key)
    const response: OpenApiResponse = { description: describe(schema, key) }
    // A status that only documents (a 301's `{ description, headers }`) has no body to describe.
    if (!NO_BODY.has(status) && !documentsOnly(schema)) response.content = mediaTypes(route.docs.produces, toOpenApi(withoutResponseHeaders(schema)))
    const headers = responseHeadersOf(schema)
    if (headers !== null) response.headers = documentedHeaders(headers, toOpenApi)
    responses[status] = response
  }
  const declared = route.defaultStatus === null ? null : String(route.defaultStatus)
  if (declared !== null && !covers(responses, declared)) {
    responses[declared] = { description: `${STATUS_CODES[declared] ?? 'Response'} (@HttpCode; no response schema declared)` }
  } else if (Object.keys(responses).length === 0) {
    // Nothing says which status the handler answers: @fastify/swagger's convention, a bare 200.
    responses['200'] = { description: 'OK (no response schema declared)' }
  }
  for (const [key, error] of errorResponses(route)) {
    const status = openApiKey(key)
    if (responses[status] !== undefined && !error.declared) continue
    const schema = error.schema === null ? { $ref: `#/components/schemas/${ERROR_COMPONENT}` } : toOpenApi(error.schema)
    responses[status] = { description: error.description, content: { [error.contentType]: { schema } } }
  }
  if (route.security.length > 0) operation.security = route.security.map((s) => ({ [s.name]: [] }))
  // Re-set last so the document reads request first, then responses.
  delete (operation as Partial<OpenApiOperation>).responses
  operation.responses = responses
  return operation
}

/**
 * The schema's `consumes` / `produces` (@fastify/swagger's keys: a form route behind
 * @fastify/formbody says `consumes: ['application/x-www-form-urlencoded']`), else JSON.
 * The error contract is the error handler's media type (error-contract.ts), not these.
 */
function mediaTypes(declared: unknown, schema: JsonSchema): Record<string, { schema: JsonSchema }> {
  const types = declaredTypes(declared) ?? ['application/json']
  return Object.fromEntries(types.map((type) => [type, { schema }]))
}

/** The media types a route's `consumes` / `produces` names, or null when it names none. */
function declaredTypes(declared: unknown): string[] | null {
  return Array.isArray(declared) && declared.length > 0 && declared.every((t) => typeof t === 'string') ? declared as string[] : null
}

/** Methods whose requests carry no body to document (a GET's `consumes` describes nothing sent). */
const BODILESS = new Set(['GET', 'HEAD'])

/** A body with no schema: a form (multipart, urlencoded) is an object of fields by definition (OpenAPI 3.1 §4.8.14.4); anything else is undescribed. */
function undescribedBody(type: string): JsonSchema {
  return /^multipart\/|^application\/x-www-form-urlencoded/i.test(type) ? { type: 'object' } : {}
}

/**
 * A status's documented headers (`headers` in its response schema, @fastify/swagger's spelling) as
 * OpenAPI Header Objects: a header's own `description` goes beside its schema, as OpenAPI places it.
 */
function documentedHeaders(headers: Record<string, JsonSchema>, toOpenApi: (s: JsonSchema) => JsonSchema): NonNullable<OpenApiResponse['headers']> {
  const documented: NonNullable<OpenApiResponse['headers']> = {}
  for (const [name, header] of Object.entries(headers)) {
    const { description, ...schema } = header
    documented[name] = typeof description === 'string' ? { description, schema: toOpenApi(schema) } : { schema: toOpenApi(schema) }
  }
  return documented
}

/** Statuses whose answers have no body (RFC 9110 §6.4.1): documented without content. */
const NO_BODY = new Set(['204', '205', '304'])

/** True when the status already has a response, by its own key or its range (`2XX`). */
function covers(responses: Record<string, OpenApiResponse>, status: string): boolean {
  return responses[status] !== undefined || responses[`${status[0]}XX`] !== undefined
}

function describe(schema: JsonSchema, key: string): string {
  if (typeof schema.description === 'string') return schema.description
  return STATUS_CODES[key] ?? (key === 'default' ? 'Default response' : `${key.toUpperCase()} response`)
}

function pathParameters(route: RouteInspection, toOpenApi: (s: JsonSchema) => JsonSchema): OpenApiParameter[] {
  // Converted whole, so that a property's local reference (`#count`) resolves against the part.
  const declared = (route.schema.params === null ? {} : toOpenApi(route.schema.params).properties ?? {}) as Record<string, JsonSchema>
  return pathTemplate(route.url).params.map(({ name, pattern }) => {
    const schema = declared[name] !== undefined ? declared[name] : { type: 'string', ...(pattern === null ? {} : { pattern }) }
    return { name, in: 'path', required: true, schema }
  })
}

/** Query or header parameters, one per property of the part's schema (a `$ref` part is read through its shared schema). */
function partParameters(route: RouteInspection, part: 'querystring' | 'headers', location: 'query' | 'header', toOpenApi: (s: JsonSchema) => JsonSchema, context: OperationContext): OpenApiParameter[] {
  let schema = route.schema[part]
  if (schema === null) return []
  if (typeof schema.$ref === 'string') {
    const id = schema.$ref.split('#')[0]
    const seen = [...route.visibleSchemas].reverse().find((d) => d.name === id)
    schema = context.schemas.find((s) => s.id === id && (seen === undefined || s.scope === seen.scope))?.schema ?? schema
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : [])
  // Converted whole, so that a property's local reference (`#count`) resolves against the part.
  const properties = (toOpenApi(schema).properties ?? {}) as Record<string, JsonSchema>
  return Object.entries(properties).map(([name, property]) => {
    // A required property with a default is filled in by the validator (useDefaults) when the
    // request leaves it out, so a client need not send it: `required: true` would make generated
    // clients demand it (TypeBox marks every non-Optional property required, defaults included).
    const parameter: OpenApiParameter = { name, in: location, required: required.has(name) && !hasDefault(property), schema: property }
    if (typeof property.description === 'string') parameter.description = property.description
    return parameter
  })
}

/** A property schema may be a boolean (`true`: anything), which has no default. */
function hasDefault(property: JsonSchema | boolean): boolean {
  return typeof property === 'object' && property !== null && 'default' in property
}

/** A status key as OpenAPI spells it: a range `4XX` in capitals, a status as it is. */
function openApiKey(key: string): string {
  return /^\dxx$/i.test(key) ? key.toUpperCase() : key
}
