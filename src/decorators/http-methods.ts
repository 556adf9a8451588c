import type { RouteSchema } from '../runtime/schemas/types'
import type { TypedRouteSchema } from '../runtime/typed-schemas'
import type { WithPath } from '../runtime/path-params-type'
import type { RouteDecoratorFor } from './socket-fit'
import { declareRouteMethod } from './route-method'
import type { DecoratorRouteOptions, HttpMethodName } from './types'

/**
 * `@Get(path, options)`: the options' schema types the check of the decorated method; `websocket: true`
 * (a literal, @fastify/websocket) checks it as `(socket, request)` (socket-fit.ts).
 */
// `Path`: the path literal, whose parameters a whole `@Params()` parameter is checked against when
// the route has no params schema (handler-fit.ts); a path that is no literal checks as before.
export type RouteShortcut = <S extends TypedRouteSchema = RouteSchema, W extends boolean = false, const Path extends string = string, FO = never, FV = never, FH = never>(path?: Path, options?: DecoratorRouteOptions<S, W, FO, FV, FH>) => RouteDecoratorFor<WithPath<S, Path>, W>

function shortcut(method: HttpMethodName, name: string): RouteShortcut {
  return (path, options = {}) => ((target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor) => {
    declareRouteMethod(name, target, propertyKey, descriptor, { methods: [method], path, options: options as Record<string, unknown> })
  }) as never
}

/**
 * Route shortcuts: `@Get(path, options?)` is `@Route({ method: 'GET', path, ...options })`.
 * The path is joined to the controller's prefix; an empty path is the prefix itself. A method
 * whose parameters or return type do not fit the route's schema does not compile.
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
