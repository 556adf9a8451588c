import type { DependencyContainer, InjectionToken } from 'tsyringe'
import type { Request, Scope } from '../runtime'
import type { ProviderToken } from '../decorators/internal'
import { describeToken, moduleError } from './module-error'
import { requestContainer, resolveInRequest } from './request-resolve'
import { resolveVisible } from './resolve-visible'
import { injectionToken } from './provider-token'

/** Each app createApp() booted -> its modules' containers (by module class), for resolveProvider(). */
const apps = new WeakMap<Scope, { root: Function; containers: ReadonlyMap<Function, DependencyContainer> }>()

export function registerApp(app: Scope, root: Function, containers: ReadonlyMap<Function, DependencyContainer>): void {
  apps.set(app, { root, containers })
}

/**
 * The instance a module of a booted app sees for `token`: typed by the token, the same singleton
 * the app's controllers got. `from` (default the root module) picks whose view: a provider of a
 * child module is visible from that module, not from the root (the rule every module follows).
 *
 * @example
 * const users = resolveProvider(app, UserService)            // UserService
 * const audit = resolveProvider(app, AuditLog, AdminModule)  // provided inside AdminModule
 */
export function resolveProvider<T>(app: Scope, token: ProviderToken<T>, from?: Function): T
/**
 * In a runtime-API handler: the instance the module serving the request sees for `token`, a
 * promise. A request-scoped provider is built for this request (shared with its request-scoped
 * guards) and needs the handler wrapped in withRequestScope(), which releases it at the end.
 *
 * @example
 * app.get('/notes', withRequestScope(async (request) => (await resolveProvider(request, Notes)).list()))
 */
export function resolveProvider<T>(request: Request, token: ProviderToken<T>): Promise<T>
export function resolveProvider<T>(target: Scope | Request, token: ProviderToken<T>, from?: Function): T | Promise<T> {
  if (!apps.has(target as Scope)) {
    const container = requestContainer(target)
    if (container !== undefined) return resolveInRequest(target as Request, container, injectionToken(token))
  }
  return resolveFor('resolveProvider', target as Scope, token, from)
}

/** resolveProvider() under the name the user called (`t.get` names its module argument the second). */
export function resolveFor<T>(caller: 'resolveProvider' | 't.get', app: Scope, token: ProviderToken<T>, from?: Function): T {
  const entry = apps.get(app)
  if (entry === undefined) {
    throw moduleError('ENC_ERR_MODULE_NOT_AN_APP', { case: 'not-an-app' })
  }
  const module = from ?? entry.root
  const container = entry.containers.get(module)
  if (container === undefined) {
    throw moduleError('ENC_ERR_MODULE_NOT_AN_APP', {
      case: 'not-a-module', caller, token: describeToken(token), module: describeToken(module), root: entry.root.name, modules: [...entry.containers.keys()].map((m) => m.name),
    })
  }
  return resolveVisible(container, injectionToken(token), caller, describeToken(module))
}
