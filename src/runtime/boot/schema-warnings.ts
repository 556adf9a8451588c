import { unboundedUniqueItems } from '../schemas/unique-items-check'
import type { NormalizedRouteSchema } from '../schemas/types'
import type { SchemaStore } from '../schemas/schema-store'
import type { BootWarning } from './boot-warnings'

const requestParts = ['body', 'querystring', 'params', 'headers'] as const

/**
 * The boot warnings of one route's request schemas (responses are serialized, never validated
 * against uniqueItems). One warning per route and code, naming every place it applies to.
 */
export function routeSchemaWarnings(route: string, scopePath: string, schema: NormalizedRouteSchema, store: SchemaStore): BootWarning[] {
  const places: string[] = []
  const resolveRef = (ref: string): unknown => {
    const hash = ref.indexOf('#')
    const id = hash === -1 ? ref : ref.slice(0, hash)
    return id === '' ? undefined : store.get(id)
  }
  for (const part of requestParts) {
    const partSchema = schema[part]
    if (partSchema === null) continue
    for (const pointer of unboundedUniqueItems(partSchema, resolveRef)) places.push(`${part}${pointer === '' ? '' : ' ' + pointer}`)
  }
  if (places.length === 0) return []
  return [{
    code: 'ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED',
    fields: { route, scope: scopePath, at: places },
    message: `route ${route}: uniqueItems without maxItems at ${places.join(', ')}: its items are untyped, objects or arrays, which ajv compares pair by pair, so one request with a long array costs seconds of CPU (100,000 numbers, 589 KB: 6.4 s). Add maxItems (the longest list you accept), or type the items as string, number, integer or boolean.`,
  }]
}
