import { uniqueItemsUnbounded } from '../schemas/unique-items-check'
import { SILENCING_MAX_LENGTH, riskyPatternsAt } from '../schemas/pattern-check'
import { visitSchemas } from '../schemas/schema-walk'
import type { NormalizedRouteSchema } from '../schemas/types'
import type { SchemaStore } from '../schemas/schema-store'
import type { PartReuse } from '../schemas/part-reuse'
import type { BootWarning } from './boot-warnings'

const requestParts = ['body', 'querystring', 'params', 'headers'] as const

/**
 * What one walk of a shared schema found, in walk order: a place to warn about (`unique` or
 * `pattern`, with its pointer inside the schema), or a `$ref` to follow from there. It depends on
 * the schema alone, so a boot walks each shared schema once however many routes reach it (a REST
 * API's routes all `$ref` a few shared schemas); each route still gets its own warning naming it.
 */
type WalkEvent = { readonly kind: 'unique' | 'pattern'; readonly pointer: string } | { readonly kind: 'ref'; readonly ref: string }

/**
 * One boot's walks of shared schemas, by schema object and the allErrors setting (which decides
 * whether a bound silences a place). Per boot, not per process: the store keeps the user's object,
 * which another server's boot may see changed.
 */
export class SharedSchemaWalks {
  readonly #walks = [new WeakMap<object, readonly WalkEvent[]>(), new WeakMap<object, readonly WalkEvent[]>()]

  of(schema: object, allErrors: boolean): readonly WalkEvent[] {
    const walks = this.#walks[allErrors ? 1 : 0]
    let events = walks.get(schema)
    if (events === undefined) walks.set(schema, events = walkEvents(schema, allErrors))
    return events
  }
}

function walkEvents(schema: unknown, allErrors: boolean): WalkEvent[] {
  const events: WalkEvent[] = []
  visitSchemas(schema, (node, pointer) => {
    if (uniqueItemsUnbounded(node, !allErrors)) events.push({ kind: 'unique', pointer: pointer() })
    for (const at of riskyPatternsAt(node, !allErrors)) events.push({ kind: 'pattern', pointer: pointer() + at })
    if (typeof node.$ref === 'string') events.push({ kind: 'ref', ref: node.$ref })
  })
  return events
}

/**
 * The boot warnings of one route's request schemas (responses are serialized, never validated
 * against uniqueItems or patterns), from one walk. One warning per route and code, naming every
 * place it applies to. `walks` (the boot's) lets routes share the walk of a shared schema.
 */
export function routeSchemaWarnings(route: string, scopePath: string, schema: NormalizedRouteSchema, store: SchemaStore, allErrors = false,
  walks: SharedSchemaWalks = new SharedSchemaWalks(), reuse?: PartReuse): BootWarning[] {
  const unique: string[] = []
  const patterns: string[] = []
  const followed = new Set<unknown>()
  const replay = (events: readonly WalkEvent[], prefix: string, part: string): void => {
    for (const event of events) {
      if (event.kind === 'ref') follow(event.ref, part)
      else (event.kind === 'unique' ? unique : patterns).push(place(prefix, event.pointer))
    }
  }
  // A shared schema (addSchema) reached by its id: checked where it is used, for requests.
  const follow = (ref: string, part: string): void => {
    const target = resolveRef(ref, store)
    if (target === undefined || followed.has(target) || typeof target !== 'object' || target === null) return
    followed.add(target)
    replay(walks.of(target, allErrors), `${part} ${ref}`, part)
  }
  for (const part of requestParts) {
    const partSchema = schema[part]
    if (partSchema === null) continue
    // A copy other routes of this boot share (part-reuse.ts) is walked once, like a shared schema.
    if (reuse?.isReused(partSchema) === true) { replay(walks.of(partSchema, allErrors), part, part); continue }
    // The route's own copy: walked here, not remembered. Not through walkEvents() + replay(): the
    // event list it builds per route cost ~20 ms per 1,000 routes of eager boot (session 17, paired).
    visitSchemas(partSchema, (node, pointer) => {
      if (uniqueItemsUnbounded(node, !allErrors)) unique.push(place(part, pointer()))
      for (const at of riskyPatternsAt(node, !allErrors)) patterns.push(place(part, pointer() + at))
      if (typeof node.$ref === 'string') follow(node.$ref, part)
    })
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
        : `Rewrite it without a quantifier inside a repeated group, or bound what it sees: maxLength next to pattern, propertyNames: { maxLength } next to patternProperties, of at most ${SILENCING_MAX_LENGTH.toLocaleString('en-US')} (a larger bound, such as a body cap of 100,000, leaves a quadratic pattern seconds to hours of CPU; keep it small if the pattern really is exponential).`}`,
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
