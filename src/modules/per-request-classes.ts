import type { DependencyContainer } from 'tsyringe'
import type { Recipe } from './request-recipes'

/**
 * The guard, hook and interceptor classes of a module container that are request-scoped (they
 * inject a request-scoped provider, directly or through others): recorded by the injector with
 * their recipes, read by the resolvers (route-guards.ts, interceptors.ts), which then build them
 * per request instead of once at boot.
 */
const byContainer = new WeakMap<DependencyContainer, Map<Function, Recipe>>()

export function setPerRequestClass(container: DependencyContainer, type: Function, recipe: Recipe): void {
  let known = byContainer.get(container)
  if (known === undefined) byContainer.set(container, known = new Map())
  known.set(type, recipe)
}

export function perRequestRecipe(container: DependencyContainer, type: Function): Recipe | undefined {
  return byContainer.get(container)?.get(type)
}

/**
 * The hook and interceptor stand-ins that build their class per request: a route that has one
 * gets the request-scope wrapper and the end-of-request release (controller-routes.ts).
 */
const perRequestParts = new WeakSet<object>()

export function markPerRequest<T extends object>(part: T): T {
  perRequestParts.add(part)
  return part
}

export function isPerRequestPart(part: unknown): boolean {
  return typeof part === 'object' || typeof part === 'function' ? perRequestParts.has(part as object) : false
}
