import type { Declared, SchemaInspection } from '../../shared/introspection'

type JsonSchema = Record<string, unknown>

/**
 * Stable component names for the shared schemas: the `$id` itself (made safe for a component
 * key), never a counter like Fastify's `def-0`. Sibling scopes may each declare the same `$id`
 * differently (spec §3.3.4); those get the declaring scope's name appended.
 */
export class ComponentNames {
  readonly #byDeclaration = new Map<string, string>()
  readonly #schemas = new Map<string, JsonSchema>()
  readonly #scopesById = new Map<string, string[]>()

  constructor(schemas: readonly SchemaInspection[]) {
    const taken = new Set<string>()
    for (const s of schemas) {
      const list = this.#scopesById.get(s.id)
      if (list === undefined) this.#scopesById.set(s.id, [s.scope])
      else list.push(s.scope)
    }
    for (const s of schemas) {
      const shared = (this.#scopesById.get(s.id) ?? []).length > 1
      let name = safe(s.id) + (shared ? `_${safe(s.scope.split(' > ').pop() ?? '')}` : '')
      for (let i = 2; taken.has(name); i++) name = `${safe(s.id)}_${i}`
      taken.add(name)
      this.#byDeclaration.set(key(s.id, s.scope), name)
      this.#schemas.set(name, s.schema)
    }
  }

  /** The component for the declaration of `id` in exactly `scope`. */
  of(id: string, scope: string): string | undefined {
    return this.#byDeclaration.get(key(id, scope))
  }

  /**
   * The component a `$ref` to `id` means from a place that sees `visible` (nearest declaration:
   * duplicates along one chain are refused at boot), else the only declaration in the tree.
   */
  resolve(id: string, visible: readonly Declared[]): { name: string; schema: JsonSchema } | undefined {
    const seen = [...visible].reverse().find((d) => d.name === id)
    const scopes = this.#scopesById.get(id)
    const name = seen !== undefined ? this.of(id, seen.scope) : scopes === undefined ? undefined : this.of(id, scopes[0])
    return name === undefined ? undefined : { name, schema: this.#schemas.get(name)! }
  }
}

const key = (id: string, scope: string): string => `${scope}\u0000${id}`

/** Component keys must match ^[a-zA-Z0-9._-]+$ (OpenAPI 3.1 §4.8.7.1). */
function safe(text: string): string {
  const cleaned = text.replace(/#+$/, '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '')
  return cleaned === '' ? 'schema' : cleaned
}
