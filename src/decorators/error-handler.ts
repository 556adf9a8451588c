import { DeclarationError, memberName } from './declaration-error'
import { getErrorHandlerKey, setErrorHandlerKey, setErrorResponses } from './metadata'
import type { JsonSchema } from '../runtime/schemas/types'

export interface ErrorHandlerOptions {
  /**
   * What the handler answers, by status (`{ 422: schema }`): `openapi()` documents these on every
   * route the handler covers, in place of the framework's own error body for the same status.
   */
  responses?: Readonly<Record<number | string, JsonSchema>>
}

/**
 * Makes a module method the error handler of the module's context, called as
 * `(error, request, reply)` with `this` = the module instance. It handles errors of the module's
 * routes and of descendants that have none; if it throws, the next handler up takes over.
 *
 * @example
 * @Module({ controllers: [OrdersController] })
 * class OrdersModule {
 *   @ErrorHandler({ responses: { 422: { type: 'object', properties: { message: { type: 'string' } } } } })
 *   onError(error: Error & { validation?: unknown }, request: Request, reply: Reply) {
 *     if (error.validation === undefined) throw error
 *     reply.code(422).send({ statusCode: 422, error: 'Unprocessable Entity', message: error.message })
 *   }
 * }
 */
export function ErrorHandler(options: ErrorHandlerOptions = {}): MethodDecorator {
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
    const responses = options?.responses
    if (responses !== undefined && (responses === null || typeof responses !== 'object' || Object.keys(responses).some((k) => !/^([1-5]\d\d|[1-5]xx|default)$/i.test(k)))) {
      throw new DeclarationError('ENC_ERR_DECL_TARGET', `${where}: responses maps a status (422, '4xx' or 'default') to a JSON Schema, got ${JSON.stringify(Object.keys(responses ?? {}))}.`)
    }
    setErrorHandlerKey(target.constructor, propertyKey)
    if (responses !== undefined) setErrorResponses(target.constructor, Object.fromEntries(Object.entries(responses).map(([k, v]) => [k.toLowerCase(), v])))
  }
}
