import { assertInstanceMethod, declarationError, decoratedWhere } from './declaration-error'
import { getErrorHandlerKey, setErrorContentType, setErrorHandlerKey, setErrorResponses } from './metadata'
import { isMediaType } from '../runtime/shared/media-type'
import type { JsonSchema } from '../runtime/schemas/types'

export interface ErrorHandlerOptions {
  /**
   * What the handler answers, by status (`{ 422: schema }`): `openapi()` documents these on every
   * route the handler covers, in place of the framework's own error body for the same status.
   */
  responses?: Readonly<Record<number | string, JsonSchema>>
  /**
   * The media type its answers carry (`'application/problem+json'`, RFC 9457): `openapi()` documents
   * every error response the handler covers under it, the framework's own statuses (400, 404, 413,
   * 415, 500...) included, since they reach the handler too. Default: `application/json`.
   */
  contentType?: string
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
    const where = decoratedWhere('@ErrorHandler()', target, propertyKey)
    assertInstanceMethod(target, descriptor, where, 'error-handler')
    const existing = getErrorHandlerKey(target.constructor)
    if (existing !== undefined) {
      throw declarationError('ENC_ERR_DECL_ERROR_HANDLER_DUPLICATE', { where, className: target.constructor.name, existing: String(existing) })
    }
    const responses = options?.responses
    if (responses !== undefined && (responses === null || typeof responses !== 'object' || Object.keys(responses).some((k) => !/^([1-5]\d\d|[1-5]xx|default)$/i.test(k)))) {
      throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'error-handler-responses', got: JSON.stringify(Object.keys(responses ?? {})) })
    }
    const contentType = options?.contentType
    if (contentType !== undefined && (typeof contentType !== 'string' || !isMediaType(contentType))) {
      throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'error-handler-content-type', got: JSON.stringify(contentType) })
    }
    setErrorHandlerKey(target.constructor, propertyKey)
    if (contentType !== undefined) setErrorContentType(target.constructor, contentType)
    if (responses !== undefined) setErrorResponses(target.constructor, responses)
  }
}
