import 'reflect-metadata' // before tsyringe, which refuses to load without it
import { Lifecycle, container as globalContainer } from 'tsyringe'

/**
 * tsyringe's `@scoped(Lifecycle.ResolutionScoped | ContainerScoped)` (and `@registry` entries
 * registering a class for itself with a lifecycle) record the lifecycle in tsyringe's *global*
 * container. Enclave registers every class provider as a singleton of its declaring module, so
 * that lifecycle would be dropped without a word: a NestJS `Scope.REQUEST` habit ported as
 * `@scoped(Lifecycle.ResolutionScoped)` would give one instance shared by every request.
 * `@singleton()` registers `Lifecycle.Singleton`, which a module provider keeps (one per module),
 * so it is not reported.
 */
interface Registration { readonly provider?: { readonly useClass?: unknown }; readonly options?: { readonly lifecycle?: Lifecycle } }
interface RegistrationReader { getRegistration?(token: unknown): Registration | null }

/** The lifecycle tsyringe's global container holds for `target` as its own class, when not Singleton. */
export function droppedLifecycle(target: Function): string | null {
  // isRegistered is public and cheap: almost every provider is only @injectable(), never registered.
  if (!globalContainer.isRegistered(target as never)) return null
  // getRegistration is tsyringe's own (4.x, not in its typings); stay quiet if it is gone.
  const registration = (globalContainer as unknown as RegistrationReader).getRegistration?.(target)
  if (registration == null || registration.provider?.useClass !== target) return null
  const lifecycle = registration.options?.lifecycle ?? Lifecycle.Transient
  return lifecycle === Lifecycle.Singleton ? null : `Lifecycle.${Lifecycle[lifecycle]}`
}
