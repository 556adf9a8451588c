import { runtimeError } from '../errors/runtime-codes'
import { didYouMean } from '../schemas'
import type { PrintRoutesOptions } from '../shared/introspection'

const known = ['json', 'includeHooks', 'commonPrefix']

/**
 * Checks printRoutes()'s options rather than ignoring what it cannot honour. The tree is printed
 * by path segment, each segment's methods together: the same nesting as Fastify 3.27.4's
 * `commonPrefix: false`, not its text (find-my-way 4 joins segments without a route of their own,
 * `hello/world`, and writes a child's slash, `/hello`), so `false` is accepted for moved apps;
 * `true` (the radix-edge split) and `includeMeta` (find-my-way's route store, which Enclave does
 * not have) are refused.
 */
export function checkPrintRoutesOptions(options: unknown, path: string): PrintRoutesOptions & { json?: boolean } {
  if (options === undefined) return {}
  const fail = (problem: string): never => { throw runtimeError('ENC_ERR_INSPECT_INVALID_OPTIONS', { path, problem }) }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return fail(`takes an options object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`)
  const record = options as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (key === 'includeMeta') fail("includeMeta is not offered: Enclave's route tree has no find-my-way store to print; printRoutes({ json: true }) or explain('METHOD /path') show each route's config and options")
    if (!known.includes(key)) fail(`unknown option '${key}'${didYouMean(key, known)}; printRoutes takes ${known.join(', ')}`)
  }
  for (const key of known) {
    if (record[key] !== undefined && typeof record[key] !== 'boolean') fail(`${key} must be a boolean, got ${typeof record[key]}`)
  }
  if (record.commonPrefix === true) fail("commonPrefix: true (Fastify's radix-edge split) is not offered: the tree is printed by path segment, methods together (the nesting commonPrefix: false gives); pass false or leave it out")
  return { json: record.json as boolean | undefined, includeHooks: record.includeHooks as boolean | undefined }
}
