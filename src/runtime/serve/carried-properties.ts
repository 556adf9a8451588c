import { reservedRequestNames, type RequestImpl } from './request'

/**
 * reply.callNotFound() serves the not-found route on a fresh request object of that route's
 * scope, where Fastify 3 keeps the one request (it only swaps its context). What hooks and the
 * handler set on it so far (`request.user` from an auth hook, `request.trace = []` without a
 * decorator) is carried over, so the not-found handler and its hooks see them as in Fastify.
 * Not carried: the framework's own fields, and a decorator the not-found route's scope cannot
 * see (declared only in a child scope), which stays `undefined` there (spec 3.3).
 */
export function carryRequestProperties(from: RequestImpl, to: RequestImpl): void {
  const declaredOnFrom = Object.getPrototypeOf(from) as object
  const target = to as unknown as Record<string | symbol, unknown>
  const source = from as unknown as Record<string | symbol, unknown>
  for (const key of Reflect.ownKeys(from)) {
    if (typeof key === 'string' && reservedRequestNames.has(key)) continue
    if (!Object.prototype.propertyIsEnumerable.call(from, key)) continue
    if (key in declaredOnFrom && !(key in to)) continue
    const value = source[key]
    // A getter without a setter the not-found scope declares (and the calling one does not) refuses
    // the assignment: the value the hook set is kept as an own property, as on Fastify 3's one request.
    if (!Reflect.set(target, key, value)) Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
  }
}
