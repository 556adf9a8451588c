import type { RouteShorthandOptions } from '../runtime/types'
import { declareRouteMethod } from './route-method'
import type { HttpMethodName } from './types'

export type RouteShortcut = (path?: string, options?: RouteShorthandOptions) => MethodDecorator

function shortcut(method: HttpMethodName, name: string): RouteShortcut {
  return (path, options = {}) => (target, propertyKey, descriptor) => {
    declareRouteMethod(name, target, propertyKey, descriptor, { methods: [method], path, options: options as Record<string, unknown> })
  }
}

/**
 * Route shortcuts: `@Get(path, options?)` is `@Route({ method: 'GET', path, ...options })`.
 * The path is joined to the controller's prefix; an empty path is the prefix itself.
 *
 * @example
 * @Post('/', { schema: { body: { $ref: 'newItem#' } } })
 * create(request: Request, reply: Reply) { reply.code(201); return this.items.add(request.body) }
 */
export const Get = shortcut('GET', 'Get')
export const Head = shortcut('HEAD', 'Head')
export const Post = shortcut('POST', 'Post')
export const Put = shortcut('PUT', 'Put')
export const Patch = shortcut('PATCH', 'Patch')
export const Delete = shortcut('DELETE', 'Delete')
export const Options = shortcut('OPTIONS', 'Options')
