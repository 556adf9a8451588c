import { runtimeError } from '../errors/runtime-codes'
import { didYouMean } from '../schemas'
import type { PrintRoutesOptions } from '../shared/introspection'

const known = ['json', 'includeHooks', 'commonPrefix', 'includeMeta']

/**
 * Checks printRoutes()'s options rather than ignoring what it cannot honour. `commonPrefix: false`
 * prints Fastify 3.27.4's text for it (find-my-way 4's path-segment tree); `true`, Fastify's default
 * (the radix-edge split of its router, which Enclave's router does not have), is refused: Enclave's
 * default tree is by path segment. `includeMeta` is `true` or a list of the keys Fastify 3 stores
 * (errorHandler, logLevel, logSerializers, hook names); `false` is off.
 */
export function checkPrintRoutesOptions(options: unknown, path: string): PrintRoutesOptions & { json?: boolean } {
  if (options === undefined) return {}
  const fail = (problem: string): never => { throw runtimeError('ENC_ERR_INSPECT_INVALID_OPTIONS', { path, problem }) }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return fail(`takes an options object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`)
  const record = options as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) fail(`unknown option '${key}'${didYouMean(key, known)}; printRoutes takes ${known.join(', ')}`)
  }
  for (const key of ['json', 'includeHooks', 'commonPrefix']) {
    if (record[key] !== undefined && typeof record[key] !== 'boolean') fail(`${key} must be a boolean, got ${typeof record[key]}`)
  }
  const given = record.includeMeta
  // Fastify 3 types it `boolean | (string | symbol)[]`: false is off, and a symbol key (one of its own
  // route context's) has nothing to print here, as a key it does not store prints nothing there.
  if (given !== undefined && typeof given !== 'boolean' && !(Array.isArray(given) && given.every((key) => typeof key === 'string' || typeof key === 'symbol'))) {
    fail(`includeMeta must be a boolean or an array of key names (errorHandler, logLevel, logSerializers, a hook name), got ${Array.isArray(given) ? 'an array with a non-string' : typeof given}`)
  }
  const meta = given === false ? undefined : Array.isArray(given) ? given.filter((key): key is string => typeof key === 'string') : given
  if (record.commonPrefix === true) fail("commonPrefix: true (Fastify's radix-edge split) is not offered: the default tree is printed by path segment, methods together; commonPrefix: false prints Fastify 3's text for that option")
  return { json: record.json as boolean | undefined, includeHooks: record.includeHooks as boolean | undefined, commonPrefix: record.commonPrefix as boolean | undefined, includeMeta: meta as true | string[] | undefined }
}
