import { getControllerMeta, getOwnRoutes, type RouteMeta } from '../decorators/internal'
import { joinPaths, walk, type ModuleNode } from '../modules/module-tree'
import { isBearerAuth } from '../plugins'
import type { JsonSchema } from '../runtime/schemas/types'
import { operationFor, type OperationInput } from './operation'
import { toDocumentSchema } from './schema-refs'
import { hoistDefinitions, repointRefs } from './hoist-definitions'

export interface OpenApiInfo { title?: string; version?: string; description?: string }
export type OpenApiDocument = Record<string, unknown> & { openapi: '3.1.0'; paths: Record<string, Record<string, unknown>> }

/** The error contract of every framework answer (`{ statusCode, error, message, code? }`), one component. */
export const errorReplyComponent = 'EnclaveErrorReply'
const errorReplySchema = {
  type: 'object',
  required: ['statusCode', 'error', 'message'],
  properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' }, code: { type: 'string' } },
}

/**
 * An OpenAPI 3.1 document of the routes declared by a module tree: one tag per module (its path
 * in the tree), shared schemas as components named by their `$id`, request parts as parameters and
 * a JSON body, the declared responses per status plus the answers the framework itself gives on
 * that route (400 validation, 401 where bearerAuth guards it, 413/415 for bodies, 500), and the
 * bearer security scheme on guarded routes. Routes added through the runtime API inside plain
 * plugins are not in the tree and not in the document.
 */
export function buildOpenApiDocument(tree: ModuleNode, info: OpenApiInfo = {}): OpenApiDocument {
  const shared: Record<string, JsonSchema> = {}
  for (const node of walk(tree)) for (const schema of node.schemas) if (!(schema.$id in shared)) shared[schema.$id] = schema
  const components: Record<string, unknown> = { [errorReplyComponent]: errorReplySchema }
  for (const [id, schema] of Object.entries(shared)) components[id] = toDocumentSchema(schema, `#/components/schemas/${escape(id)}`, shared)

  const paths: Record<string, Record<string, unknown>> = {}
  const tags: Array<{ name: string }> = []
  let guardedAny = false
  for (const node of walk(tree)) {
    const guarded = isGuarded(node)
    for (const controller of node.controllers) {
      const controllerPrefix = getControllerMeta(controller)?.prefix ?? ''
      for (const route of routesOf(controller)) {
        const url = joinPaths([prefixOf(node), controllerPrefix], route.path)
        for (const method of route.methods) {
          const input: OperationInput = { node, controller, route, method, url, guarded, shared, components }
          const item = (paths[openApiPath(url)] ??= {})
          item[method.toLowerCase()] = operationFor(input)
          guardedAny ||= guarded
        }
      }
    }
    if (node.controllers.length > 0) tags.push({ name: node.path })
  }
  hoistDefinitions(components)
  repointRefs(paths)
  return {
    openapi: '3.1.0',
    info: { title: info.title ?? tree.type.name, version: info.version ?? '1.0.0', ...(info.description === undefined ? {} : { description: info.description }) },
    tags,
    paths,
    components: {
      schemas: components,
      ...(guardedAny ? { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } } : {}),
    },
  }
}

/** A module's routes are guarded when it or an ancestor lists bearerAuth() in its plugins. */
function isGuarded(node: ModuleNode): boolean {
  for (let n: ModuleNode | null = node; n !== null; n = n.parent) {
    if (n.entries.some((e) => e.kind === 'plugin' && isBearerAuth(e.plugin))) return true
  }
  return false
}

function prefixOf(node: ModuleNode): string {
  return (node.parent === null ? '' : prefixOf(node.parent)) + node.meta.prefix
}

/** Own and inherited route methods; a method redecorated in a subclass replaces the base's routes. */
function routesOf(controller: Function): RouteMeta[] {
  const found: RouteMeta[] = []
  const overridden = new Set<string | symbol>()
  for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const own = getOwnRoutes(c as Function).filter((r) => !overridden.has(r.propertyKey))
    found.push(...own)
    for (const r of own) overridden.add(r.propertyKey)
  }
  return found
}

/** `/notes/:id` -> `/notes/{id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1')
}
