import type { Reply, Request } from '../runtime/types'
import { declarationError, decoratedWhere } from './declaration-error'
import { addClassInterceptors, addMethodInterceptors } from './metadata'
import type { Class } from './types'

/**
 * What an interceptor's `intercept()` is given about the call it wraps: NestJS's ExecutionContext,
 * reduced to what an HTTP route has. `switchToHttp().getRequest()` is `request`, `getClass()` is
 * `controller`, `getHandler()` is `handler` (its name is `method`); route metadata is read from the
 * request as in a guard (`Roles.of(context.request)`). One object per intercepted request.
 */
export interface InterceptorContext {
  readonly request: Request
  readonly reply: Reply
  /** The controller class serving the route (the subclass when the route method is inherited). */
  readonly controller: Class
  /** The route method's name on the controller. */
  readonly method: string | symbol
  /** The route method itself (the controller's own, an override included). */
  readonly handler: Function
}

/**
 * Calls the next interceptor, or the route method when none is left, and gives a promise of its
 * result (what the method returned or resolved to); it rejects with what the method threw. NestJS's
 * `next.handle()` without the Observable: `await next()` is `pipe(map(...))`, a try/catch around it
 * is `catchError`, and not calling it at all is a cache hit.
 */
export type CallHandler = () => Promise<unknown>

/** A provider (it may inject services) whose `intercept()` wraps the route method's call. */
export interface Interceptor {
  intercept(context: InterceptorContext, next: CallHandler): unknown
}

/** A class whose instances intercept: what `@UseInterceptors()` takes. */
export type InterceptorClass = abstract new (...args: any[]) => Interceptor

/** On a module class, a controller class or one of its route methods. */
export type UseInterceptorsDecorator = (target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => void

/**
 * NestJS's `@UseInterceptors(A, B)`: around advice for the route method's call, after the guards
 * (route hooks) and validation, inside the handler's turn; custom parameter factories (NestJS's
 * pipes) run inside `next()`, as pipes run after interceptors in NestJS. On a route method (that route), a
 * controller class (each of its routes) or a module class (every controller route of the module
 * and its descendants). Order, outermost first: module classes (outermost module first), the
 * controller (base classes first), the method; within one decorator A wraps B, and stacked
 * decorators apply in source order (the top one outermost). What `intercept()` returns (or resolves
 * to) is the route's answer and goes through its response schema. Interceptor classes are
 * providers, resolved at boot from the declaring module's container; a route without any is
 * served as before, without a wrapper. Checked at boot (`ENC_ERR_MODULE_INTERCEPTOR_INVALID`).
 *
 * @example
 * \@injectable() class Envelope implements Interceptor {
 *   async intercept(_context: InterceptorContext, next: CallHandler) { return { data: await next() } }
 * }
 * \@UseInterceptors(Envelope) @Get('/') list() { return this.books.all() }
 */
export function UseInterceptors(...interceptors: InterceptorClass[]): UseInterceptorsDecorator {
  const list = [...interceptors] as readonly Function[]
  return (target, propertyKey, descriptor) => {
    const where = decoratedWhere('@UseInterceptors()', target, propertyKey)
    if (propertyKey === undefined) {
      addClassInterceptors(target as Function, list)
      return
    }
    if (typeof target === 'function') throw declarationError('ENC_ERR_DECL_STATIC_MEMBER', { where, member: 'route' })
    if (descriptor === undefined || typeof descriptor.value !== 'function') {
      throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'route-on-property' })
    }
    addMethodInterceptors(target.constructor, propertyKey, list)
  }
}
