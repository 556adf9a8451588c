/**
 * Fastify 3's router (find-my-way 4) hands `request.params` as a plain object, so ported code
 * calls `request.params.hasOwnProperty('id')` or `params.toString()`; find-my-way 9 builds them
 * with a null-prototype chain, where those throw (a 500). The keys are the route's declared
 * parameter names, not the client's choice, so Object.prototype brings no attacker-chosen key:
 * the values are copied into a plain object. A parameter declared `__proto__` stays an own
 * property (defined, not assigned), so it can never set the object's prototype.
 */
export function plainParams(params: Record<string, unknown>): Record<string, unknown> {
  const plain: Record<string, unknown> = {}
  for (const key in params) {
    if (key === '__proto__') Object.defineProperty(plain, key, { value: params[key], writable: true, enumerable: true, configurable: true })
    else plain[key] = params[key]
  }
  return plain
}
