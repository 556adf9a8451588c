import type { JsonSchema } from '../../schemas/types'
import { standardOf } from '../../schemas/standard-schema'
import type { RouteInspection, RouteSchemaInspection } from '../../shared/introspection'


/**
 * A route whose zod (or other Standard Schema) parts are replaced by the JSON Schema they publish
 * (Standard JSON Schema, `~standard.jsonSchema`: zod 4.2+), so openapi() documents them instead of
 * the library's internals: the input form for request parts (what a client sends, defaults
 * optional), the output form for responses, as fastify-type-provider-zod's jsonSchemaTransform
 * does. A route without one is returned as it is.
 */
export function withStandardSchemasConverted(route: RouteInspection): RouteInspection {
  const { schema } = route
  const parts = [schema.body, schema.querystring, schema.params, schema.headers, ...Object.values(schema.response ?? {})]
  if (!parts.some((part) => standardOf(part) !== undefined)) return route
  const request = (part: JsonSchema | null): JsonSchema | null => (part === null ? null : converted(part, 'input'))
  const response = schema.response === null ? null
    : Object.fromEntries(Object.entries(schema.response).map(([status, part]) => [status, converted(part, 'output')]))
  const replaced: RouteSchemaInspection = { body: request(schema.body), querystring: request(schema.querystring), params: request(schema.params), headers: request(schema.headers), response }
  return { ...route, schema: replaced }
}

function converted(part: JsonSchema, direction: 'input' | 'output'): JsonSchema {
  const standard = standardOf(part)
  if (standard === undefined) return part
  const convert = standard.jsonSchema?.[direction]
  // A library without the conversion, or a schema it cannot express (a z.transform()), is documented as undescribed, never as its internals.
  const undescribed = { description: `A ${String(standard.vendor)} schema with no JSON Schema form.` }
  if (typeof convert !== 'function') return undescribed
  try {
    const { $schema: _dialect, ...json } = convert({ target: 'draft-2020-12' }) as JsonSchema
    return json
  } catch {
    return undescribed
  }
}
