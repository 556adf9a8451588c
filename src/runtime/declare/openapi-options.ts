import { runtimeError } from '../errors/runtime-codes'
import { unknownOptions } from '../schemas'
import type { OpenApiOptions } from '../shared/openapi-types'

/**
 * openapi()'s options, checked rather than ignored: the scope path whose routes alone are
 * documented (`routes: 'scope'`), or undefined for the whole server.
 */
export function openapiScope(path: string, options: OpenApiOptions | undefined): string | undefined {
  if (options === undefined) return undefined
  const fail = (problem: string): never => { throw runtimeError('ENC_ERR_INSPECT_INVALID_OPTIONS', { path, problem, method: 'openapi' }) }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return fail('takes an options object as its second argument')
  const unknown = unknownOptions(options, ['routes'])
  if (unknown !== null) return fail(`${unknown}; it takes routes: 'all' or 'scope'`)
  const routes = options.routes ?? 'all'
  if (routes !== 'all' && routes !== 'scope') return fail(`routes is 'all' (every route of the server) or 'scope' (this scope's and its descendants'), got ${JSON.stringify(routes)}`)
  return routes === 'scope' ? path : undefined
}
