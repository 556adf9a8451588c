import { codeSummaries, defineError as e, errorFactory } from '../runtime/internal'

/**
 * Errors of the ready-made plugins, each declared once (status, docs/errors.md summary, message template).
 * `status` is the HTTP status for errors that answer a request, `null` for configuration errors.
 */
export const pluginErrors = {
  ENC_ERR_AUTH_INVALID_OPTIONS: e({ status: null, summary: 'bearerAuth() or bearerAuthHook() was given options other than a non-empty array (or object) of non-empty string keys',
    message: (a: { fn: 'bearerAuth' | 'bearerAuthHook'; unknown: string | null }) => `${a.fn}() takes { keys }, a non-empty array of non-empty strings (or an object of named keys)` +
      `${a.unknown !== null ? ` (${a.unknown})` : ''}. ` +
      `Pass the accepted API keys, e.g. ${a.fn}({ keys: process.env.API_KEYS.split(",") }), and refuse to start when none is configured.` }),
  ENC_ERR_AUTH_UNAUTHORIZED: e({ status: 401, summary: 'the bearer token is missing or not one of the accepted keys (WWW-Authenticate: Bearer)',
    message: (a: { token: 'missing' | 'invalid' }) => a.token === 'missing'
      ? 'Missing bearer token: send the header "authorization: Bearer <token>".' : 'Invalid bearer token.' }),
  ENC_ERR_OPENAPI_INVALID_OPTIONS: e({ status: null, summary: "openapiRoute() was given an unknown option (did you mean ...), a path or ui that does not start with '/', or routes other than 'all' or 'scope'",
    message: (a: { path: unknown; ui: unknown } | { routes: unknown } | { unknown: string; known: readonly string[] }) => 'unknown' in a
      ? `openapiRoute(): ${a.unknown}; it takes ${a.known.join(', ')} (docs/openapi-and-client.md).`
      : 'routes' in a
      ? `openapiRoute(): routes is 'all' (every route of the server) or 'scope' (the routes of the module it is listed in, and below), got ${JSON.stringify(a.routes)}.`
      : `openapiRoute(): path and ui must be paths starting with '/' (got path ${JSON.stringify(a.path)}, ui ${JSON.stringify(a.ui)}).` }),
  ENC_ERR_OPENAPI_UI_MISSING: e({ status: null, summary: "openapiRoute({ ui }) needs the package 'swagger-ui-dist', which is not installed",
    message: () => "openapiRoute({ ui }): the package 'swagger-ui-dist' is not installed. Run `npm install swagger-ui-dist`, or leave out the ui option." }),
  ENC_ERR_HEALTH_INVALID_OPTIONS: e({ status: null, summary: 'health() was given an unknown option, a path not starting with /, the same path twice, a bad checkTimeout or a check that is not a function',
    message: (a: { problems: readonly string[] }) => `health(): ${a.problems.join('; ')}. ` +
      "Example: health({ checks: { db: () => pool.query('select 1') }, checkTimeout: 2000 })." }),
  ENC_ERR_HEALTH_NOT_READY: e({ status: 503, summary: 'the readiness route: at least one health check failed or timed out (named in the body; the error is logged)',
    message: (a: { down: readonly string[] }) => `Not ready: ${a.down.join(', ')} failed.` }),
  ENC_ERR_HEALTH_CLOSING: e({ status: 503, summary: 'the readiness route while close() is in progress, or from startDraining() (closeOnSignals\' shutdownDelay) on: stop sending new work here',
    message: () => 'The server is closing.' }),
}

export type PluginErrorCode = keyof typeof pluginErrors
export const pluginError = errorFactory(pluginErrors)
/** Status and summary per code (the columns of docs/errors.md's table). */
export const pluginErrorCodes = codeSummaries(pluginErrors)
