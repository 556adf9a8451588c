import type { DependencyContainer, InjectionToken } from 'tsyringe'
import { describeToken, moduleError } from './module-error'

/** `token` from `container` when the module sees it; else the coded refusal naming `caller` and `module`. */
export function resolveVisible<T>(container: DependencyContainer, token: InjectionToken<T>, caller: 'resolveProvider' | 't.get' | 'moduleRef.get', module: string): T {
  // isRegistered first: tsyringe would otherwise construct a fresh, unmanaged instance of any class.
  if (!container.isRegistered(token, true)) {
    throw moduleError('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE', { resolve: true, caller, token: describeToken(token), module })
  }
  return container.resolve(token)
}
