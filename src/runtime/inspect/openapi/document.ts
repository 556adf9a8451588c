import type { Inspection, RouteInspection } from '../../shared/introspection'
import type { OpenApiDocument, OpenApiInfo } from '../../shared/openapi-types'
import { ComponentNames } from './component-names'
import { convertSchema } from './convert-schema'
import { ERROR_COMPONENT, errorPayloadSchema } from './error-contract'
import { buildOperation } from './operation'
import { pathTemplate } from './path-template'
import { hoistDefinitions } from './hoist'

/**
 * The OpenAPI 3.1 document of a booted server: one operation per route method (implicit HEAD
 * routes, routes with `config: { openapi: false }` and routes whose schema says `hide: true`
 * left out), shared schemas as components
 * named by `$id`, one tag per module (its path in the tree), the security schemes guard hooks
 * declare, and the error contract of each route. With `within` (a scope path), only the routes of
 * that scope and its descendants, and the shared schemas they can see: a `/v1` module's own
 * document, as @fastify/swagger documents the context it is registered in.
 */
export function buildOpenApi(whole: Inspection, info: OpenApiInfo = {}, within?: string): OpenApiDocument {
  const inspection = within === undefined ? whole : narrowed(whole, within)
  const names = new ComponentNames(inspection.schemas)
  const schemas: Record<string, Record<string, unknown>> = {}
  for (const s of inspection.schemas) {
    const name = names.of(s.id, s.scope)!
    const visible = inspection.schemas.filter((other) => inScope(s.scope, other.scope))
      .map((other) => ({ name: other.id, scope: other.scope, origin: other.origin }))
    schemas[name] = convertSchema(s.schema, { resolve: (id) => names.resolve(id, visible), componentPath: `#/components/schemas/${name}` })
  }
  schemas[ERROR_COMPONENT] = errorPayloadSchema

  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: info.title ?? inspection.root.path, version: info.version ?? '1.0.0' },
    tags: [],
    paths: {},
    components: { schemas },
  }
  if (info.description !== undefined) document.info.description = info.description
  if (info.servers !== undefined) document.servers = info.servers.map((s) => ({ ...s }))

  const usedIds = new Set<string>()
  const securitySchemes: Record<string, Record<string, unknown>> = {}
  for (const route of inspection.routes) {
    // `schema.hide` is @fastify/swagger's opt-out, and what plugins set on their own routes
    // (@fastify/cors's `OPTIONS *` preflight catch-all): honoured as that generator does.
    if (route.implicit || route.config.openapi === false || route.docs.hide === true) continue
    const tag = tagOf(route)
    if (!document.tags.some((t) => t.name === tag)) document.tags.push({ name: tag, description: `Routes declared by ${tag} (scope ${route.scope}).` })
    const template = pathTemplate(route.url).template
    const operation = buildOperation(route, { names, schemas: inspection.schemas, tag, operationId: operationId(route, usedIds) })
    document.paths[template] ??= {}
    document.paths[template][route.method.toLowerCase()] = operation
    for (const s of route.security) securitySchemes[s.name] = { ...s.scheme }
  }
  if (Object.keys(securitySchemes).length > 0) document.components.securitySchemes = securitySchemes
  hoistDefinitions(document)
  return document
}

/** The routes of `scope` and below; the schemas of `scope`, its ancestors and descendants (not a sibling's). */
function narrowed(inspection: Inspection, scope: string): Inspection {
  return { ...inspection, routes: inspection.routes.filter((r) => inScope(r.scope, scope)), schemas: inspection.schemas.filter((s) => inScope(s.scope, scope) || inScope(scope, s.scope)) }
}

/** Whether the scope at `path` is `ancestor` or below it. */
function inScope(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor} > `)
}

/** The module that declared the route (its path in the tree); a route a plain plugin declared is tagged with its scope. */
function tagOf(route: RouteInspection): string {
  return route.origin.startsWith('plugin ') ? route.scope : route.origin
}

/** `schema.operationId`, else `postNotesById`: stable, unique within the document. */
function operationId(route: RouteInspection, used: Set<string>): string {
  const declared = typeof route.docs.operationId === 'string' ? route.docs.operationId : null
  const words = route.url.split('/').filter((s) => s !== '').map((segment) => {
    const param = /^:([A-Za-z0-9_]+)/.exec(segment)
    const word = param !== null ? `by_${param[1]}` : segment === '*' ? 'wildcard' : segment
    return word.split(/[^A-Za-z0-9]+/).filter((w) => w !== '').map((w) => w[0].toUpperCase() + w.slice(1)).join('')
  })
  const base = declared ?? route.method.toLowerCase() + words.join('')
  let id = base
  for (let i = 2; used.has(id); i++) id = `${base}${i}`
  used.add(id)
  return id
}
