import { runtimeError } from '../errors/runtime-codes'
import { didYouMean } from '../schemas'
import type { PrintRoutesOptions } from '../shared/introspection'

const known = ['json', 'includeHooks', 'commonPrefix', 'includeMeta']

/**
 * Checks printRoutes()'s options rather than ignoring what it cannot honour. `commonPrefix: false`
 * prints Fastify 3.27.4's text for it (find-my-way 4's path-segment tree); `true`, Fastify's default
 * (the radix-edge split of its router, which Enclave's router does not have), is refused: Enclave's
 * default tree is by path segment. `includeMeta` is `true` or a list of the keys Fastify 3 stores
 * (errorHandler, logLevel, logSerializers, hook names).
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
  const meta = record.includeMeta
  if (meta !== undefined && meta !== true && !(Array.isArray(meta) && meta.every((key) => typeof key === 'string'))) {
    fail(`includeMeta must be true or an array of key names (errorHandler, logLevel, logSerializers, a hook name), got ${Array.isArray(meta) ? 'an array with a non-string' : meta === false ? 'false' : typeof meta}`)
  }
  if (record.commonPrefix === true) fail("commonPrefix: true (Fastify's radix-edge split) is not offered: the default tree is printed by path segment, methods together; commonPrefix: false prints Fastify 3's text for that option")
  return { json: record.json as boolean | undefined, includeHooks: record.includeHooks as boolean | undefined, commonPrefix: record.commonPrefix as boolean | undefined, includeMeta: meta as true | string[] | undefined }
}
