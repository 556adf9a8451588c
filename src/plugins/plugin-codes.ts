/**
 * Error codes of the ready-made plugins. Same shape as src/runtime/errors/runtime-codes.ts;
 * `status` is the HTTP status for errors that answer a request, `null` for configuration errors.
 */
export const pluginErrorCodes = {
  ENC_ERR_AUTH_INVALID_OPTIONS: { status: null, summary: 'bearerAuth() was given options other than a non-empty array of non-empty string keys' },
  ENC_ERR_AUTH_UNAUTHORIZED: { status: 401, summary: 'the bearer token is missing or not one of the accepted keys (WWW-Authenticate: Bearer)' },
  ENC_ERR_HEALTH_INVALID_OPTIONS: { status: null, summary: 'health() was given an unknown option, a path not starting with /, the same path twice, a bad checkTimeout or a check that is not a function' },
  ENC_ERR_HEALTH_NOT_READY: { status: 503, summary: 'the readiness route: at least one health check failed or timed out (named in the body; the error is logged)' },
  ENC_ERR_HEALTH_CLOSING: { status: 503, summary: 'the readiness route while close() is in progress: stop sending new work here' },
} as const

export type PluginErrorCode = keyof typeof pluginErrorCodes
