import { runtimeError } from '../errors/runtime-codes'
import type { ScopeImpl } from './scope'
import { assertHook } from './hooks'
import { currentOrigin } from './scope-origin'
import type { NotFoundHandler, NotFoundOptions, TypedNotFoundHandler } from '../types'

/**
 * What `errorHandler` gives where no scope set one. The built-in reply lives in serve/, out of
 * declare/'s reach; called from an error handler it rethrows, so the error goes on to the next
 * handler and, at the end, to the built-in reply, as a throw from any error handler does.
 */
export function builtInErrorHandler(error: Error): never {
  throw error
}

/** What every set...() does first: declarable, given a function; records who set it. */
export function checkSetter(scope: ScopeImpl, method: string, fn: unknown): void {
  scope.assertDeclarable(`${method}()`)
  if (typeof fn !== 'function') throw runtimeError('ENC_ERR_ROUTE_INVALID', { setter: method, path: scope.path, got: typeof fn })
  scope.origins.set(method, currentOrigin(scope))
}

/** Fastify's `setNotFoundHandler(handler)` or `setNotFoundHandler({ preValidation, preHandler }, handler)`. */
export function setNotFoundHandler(scope: ScopeImpl, a: TypedNotFoundHandler<any, any> | NotFoundOptions<any, any>, b?: TypedNotFoundHandler<any, any>): void {
  const options = typeof a === 'function' ? {} : a ?? {}
  const fn = typeof a === 'function' ? a : b as NotFoundHandler
  checkSetter(scope, 'setNotFoundHandler', fn)
  if (scope.notFoundHandler !== null) {
    throw runtimeError('ENC_ERR_NOT_FOUND_DUPLICATE', { path: scope.path, existing: `${scope.path} (this scope, called twice)`, prefix: scope.prefix })
  }
  for (const name of ['preValidation', 'preHandler'] as const) {
    const hooks = options[name]
    for (const hook of hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]) assertHook(name, hook, scope.path)
  }
  // Unknown URLs are attributed to a scope by prefix only. With its parent's prefix this scope
  // would answer the parent's unknown URLs too, which an ancestor must never see (spec §3.3.3).
  if (scope.parent !== null && scope.prefix === scope.parent.prefix) {
    throw runtimeError('ENC_ERR_NOT_FOUND_NO_PREFIX', { path: scope.path, prefix: scope.prefix })
  }
  scope.notFoundHandler = fn
  scope.notFoundOptions = { preValidation: options.preValidation, preHandler: options.preHandler }
}
