import { assertInstanceMethod, declarationError, decoratedWhere } from './declaration-error'
import { setMethodHttpCode } from './metadata'
import { describeValue } from './module-options'

/** A route method decorator (the method's own, whatever route decorators sit beside it). */
export type HttpCodeDecorator = (target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor) => void

/**
 * The status a route method answers when it does not set one (NestJS's `@HttpCode`): set on the
 * reply before the method runs, so `reply.code()` in the method still wins and errors keep
 * theirs. The OpenAPI document lists it as the route's success response (`@HttpCode(204)` on a
 * delete is documented as 204, with no body) instead of the 200 a route without response schema gets.
 *
 * @example
 * @HttpCode(204) @Delete('/:id') remove(@Params('id') id: string) { this.store.delete(id) }
 */
export function HttpCode(status: number): HttpCodeDecorator {
  return (target, propertyKey, descriptor) => {
    const where = decoratedWhere('@HttpCode()', target, propertyKey)
    assertInstanceMethod(target, descriptor, where, 'route')
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
      throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'status', got: describeValue(status) })
    }
    setMethodHttpCode(target.constructor, propertyKey, status)
  }
}
