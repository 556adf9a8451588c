/**
 * Moves each component's `definitions` (and `$defs`) into components of their own, named
 * `<component>.<key>`, and points every `$ref` at them. OpenAPI 3.1 tooling reads components, not
 * keywords nested inside one: openapi-typescript, for one, cannot type
 * `#/components/schemas/catalog/definitions/price`, and can type `#/components/schemas/catalog.price`.
 */
export function hoistDefinitions(schemas: Record<string, unknown>): void {
  for (const [name, schema] of Object.entries(schemas)) {
    if (schema === null || typeof schema !== 'object') continue
    const s = schema as Record<string, unknown>
    for (const keyword of ['definitions', '$defs']) {
      const defs = s[keyword]
      if (defs === null || typeof defs !== 'object') continue
      for (const [key, def] of Object.entries(defs)) schemas[`${name}.${key}`] = def
      delete s[keyword]
    }
  }
  repointRefs(schemas)
}

/** Points `$ref`s at hoisted definitions, anywhere in `value` (the paths use them too). */
export function repointRefs(value: unknown): void {
  repoint(value)
}

const nested = /^#\/components\/schemas\/([^/]+)\/(?:definitions|\$defs)\/([^/]+)(.*)$/

function repoint(value: unknown): void {
  if (value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    for (const v of value) repoint(v)
    return
  }
  const o = value as Record<string, unknown>
  if (typeof o.$ref === 'string') o.$ref = o.$ref.replace(nested, '#/components/schemas/$1.$2$3')
  for (const [key, v] of Object.entries(o)) if (key !== '$ref') repoint(v)
}
