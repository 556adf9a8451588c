import type * as CacheCode from './cache-code'

/**
 * The schema cache's code (cache-code.ts), loaded by the first server given `schemaCache`: an app
 * without the option never loads it, nor node:crypto for its hashes (~4-6 ms CPU of
 * `require('enclave')`, bench/README "session 18").
 */
export function loadCacheCode(): typeof CacheCode {
  return require('./cache-code') as typeof CacheCode
}
