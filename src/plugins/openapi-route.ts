import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pluginError } from './plugin-codes'
import { unknownOptions } from '../runtime/internal'
import { type OpenApiDocument, type OpenApiInfo, type PluginFunction, type Reply, type Request, type Scope } from '../runtime'

export interface OpenApiRouteOptions {
  /** Where the document is served. Default `/openapi.json`. */
  path?: string
  /** The document's info (title, version, description, servers). */
  info?: OpenApiInfo
  /**
   * Where to serve Swagger UI (e.g. `/docs`), from the `swagger-ui-dist` package, which the app
   * installs itself (it is not a dependency of Enclave). Off by default.
   */
  ui?: string
  /**
   * `'scope'`: document only the routes of the module (scope) the plugin is listed in and its
   * descendants, e.g. one document per API version from the `/v1` and `/v2` modules. Default
   * `'all'`: every route of the server.
   */
  routes?: 'all' | 'scope'
}

const openapiRouteOptions: ReadonlyArray<keyof OpenApiRouteOptions> = ['path', 'info', 'ui', 'routes']

const JAVASCRIPT = 'application/javascript; charset=utf-8'
/** Our own script (not swagger-ui-dist's file of that name, which loads the Petstore demo). */
const INITIALIZER = 'swagger-initializer.js'

// The files of swagger-ui-dist the page loads; nothing else of the package directory is served.
const UI_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': JAVASCRIPT,
  'swagger-ui-standalone-preset.js': JAVASCRIPT,
  'favicon-32x32.png': 'image/png',
}

/**
 * Serves the app's OpenAPI 3.1 document (`app.openapi(info)`, built once, on the first request),
 * and optionally Swagger UI. Its own routes are left out of the document.
 *
 * @example
 * @Module({ plugins: [openapiRoute({ path: '/openapi.json', ui: '/docs', info: { title: 'Notes' } })] })
 * class AppModule {}
 */
export function openapiRoute(options: OpenApiRouteOptions = {}): PluginFunction {
  const unknown = options !== null && typeof options === 'object' ? unknownOptions(options, openapiRouteOptions) : null
  if (unknown !== null) throw pluginError('ENC_ERR_OPENAPI_INVALID_OPTIONS', { unknown, known: openapiRouteOptions })
  const path = options.path ?? '/openapi.json'
  if (typeof path !== 'string' || !path.startsWith('/') || (options.ui !== undefined && (typeof options.ui !== 'string' || !options.ui.startsWith('/')))) {
    throw pluginError('ENC_ERR_OPENAPI_INVALID_OPTIONS', { path, ui: options.ui })
  }
  const routes = options.routes ?? 'all'
  if (routes !== 'all' && routes !== 'scope') throw pluginError('ENC_ERR_OPENAPI_INVALID_OPTIONS', { routes })
  const uiDir = options.ui === undefined ? null : swaggerUiDir()
  return async function openapiRoute(scope: Scope) {
    let document: OpenApiDocument | null = null
    const hidden = { config: { openapi: false } }
    // 'scope': the module (scope) the plugin is listed in, whose child scope this plugin runs in.
    const documented = routes === 'scope' ? scope.parent ?? scope : null
    scope.get(path, hidden, function (this: Scope) { return document ??= (documented ?? this).openapi(options.info, { routes }) })
    if (options.ui === undefined || uiDir === null) return
    const ui = options.ui.replace(/\/+$/, '')
    const specUrl = `${scope.prefix}${path}`
    const files = new Map<string, Buffer>()
    // The script that starts Swagger UI is a file, not inline in the page: a Content-Security-Policy
    // of `script-src 'self'` (@fastify/helmet's default) blocks inline scripts, leaving a blank page.
    files.set(INITIALIZER, Buffer.from(initializerScript(specUrl)))
    const page = (_request: Request, reply: Reply): Reply => reply.type('text/html; charset=utf-8').send(indexPage(`${scope.prefix}${ui}`))
    scope.get(ui === '' ? '/' : ui, hidden, page)
    // `/docs/` too: people type it, and trailing slashes are not ignored by default.
    if (ui !== '') scope.get(`${ui}/`, hidden, page)
    scope.get(`${ui}/:file`, hidden, (request: Request, reply: Reply) => {
      const name = String(request.params.file)
      const type = name === INITIALIZER ? JAVASCRIPT : UI_FILES[name]
      if (type === undefined) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `Route GET:${request.url} not found` })
      let content = files.get(name)
      if (content === undefined) files.set(name, content = readFileSync(join(uiDir, name)))
      return reply.type(type).header('cache-control', 'public, max-age=3600').send(content)
    })
  }
}

function swaggerUiDir(): string {
  try {
    // The package directory, found without running the package (its files are all we serve).
    return dirname(require.resolve('swagger-ui-dist/package.json'))
  } catch (cause) {
    throw pluginError('ENC_ERR_OPENAPI_UI_MISSING', undefined, { cause })
  }
}

function initializerScript(specUrl: string): string {
  const spec = JSON.stringify(specUrl).replace(/</g, '\\u003c')
  return `window.ui = SwaggerUIBundle({ url: ${spec}, dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' })\n`
}

/** For an HTML attribute value: the prefix and `ui` come from configuration and may hold `"` or `<`. */
function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function indexPage(url: string): string {
  const base = escapeAttribute(url)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>API documentation</title>
<link rel="stylesheet" href="${base}/swagger-ui.css"><link rel="stylesheet" href="${base}/index.css">
<link rel="icon" type="image/png" href="${base}/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="${base}/swagger-ui-bundle.js"></script><script src="${base}/swagger-ui-standalone-preset.js"></script>
<script src="${base}/${INITIALIZER}"></script>
</body></html>
`
}
