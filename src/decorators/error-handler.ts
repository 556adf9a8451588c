import { DeclarationError, memberName } from './declaration-error'
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
      throw new DeclarationError('ENC_ERR_DECL_STATIC_MEMBER', `${where}: the error handler is an instance method of the module; remove 'static'.`)
    }
    if (typeof descriptor.value !== 'function') {
      throw new DeclarationError('ENC_ERR_DECL_TARGET', `${where}: @ErrorHandler() goes on a method.`)
    }
    const existing = getErrorHandlerKey(target.constructor)
    if (existing !== undefined) {
      throw new DeclarationError('ENC_ERR_DECL_ERROR_HANDLER_DUPLICATE', `${where}: ${target.constructor.name} already has ` +
        `@ErrorHandler() on '${String(existing)}'. A context has one error handler: merge the two methods.`)
    }
    setErrorHandlerKey(target.constructor, propertyKey)
  }
}
