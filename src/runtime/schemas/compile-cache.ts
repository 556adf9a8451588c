import { schemaCacheKey } from './schema-walk'
import type { JsonSchema } from './types'

/**
 * Wraps a compiler so that each distinct schema (by JSON text) is compiled once. A compiler built for
 * one visible set owns its cache, so two sibling scopes that give the same `$id` different bodies never
 * share a compiled function: same JSON text, different compiler, different cache.
 *
 * Only for compilers whose output depends on the schema alone (the default ones), not on `httpPart`,
 * `method` or `url`.
 */
export function cacheBySchema<I extends { schema: JsonSchema }, F>(compile: (input: I) => F): (input: I) => F {
  const compiled = new Map<string, F>()
  return (input: I): F => {
    const key = schemaCacheKey(input.schema)
    let fn = compiled.get(key)
    if (fn === undefined) {
      fn = compile(input)
      compiled.set(key, fn)
    }
    return fn
  }
}
