import 'reflect-metadata' // before tsyringe, which refuses to load without it
import { injectable } from 'tsyringe'
import { declarationError } from './declaration-error'
import type { ProviderScope } from './types'

const requestScoped = new WeakSet<Function>()

/**
 * NestJS's `@Injectable({ scope: Scope.REQUEST })`: the class is built once per request that needs
 * it (shared by every consumer within that request) instead of once at boot. Listing it in a
 * module's providers is enough: it is also `@injectable()`. Whoever injects it becomes
 * request-scoped in turn (a controller, a guard, an interceptor too: one per request); what is
 * built once at boot (a module class, usePlugin options) may not inject it (docs/request-scope.md, "Request-scoped providers").
 *
 * @example
 * \@RequestScoped()
 * class TenantContext { constructor(@inject(REQUEST) readonly request: Request) {} }
 */
export function RequestScoped(): ClassDecorator {
  return (target) => {
    injectable()(target as never)
    requestScoped.add(target)
  }
}

const transient = new WeakSet<Function>()

/**
 * NestJS's `@Injectable({ scope: Scope.TRANSIENT })`: a fresh instance for each consumer (each
 * class, factory or request-scoped instance that injects it), built when that consumer is: once,
 * at boot, for a singleton consumer; per request for a request-scoped one. `@inject(INQUIRER)`
 * gives it the consumer's class. It is also `@injectable()` (docs/request-scope.md, "Transient providers").
 *
 * @example
 * \@Transient()
 * class ScopedLogger { constructor(@inject(INQUIRER) readonly owner: Function | undefined) {} }
 */
export function Transient(): ClassDecorator {
  return (target) => {
    injectable()(target as never)
    transient.add(target)
  }
}

/** Whether `target` itself carries @Transient() (not inherited, as @RequestScoped()). */
export function isTransientClass(target: Function): boolean {
  return transient.has(target)
}

/** Whether `target` itself carries @RequestScoped() (a subclass does not inherit it: it declares its own scope). */
export function isRequestScopedClass(target: Function): boolean {
  return requestScoped.has(target)
}

const scopes: readonly ProviderScope[] = ['singleton', 'request', 'transient']

/** Whether `value` is a provider scope Enclave knows (a declaration's or an override's). */
export function isProviderScope(value: unknown): value is ProviderScope {
  return scopes.includes(value as ProviderScope)
}

/**
 * Checks a provider entry's `scope` at declaration: only the three Enclave knows. NestJS's enum
 * members and spellings get the nearest one named.
 */
export function checkProviderScope(module: string, entry: string, scope: unknown): void {
  if (scope === undefined || isProviderScope(scope)) return
  const text = typeof scope === 'string' ? scope : typeof scope === 'number' ? String(scope) : ''
  const lower = text.toLowerCase()
  const hint = lower === 'request' || lower === '2' ? "Did you mean 'request'? (NestJS's Scope.REQUEST)"
    : lower === 'default' || lower === '0' || lower === 'singleton' ? "Did you mean 'singleton'? (NestJS's Scope.DEFAULT; the default, so it may be left out)"
    : lower === 'transient' || lower === '1' ? "Did you mean 'transient'? (NestJS's Scope.TRANSIENT)"
    : "Use 'request' (built per request), 'transient' (one per consumer) or leave scope out (one instance, built at boot)."
  throw declarationError('ENC_ERR_DECL_PROVIDER_SCOPE', { name: module, entry, got: typeof scope === 'string' ? `'${scope}'` : String(scope), hint })
}
