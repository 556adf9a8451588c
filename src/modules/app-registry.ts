import type { DependencyContainer, InjectionToken } from 'tsyringe'
import type { Scope } from '../runtime'
import { describeToken, moduleError } from './module-error'

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
export function resolveProvider<T>(app: Scope, token: InjectionToken<T>, from?: Function): T {
  return resolveFor('resolveProvider', app, token, from)
}

/** resolveProvider() under the name the user called (`t.get` names its module argument the second). */
export function resolveFor<T>(caller: 'resolveProvider' | 't.get', app: Scope, token: InjectionToken<T>, from?: Function): T {
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
  // isRegistered first: tsyringe would otherwise construct a fresh, unmanaged instance of any class.
  if (!container.isRegistered(token, true)) {
    throw moduleError('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE', { resolve: true, caller, token: describeToken(token), module: describeToken(module) })
  }
  return container.resolve(token)
}
