import { declarationError, memberName } from './declaration-error'
import { getErrorHandlerKey, setErrorHandlerKey } from './metadata'

/**
 * Makes a module method the error handler of the module's context, called as
 * `(error, request, reply)` with `this` = the module instance. It handles errors of the module's
 * routes and of descendants that have none; if it throws, the next handler up takes over.
 *
 * @example
 * @Module({ controllers: [OrdersController] })
 * class OrdersModule {
 *   @ErrorHandler()
 *   onError(error: Error & { validation?: unknown }, request: Request, reply: Reply) {
 *     if (error.validation === undefined) throw error
 *     reply.code(422).send({ statusCode: 422, error: 'Unprocessable Entity', message: error.message })
 *   }
 * }
 */
export function ErrorHandler(): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    const where = `@ErrorHandler() on ${memberName(target, propertyKey)}`
    if (typeof target === 'function') {
      throw declarationError('ENC_ERR_DECL_STATIC_MEMBER', { where, member: 'error-handler' })
    }
    if (typeof descriptor.value !== 'function') {
      throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'error-handler-on-property' })
    }
    const existing = getErrorHandlerKey(target.constructor)
    if (existing !== undefined) {
      throw declarationError('ENC_ERR_DECL_ERROR_HANDLER_DUPLICATE', { where, className: target.constructor.name, existing: String(existing) })
    }
    setErrorHandlerKey(target.constructor, propertyKey)
  }
}
