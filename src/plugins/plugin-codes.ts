/**
 * Error codes of the ready-made plugins. Same shape as src/runtime/errors/runtime-codes.ts;
 * `status` is the HTTP status for errors that answer a request, `null` for configuration errors.
 */
export const pluginErrorCodes = {
  ENC_ERR_AUTH_INVALID_OPTIONS: { status: null, summary: 'bearerAuth() was given options other than a non-empty array of non-empty string keys' },
  ENC_ERR_AUTH_UNAUTHORIZED: { status: 401, summary: 'the bearer token is missing or not one of the accepted keys (WWW-Authenticate: Bearer)' },
  ENC_ERR_OPENAPI_INVALID_OPTIONS: { status: null, summary: "openapiRoute() was given a path or ui that does not start with '/'" },
  ENC_ERR_OPENAPI_UI_MISSING: { status: null, summary: "openapiRoute({ ui }) needs the package 'swagger-ui-dist', which is not installed" },
} as const

export type PluginErrorCode = keyof typeof pluginErrorCodes
