import type { DependencyContainer, InjectionToken } from 'tsyringe'
import type { Handler, Request, Scope } from '../runtime'
import { describeToken, moduleError } from './module-error'
import { existingInstances, inRequestScope } from './request-instances'
import { resolveVisible } from './resolve-visible'
import type { Recipe } from './request-recipes'
import { REQUEST } from './request-token'

/** Each module's scope -> its container (a lifted module shares its parent's scope and container). */
const moduleScopes = new WeakMap<object, DependencyContainer>()
/**
 * Per module container: the recipe of a request-scoped token, or null for a singleton; and the
 * recipe of a transient token (its alias followed), or null for any other.
 */
export interface RequestRecipes {
  readonly scoped: (token: unknown) => Recipe | null
  readonly transient: (token: unknown) => Recipe | null
}
const recipesByContainer = new WeakMap<DependencyContainer, RequestRecipes>()

export function registerModuleScope(scope: Scope, container: DependencyContainer): void {
  if (!moduleScopes.has(scope)) moduleScopes.set(scope, container)
}

export function registerRequestRecipes(container: DependencyContainer, recipes: RequestRecipes): void {
  recipesByContainer.set(container, recipes)
}

/**
 * The container of the module whose scope serves `request`: the route's scope or the nearest
 * ancestor a module applied (a usePlugin() plugin's routes see their module's providers; a route
 * declared on the app, the root module's). Undefined when `value` is no request of a createApp() app.
 */
export function requestContainer(value: unknown): DependencyContainer | undefined {
  const server = (value as { server?: unknown } | null)?.server
  for (let scope = server as { parent?: unknown } | null | undefined; typeof scope === 'object' && scope !== null; scope = scope.parent as typeof scope) {
    const container = moduleScopes.get(scope)
    if (container !== undefined) return container
  }
  return undefined
}

/**
 * resolveProvider(request, token): a singleton as it is, a request-scoped provider from the
 * request's instances (the same one a guard or controller of the route got), a transient one built
 * anew for the request (its consumer) and released with it. Request-scoped and transient ones need
 * the handler wrapped in withRequestScope(), which releases them at the end.
 */
export async function resolveInRequest<T>(request: Request, container: DependencyContainer, token: InjectionToken<T>): Promise<T> {
  if (token === (REQUEST as unknown)) return request as T
  const recipes = recipesByContainer.get(container)
  const transient = recipes?.transient(token) ?? null
  const recipe = transient ?? recipes?.scoped(token) ?? null
  if (recipe === null) return resolveVisible(container, token, 'resolveProvider', 'the module serving this route')
  const instances = existingInstances(request)
  if (instances === undefined || !instances.owned) return outside(token)
  return await (transient !== null ? instances.fresh(transient) : instances.get(recipe)) as T
}

function outside(token: unknown): never {
  throw moduleError('ENC_ERR_MODULE_REQUEST_SCOPE', { case: 'outside-scope', subject: describeToken(token) })
}

/**
 * A runtime-API handler that may resolve request-scoped providers (`await resolveProvider(request,
 * Tenant)`): what it resolves is built per request, shared within it (with the route's
 * request-scoped guards too), and released newest first once the handler settled, with
 * `{ failed, error }`, as a decorator route's (docs/request-scope.md, "Request-scoped providers").
 *
 * @example
 * app.get('/notes', withRequestScope(async (request) => (await resolveProvider(request, Notes)).list()))
 */
export function withRequestScope<H extends (...args: any[]) => unknown>(handler: H): H {
  const wrapped = inRequestScope(null, handler as unknown as Handler)
  Object.defineProperty(wrapped, 'name', { value: handler.name })
  return wrapped as unknown as H
}
