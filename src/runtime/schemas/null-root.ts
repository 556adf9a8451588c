import { resolveRef, type Where } from './response-coercion'
import type { JsonSchema, SerializeFunction, SharedSchema } from './types'

type Schema = Record<string, unknown>

/** $refs followed from the root before giving up (a cycle of refs stops here). */
const MAX_REFS = 16

/**
 * `null` sent (or returned) under a response schema whose root is an object with something to
 * write, or an array, not nullable: fast-json-stringify 7 writes `{}` or `[]`, which hands the
 * client an empty record it cannot tell from a real one. Fastify 3's serializer (fast-json-stringify
 * 2) throws there and answers 500, and Enclave does the same (ENC_ERR_REPLY_SERIALIZATION, logged
 * with the route): the usual path pays one comparison, and only on roots that can refuse null.
 * Fastify 3's cases exactly: an object with properties, required names, patternProperties or
 * additionalProperties (a bare `{ type: 'object' }` is written `{}` by both), any array; a type
 * list, `anyOf` and the like are left to the serializer (Fastify 3 writes those otherwise).
 */
export function refuseNullRoot(serialize: SerializeFunction, schema: JsonSchema, external: Record<string, SharedSchema>): SerializeFunction {
  const kind = nullRefusingKind(schema, external)
  if (kind === null) return serialize
  const reason = `null is not ${kind === 'object' ? 'an object' : 'an array'} (the schema's type is ${kind}; declare it \`nullable: true\` to send null)`
  return (data) => {
    if (data === null) throw new TypeError(reason)
    return serialize(data)
  }
}

function nullRefusingKind(schema: JsonSchema, external: Record<string, SharedSchema>): 'object' | 'array' | null {
  let node: unknown = schema
  let where: Where = { root: schema, external }
  for (let hops = 0; hops <= MAX_REFS; hops++) {
    if (node === null || typeof node !== 'object') return null
    const s = node as Schema
    // Fastify 3 reads the target of a $ref, not a `nullable` beside it.
    if (typeof s.$ref === 'string') {
      const target = resolveRef(s.$ref, where)
      if (target === null) return null
      node = target.schema
      where = target.where
      continue
    }
    if (s.nullable === true) return null
    if (s.type === 'array' || (s.type === undefined && s.items !== undefined && s.properties === undefined)) return 'array'
    if (s.type !== 'object' && !(s.type === undefined && s.properties !== undefined)) return null
    return writesSomething(s) ? 'object' : null
  }
  return null
}

function writesSomething(s: Schema): boolean {
  const filled = (value: unknown): boolean => value !== null && typeof value === 'object' && Object.keys(value).length > 0
  return filled(s.properties) || (Array.isArray(s.required) && s.required.length > 0) || s.patternProperties !== undefined
    || (s.additionalProperties !== undefined && s.additionalProperties !== false)
}
