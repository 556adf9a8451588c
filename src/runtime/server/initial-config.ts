import type { ServerLimits } from '../shared/server-options'
import type { ServerOptions } from '../types'
import { defaultHttp2SessionTimeout } from './node-server'

/**
 * `initialConfig`, as Fastify 3 builds it: every option Fastify 3 lists there with its default
 * when not given, so that a plugin reading `initialConfig.ignoreTrailingSlash` or
 * `.requestIdLogLabel` gets a value (Fastify 3's, or Enclave's where its default differs:
 * `requestIdHeader` is off); then every limit and timeout resolved. Other options given stay
 * readable as given, except `https`: like Fastify 3, `true` in place of an object with more than
 * `allowHTTP1`, so that a plugin that logs or serves its config cannot hand out the TLS key.
 */
export function initialConfigOf(options: ServerOptions, limits: ServerLimits): Readonly<Record<string, unknown>> {
  const given = options as Record<string, unknown>
  const config: Record<string, unknown> = {
    ...given,
    requestIdHeader: given.requestIdHeader ?? false,
    requestIdLogLabel: given.requestIdLogLabel ?? 'reqId',
    disableRequestLogging: given.disableRequestLogging ?? false,
    caseSensitive: given.caseSensitive ?? true,
    ignoreTrailingSlash: given.ignoreTrailingSlash ?? false,
    jsonShorthand: given.jsonShorthand ?? true,
    onProtoPoisoning: given.onProtoPoisoning ?? 'error',
    onConstructorPoisoning: given.onConstructorPoisoning ?? 'error',
    http2SessionTimeout: given.http2SessionTimeout ?? defaultHttp2SessionTimeout,
    ...limits,
  }
  if (given.https !== undefined && !plainHttps(given.https)) config.https = true
  return Object.freeze(config)
}

/** The https values Fastify 3 shows as given: a boolean, null, or `{ allowHTTP1 }` alone. */
function plainHttps(https: unknown): boolean {
  if (https === null || typeof https === 'boolean') return true
  if (typeof https !== 'object') return false
  const keys = Object.keys(https)
  return keys.length === 1 && keys[0] === 'allowHTTP1' && typeof (https as { allowHTTP1: unknown }).allowHTTP1 === 'boolean'
}
