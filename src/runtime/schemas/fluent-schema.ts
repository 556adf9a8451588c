/** fluent-json-schema 3 marks its builders with this symbol; Fastify 3.27.4 checks it too. */
const kFluentSchema = Symbol.for('fluent-schema-object')

/**
 * fluent-json-schema builds schemas as objects that answer `valueOf()` with the plain JSON Schema;
 * Fastify accepts them wherever a schema goes, so do we. A builder is recognised by any of the
 * marks its versions carry (`isFluentSchema`, `isFluentJSONSchema`, `Symbol.for('fluent-schema-object')`),
 * as Fastify recognises it. Anything else is returned as it is.
 */
export function plainSchema(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  const candidate = value as { isFluentSchema?: unknown; isFluentJSONSchema?: unknown; valueOf?: unknown; [kFluentSchema]?: unknown }
  const marked = candidate.isFluentSchema === true || candidate.isFluentJSONSchema === true || candidate[kFluentSchema] === true
  if (marked && typeof candidate.valueOf === 'function') return (candidate.valueOf as () => unknown)()
  return value
}
