import { uniqueItemsUnbounded } from '../schemas/unique-items-check'
import { riskyPatternsAt } from '../schemas/pattern-check'
import { visitSchemas } from '../schemas/schema-walk'
import type { NormalizedRouteSchema } from '../schemas/types'
import type { SchemaStore } from '../schemas/schema-store'
import type { BootWarning } from './boot-warnings'

const requestParts = ['body', 'querystring', 'params', 'headers'] as const

/**
 * The boot warnings of one route's request schemas (responses are serialized, never validated
 * against uniqueItems or patterns), from one walk. One warning per route and code, naming every
 * place it applies to.
 */
export function routeSchemaWarnings(route: string, scopePath: string, schema: NormalizedRouteSchema, store: SchemaStore, allErrors = false): BootWarning[] {
  const unique: string[] = []
  const patterns: string[] = []
  const followed = new Set<unknown>()
  const visit = (root: unknown, prefix: string): void => {
    visitSchemas(root, (node, pointer) => {
      if (uniqueItemsUnbounded(node, !allErrors)) unique.push(place(prefix, pointer()))
      for (const at of riskyPatternsAt(node, !allErrors)) patterns.push(place(prefix, pointer() + at))
      if (typeof node.$ref === 'string') {
        // A shared schema (addSchema) reached by its id: checked where it is used, for requests.
        const target = resolveRef(node.$ref, store)
        if (target !== undefined && !followed.has(target)) { followed.add(target); visit(target, `${prefix.split(' ')[0]} ${node.$ref}`) }
      }
    })
  }
  for (const part of requestParts) {
    const partSchema = schema[part]
    if (partSchema !== null) visit(partSchema, part)
  }
  const warnings: BootWarning[] = []
  if (unique.length > 0) {
    warnings.push({
      code: 'ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED',
      fields: { route, scope: scopePath, at: unique },
      message: `route ${route}: uniqueItems without maxItems at ${unique.join(', ')}: its items are untyped, objects or arrays, which ajv compares pair by pair, so one request with a long array costs seconds of CPU (100,000 numbers, 589 KB: 6.4 s). ${allErrors
        ? 'Type the items as string, number, integer or boolean: the validator runs with allErrors: true, so it compares the pairs even of an array longer than maxItems.'
        : 'Add maxItems (the longest list you accept), or type the items as string, number, integer or boolean.'}`,
    })
  }
  if (patterns.length > 0) {
    warnings.push({
      code: 'ENC_WARN_SCHEMA_PATTERN_REDOS',
      fields: { route, scope: scopePath, at: patterns },
      message: `route ${route}: a pattern with nested or overlapping quantifiers and no length bound at ${patterns.join(', ')}: a crafted string that almost matches makes the regex backtrack exponentially or polynomially (^(a+)+$ on 24 characters: 80 ms of CPU; every character doubles it). ${allErrors
        ? 'Rewrite it without a quantifier inside a repeated group: the validator runs with allErrors: true, so it runs the pattern even on a string longer than maxLength, and no length bound protects it.'
        : 'Rewrite it without a quantifier inside a repeated group, or bound what it sees: maxLength next to pattern, propertyNames: { maxLength } next to patternProperties (keep it small if the pattern really is exponential).'}`,
    })
  }
  return warnings
}

/** `body /properties/tags`, or `body Tags#/pattern` inside a shared schema: the part, then the pointer. */
function place(prefix: string, pointer: string): string {
  return pointer === '' ? prefix : prefix.includes(' ') ? prefix + pointer : `${prefix} ${pointer}`
}

function resolveRef(ref: string, store: SchemaStore): unknown {
  const hash = ref.indexOf('#')
  const id = hash === -1 ? ref : ref.slice(0, hash)
  return id === '' ? undefined : store.get(id)
}
