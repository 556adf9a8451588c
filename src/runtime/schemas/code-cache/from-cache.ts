import type { SchemaCodeCache } from './schema-code-cache'
import { entryKey, keyableSchemaText } from './cache-fingerprint'

/** How one default compiler makes a function with and without the cache. */
export interface CachedBuild<F> {
  /** The function from what `build` stored; throws when that does not evaluate. */
  load(stored: unknown): F
  /** Compile, returning the function and what to store (null: it cannot be stored exactly). */
  build(): { fn: F; stored: unknown }
  /** Compile as without the cache (a compiler or schema the cache cannot key). */
  plain(): F
}

/**
 * The function for one schema: from the cache when it holds it, else compiled and stored. A
 * `fingerprint` of null (the compiler's options or plugins cannot be keyed) or a schema holding a
 * function or RegExp is compiled as without the cache. A stored value that does not load is
 * dropped with a warning and compiled instead; a schema that does not compile throws before
 * anything is stored.
 */
export function fromCache<F>(cache: SchemaCodeCache, kind: string, fingerprint: string | null, schemaText: string, how: CachedBuild<F>): F {
  if (fingerprint === null || !keyableSchemaText(schemaText)) {
    cache.notCacheable()
    return how.plain()
  }
  const key = entryKey(fingerprint, schemaText)
  const stored = cache.get(kind, key)
  if (stored !== undefined) {
    try {
      const fn = how.load(stored)
      cache.hit()
      return fn
    } catch (error) {
      cache.rejected(key, error)
    }
  }
  const { fn, stored: value } = how.build()
  if (value === null) cache.notCacheable()
  else cache.put(kind, key, value)
  return fn
}
