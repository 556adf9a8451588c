import safeRegex from 'safe-regex2'
import { visitSchemas } from './schema-walk'

/**
 * Request-schema regular expressions a crafted string can make backtrack for seconds (ReDoS).
 * ajv runs `pattern` and the `patternProperties` keys with the engine's backtracking RegExp, and a
 * pattern with nested quantifiers (`^(a+)+$`, `^([a-z0-9]+\s?)*$`) is exponential in the length of a
 * string that almost matches: on Node 20 / ajv 6.12.6 one 24-character value cost 80 ms, 30 would
 * cost seconds. The detector is safe-regex2 (Fastify's own, already installed with find-my-way,
 * microseconds per pattern): it flags star height > 1, so it also flags a few linear patterns (a
 * repeated group closed by a separator, `^[a-z0-9]+(-[a-z0-9]+)*$`) and misses polynomial ones
 * (`^\s*#?\s*$`). A length bound silences it, whatever the pattern: ajv checks `maxLength` before
 * `pattern` (and `propertyNames` before `patternProperties`), so the regex never sees a longer string.
 * Returns the JSON pointers (within `schema`) of the patterns at risk.
 */
export function unboundedRiskyPatterns(schema: unknown, resolveRef: (ref: string) => unknown): string[] {
  const found: string[] = []
  const followed = new Set<unknown>()
  const visit = (root: unknown, prefix: string): void => {
    visitSchemas(root, (node, pointer) => {
      if (typeof node.pattern === 'string' && typeof node.maxLength !== 'number' && risky(node.pattern)) found.push(`${prefix}${pointer()}/pattern`)
      const keys = node.patternProperties
      if (typeof keys === 'object' && keys !== null && !namesBounded(node)) {
        for (const key of Object.keys(keys)) if (risky(key)) found.push(`${prefix}${pointer()}/patternProperties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)
      }
      if (typeof node.$ref === 'string') {
        // A shared schema (addSchema) reached by its id: checked where it is used, for requests.
        const target = resolveRef(node.$ref)
        if (target !== undefined && !followed.has(target)) { followed.add(target); visit(target, node.$ref) }
      }
    })
  }
  visit(schema, '')
  return found
}

function namesBounded(node: Record<string, unknown>): boolean {
  const names = node.propertyNames
  return typeof names === 'object' && names !== null && typeof (names as Record<string, unknown>).maxLength === 'number'
}

/** A pattern the engine cannot compile is ajv's error to report, not a warning. */
function risky(pattern: string): boolean {
  try { new RegExp(pattern, 'u') } catch { try { new RegExp(pattern) } catch { return false } }
  // safe-regex2's parser (ret) does not know lookbehinds and calls what it cannot parse unsafe; a
  // lookahead has the same structure for star height.
  return !safeRegex(pattern.replace(/\(\?<([=!])/g, '(?$1'))
}
