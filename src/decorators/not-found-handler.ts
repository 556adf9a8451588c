import type { NotFoundHandler as RuntimeNotFoundHandler, RequestHook } from '../runtime/types'
import { assertInstanceMethod, declarationError, decoratedWhere } from './declaration-error'
import { getNotFoundHandler, setNotFoundHandler } from './metadata'
import { describeValue } from './module-options'

export interface NotFoundHandlerOptions {
  /** Hooks run before the handler, as `setNotFoundHandler({ preValidation, preHandler }, handler)`. */
  preValidation?: RequestHook | readonly RequestHook[]
  preHandler?: RequestHook | readonly RequestHook[]
}

/**
 * Makes a module method the not-found handler of the module's context, called as
 * `(request, reply)` with `this` = the module instance (so it can use providers). It answers
 * unknown URLs under the module's prefix; elsewhere the parent's handler (or the default 404)
 * answers. A non-root module therefore needs a prefix of its own (`@Module({ prefix })`), or
 * must be lifted into a parent that has one: refused at boot otherwise.
 *
 * @example
 * @Module({ prefix: '/api', controllers: [BooksController] })
 * class ApiModule {
 *   @NotFoundHandler()
 *   notFound(request: Request, reply: Reply) {
 *     reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `No API route ${request.method} ${request.url}` })
 *   }
 * }
 */
export function NotFoundHandler(options: NotFoundHandlerOptions = {}): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    const where = decoratedWhere('@NotFoundHandler()', target, propertyKey)
    assertInstanceMethod(target, descriptor, where, 'not-found-handler')
    const existing = getNotFoundHandler(target.constructor)
    if (existing !== undefined) {
      throw declarationError('ENC_ERR_DECL_NOT_FOUND_HANDLER_DUPLICATE', { where, className: target.constructor.name, existing: String(existing.propertyKey) })
    }
    setNotFoundHandler(target.constructor, { propertyKey, preValidation: hookList(where, options?.preValidation), preHandler: hookList(where, options?.preHandler) })
  }
}

function hookList(where: string, hooks: RequestHook | readonly RequestHook[] | undefined): readonly Function[] {
  const list = hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]
  const bad = list.find((h) => typeof h !== 'function')
  if (bad !== undefined) throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'route-hook-arg', got: describeValue(bad) })
  return list
}

/** The handler type `setNotFoundHandler()` takes, under the same name as the decorator (as `Reply`). */
export type NotFoundHandler = RuntimeNotFoundHandler
