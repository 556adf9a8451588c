/**
 * fluent-json-schema builds schemas as objects that answer `valueOf()` with the plain JSON Schema
 * (and mark themselves `isFluentSchema`); Fastify accepts them wherever a schema goes, so do we.
 * Anything else is returned as it is.
 */
export function plainSchema(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  const candidate = value as { isFluentSchema?: unknown; valueOf?: unknown }
  if (candidate.isFluentSchema === true && typeof candidate.valueOf === 'function') return (candidate.valueOf as () => unknown)()
  return value
}
