import type { Class, RouteMeta } from '../decorators/internal'
import type { ModuleNode } from '../modules/module-tree'
import type { JsonSchema } from '../runtime/schemas/types'
import { toDocumentSchema } from './schema-refs'

export interface OperationInput {
  node: ModuleNode
  controller: Class
  route: RouteMeta
  method: string
  url: string
  guarded: boolean
  shared: Readonly<Record<string, JsonSchema>>
  /** The document's components: an inline part with local references is added here. */
  components: Record<string, unknown>
}

const bodyMethods = ['POST', 'PUT', 'PATCH']
const framework: Record<string, string> = {
  400: 'The request does not match its schema (the message names the part and the path).',
  401: 'Missing or invalid bearer token.',
  413: 'The body is larger than bodyLimit.',
  415: 'The content type has no parser.',
  500: 'Internal Server Error (the details go to the log).',
}

/** One OpenAPI operation for a route method. */
export function operationFor(input: OperationInput): Record<string, unknown> {
  const { route, method, controller } = input
  const operationId = `${controller.name}.${String(route.propertyKey)}${route.methods.length > 1 ? `.${method.toLowerCase()}` : ''}`
  const schema = (route.options.schema ?? {}) as Record<string, unknown>
  const part = (name: string, ...aliases: string[]) => [name, ...aliases].map((k) => schema[k]).find((s) => s !== undefined) as JsonSchema | undefined
  const doc = (s: JsonSchema, name: string) => documentSchema(s, `${operationId}.${name}`, input)

  const parameters = [
    ...parametersOf(part('params'), 'path', `${operationId}.params`, input),
    ...parametersOf(part('querystring', 'query'), 'query', `${operationId}.querystring`, input),
    ...parametersOf(part('headers'), 'header', `${operationId}.headers`, input),
  ]
  const body = part('body')
  const hasBody = body !== undefined && bodyMethods.includes(method)
  const responses: Record<string, unknown> = {}
  const declared = (schema.response ?? {}) as Record<string, JsonSchema>
  for (const [status, s] of Object.entries(declared)) {
    responses[status.toUpperCase()] = { description: `Status ${status}`, content: { 'application/json': { schema: doc(s, `response${status}`) } } }
  }
  if (Object.keys(declared).length === 0) responses['200'] = { description: 'OK (no response schema declared)' }
  const answers = [
    ...(parameters.length > 0 || hasBody ? ['400'] : []),
    ...(input.guarded ? ['401'] : []),
    ...(bodyMethods.includes(method) ? ['413', '415'] : []),
    '500',
  ]
  for (const status of answers) {
    responses[status] ??= { description: framework[status], content: { 'application/json': { schema: { $ref: '#/components/schemas/EnclaveErrorReply' } } } }
  }
  return {
    operationId,
    tags: [input.node.path],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(hasBody ? { requestBody: { required: true, content: { 'application/json': { schema: doc(body!, 'body') } } } } : {}),
    responses,
    ...(input.guarded ? { security: [{ bearerAuth: [] }] } : {}),
  }
}

/** Parameters from a params/querystring/headers schema: one per property (shorthand expanded). */
function parametersOf(schema: JsonSchema | undefined, where: 'path' | 'query' | 'header', name: string, input: OperationInput): unknown[] {
  if (schema === undefined) return []
  const allRequired = where === 'path'
  const resolved = resolve(schema, input.shared)
  // Local references (`#/definitions/tag`) point into the part: it becomes a component of its own.
  const self = hasLocalRef(resolved) ? `#/components/schemas/${name}` : '#'
  if (self !== '#') input.components[name] = toDocumentSchema(resolved, self, input.shared)
  const complete = typeof resolved.type === 'string' || resolved.properties !== undefined || resolved.$ref !== undefined
  const properties = (complete ? resolved.properties : resolved) as Record<string, JsonSchema> | undefined
  const required = new Set(complete && Array.isArray(resolved.required) ? resolved.required as string[] : [])
  return Object.entries(properties ?? {}).map(([key, s]) => ({
    name: key, in: where, required: allRequired || required.has(key),
    schema: toDocumentSchema(s, self, input.shared, resolved),
  }))
}

function hasLocalRef(schema: JsonSchema): boolean {
  return JSON.stringify(schema).includes('"$ref":"#')
}

/** `{ $ref: 'id#' }` to its shared schema, so its properties can become parameters. */
function resolve(schema: JsonSchema, shared: Readonly<Record<string, JsonSchema>>): JsonSchema {
  const ref = schema.$ref
  if (typeof ref !== 'string') return schema
  const id = ref.endsWith('#') ? ref.slice(0, -1) : ref
  return shared[id] ?? schema
}

/** A part or response schema: inline, or as a component of its own when it has local references. */
function documentSchema(schema: JsonSchema, name: string, input: OperationInput): unknown {
  if (!hasLocalRef(schema)) return toDocumentSchema(schema, '#', input.shared)
  const pointer = `#/components/schemas/${name}`
  input.components[name] = toDocumentSchema(schema, pointer, input.shared)
  return { $ref: pointer }
}
