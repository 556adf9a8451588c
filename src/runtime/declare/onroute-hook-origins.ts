import { requestHookNames } from '../shared/bound-hook'
import type { RouteOptions } from '../types'

/** Who put a hook into a route's options from an onRoute hook: the plugin that registered that onRoute hook. */
export interface OnRouteHookOrigin {
  readonly origin: string
  readonly scope: string
}

/** Every request-path hook function in the route options (a hook option is one function or an array). */
export function routeOptionHooks(options: RouteOptions): Set<Function> {
  const found = new Set<Function>()
  const bag = options as unknown as Record<string, unknown>
  for (const name of requestHookNames) {
    const value = bag[name]
    if (typeof value === 'function') found.add(value)
    else if (Array.isArray(value)) for (const fn of value) if (typeof fn === 'function') found.add(fn)
  }
  return found
}

/**
 * Records, for introspection, the hooks one onRoute hook added to the route options (those not
 * there before it ran), so explain() names the plugin instead of an anonymous route option
 * (@fastify/rate-limit adds its onRequest this way). Declaration time only: serving never reads it.
 */
export function noteAddedHooks(options: RouteOptions, before: ReadonlySet<Function>, into: Map<Function, OnRouteHookOrigin>, by: OnRouteHookOrigin): void {
  for (const fn of routeOptionHooks(options)) if (!before.has(fn) && !into.has(fn)) into.set(fn, by)
}
