/**
 * Fastify 4+ lets a response status map media types to schemas
 * (`200: { content: { 'application/json': { schema } } }`). Fastify 3.27.4 has no such shape: it reads
 * `content` as a property of the shorthand and serializes the wrong thing. Recognising the shape lets boot
 * say so and name the fix instead. Every entry must be an object holding `schema`, so a shorthand that
 * merely has a property called `content` (`{ content: { type: 'string' } }`) is not mistaken for it.
 */
export function contentTypeMapOf(schema: unknown): readonly string[] | null {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return null
  const content = (schema as Record<string, unknown>).content
  if (content === null || typeof content !== 'object' || Array.isArray(content)) return null
  const mediaTypes = Object.keys(content)
  if (mediaTypes.length === 0) return null
  for (const mediaType of mediaTypes) {
    const entry = (content as Record<string, unknown>)[mediaType]
    if (entry === null || typeof entry !== 'object' || !Object.prototype.hasOwnProperty.call(entry, 'schema')) return null
  }
  return mediaTypes
}
