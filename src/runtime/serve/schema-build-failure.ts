import { HttpError } from '../errors/http-error'
import type { CompiledRoute } from './compiled-route'

/**
 * What a request meets when its route's schemas (or, later, the serializer of the status being
 * sent: schemas/deferred-serializer.ts) do not compile: a 500 with the boot error's code.
 */
export function schemaBuildFailure(route: CompiledRoute, error: unknown): HttpError {
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined
  return new HttpError(500,
    `The schemas of route ${route.method} ${route.path} do not compile (${code ?? 'see the server log'}); see the server log for the route and the fix.`,
    { code, cause: error })
}
