import { unboundedUniqueItems } from '../schemas/unique-items-check'
import { unboundedRiskyPatterns } from '../schemas/pattern-check'
import type { NormalizedRouteSchema } from '../schemas/types'
import type { SchemaStore } from '../schemas/schema-store'
import type { BootWarning } from './boot-warnings'

const requestParts = ['body', 'querystring', 'params', 'headers'] as const

type Check = (schema: unknown, resolveRef: (ref: string) => unknown) => string[]

/**
 * The boot warnings of one route's request schemas (responses are serialized, never validated
 * against uniqueItems or patterns). One warning per route and code, naming every place it applies to.
 */
export function routeSchemaWarnings(route: string, scopePath: string, schema: NormalizedRouteSchema, store: SchemaStore): BootWarning[] {
  const resolveRef = (ref: string): unknown => {
    const hash = ref.indexOf('#')
    const id = hash === -1 ? ref : ref.slice(0, hash)
    return id === '' ? undefined : store.get(id)
  }
  const placesOf = (check: Check): string[] => {
    const places: string[] = []
    for (const part of requestParts) {
      const partSchema = schema[part]
      if (partSchema === null) continue
      for (const pointer of check(partSchema, resolveRef)) places.push(`${part}${pointer === '' ? '' : ' ' + pointer}`)
    }
    return places
  }
  const warnings: BootWarning[] = []
  const unique = placesOf(unboundedUniqueItems)
  if (unique.length > 0) {
    warnings.push({
      code: 'ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED',
      fields: { route, scope: scopePath, at: unique },
      message: `route ${route}: uniqueItems without maxItems at ${unique.join(', ')}: its items are untyped, objects or arrays, which ajv compares pair by pair, so one request with a long array costs seconds of CPU (100,000 numbers, 589 KB: 6.4 s). Add maxItems (the longest list you accept), or type the items as string, number, integer or boolean.`,
    })
  }
  const patterns = placesOf(unboundedRiskyPatterns)
  if (patterns.length > 0) {
    warnings.push({
      code: 'ENC_WARN_SCHEMA_PATTERN_REDOS',
      fields: { route, scope: scopePath, at: patterns },
      message: `route ${route}: a pattern with nested quantifiers and no length bound at ${patterns.join(', ')}: a crafted string that almost matches makes the regex backtrack exponentially (^(a+)+$ on 24 characters: 80 ms of CPU; every character doubles it). Rewrite it without a quantifier inside a repeated group, or bound what it sees: maxLength next to pattern, propertyNames: { maxLength } next to patternProperties (keep it small if the pattern really is exponential).`,
    })
  }
  return warnings
}
