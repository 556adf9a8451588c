import type { SharedSchema } from '../schemas/types'
import { runtimeError } from '../errors/runtime-codes'
import { didYouMean } from '../schemas'
import { describePathParams, optionalPathParamNames, pathParamNames } from '../shared/path-params'

/**
 * Refuses a params schema whose `required` names a property the path does not have: `params`
 * only ever holds path parameters, so every request would be a 400 (`/a/:bookId` with a schema
 * requiring `id`). Reads the schema as given, a `$ref` to a shared schema the scope sees (a
 * schema class with `$id`), or nothing it cannot read (a fluent schema builds its JSON later).
 */
export function checkParamsSchema(schema: unknown, url: string, where: string, getSchema: (id: string) => SharedSchema | undefined): void {
  const params = readSchema((schema as { params?: unknown } | null | undefined)?.params, getSchema)
  const required = (params as { required?: unknown } | undefined)?.required
  if (!Array.isArray(required) || required.length === 0) return
  const names = pathParamNames(url)
  const missing = required.filter((name): name is string => typeof name === 'string' && !names.includes(name))
  if (missing.length === 0) {
    const optional = optionalPathParamNames(url).filter((name) => required.includes(name))
    if (optional.length === 0) return
    throw runtimeError('ENC_ERR_ROUTE_INVALID', { where, problem: `its params schema requires ${optional.map((m) => `'${m}'`).join(', ')}, ` +
      `but the path '${url}' makes it optional (${optional.map((m) => `:${m}?`).join(', ')}), so every request without it would fail validation with a 400. ` +
      'Remove it from required, or drop the ? from the path' })
  }
  throw runtimeError('ENC_ERR_ROUTE_INVALID', { where, problem: `its params schema requires ${missing.map((m) => `'${m}'${didYouMean(m, names)}`).join(', ')}, ` +
    `but the path '${url}' has ${describePathParams(names)}, so every request would fail validation with a 400. ` +
    'Rename the path parameter or the schema property so they match (params holds only path parameters)' })
}

function readSchema(value: unknown, getSchema: (id: string) => SharedSchema | undefined): unknown {
  if (value === null || typeof value !== 'object') return undefined
  const ref = (value as { $ref?: unknown }).$ref
  if (typeof ref !== 'string') return value
  // Only a whole shared schema (`book#`), not a pointer into one.
  const match = /^([^#]+)#?$/.exec(ref)
  return match === null ? undefined : getSchema(match[1])
}
