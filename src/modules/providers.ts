import 'reflect-metadata' // before tsyringe, which refuses to load without it
import { Lifecycle, type DependencyContainer, type InjectionToken } from 'tsyringe'
import { isRequestScopedClass, isTransientClass, type ProviderEntry, type ProviderScope } from '../decorators/internal'
import { describeToken, moduleError } from './module-error'
import type { ModuleNode } from './module-tree'
import type { Disposer } from './disposal'
import { FactoryProvider } from './factory-provider'
import { droppedLifecycle } from './provider-lifecycle'
import { asConsumer, callTransientFactory, refuseTransient } from './transient'
import { injectionToken } from './provider-token'

/** A provider entry reduced to what the injector needs. */
export interface ProviderSpec {
  readonly token: InjectionToken
  /** The class tsyringe constructs, when there is one: its constructor dependencies are checked. */
  readonly useClass: Function | null
  /** Tokens a factory is called with: checked like constructor dependencies. */
  readonly inject: readonly unknown[]
  /** 'request' when declared so (`scope: 'request'`, or a @RequestScoped() class); injecting one makes a provider request-scoped too (request-scope.ts). 'transient': one per consumer (transient.ts). */
  readonly scope: ProviderScope
  /** The entry itself, for what is built per request (its factory, its dispose). */
  readonly entry: ProviderEntry
}

export function toProviderSpec(entry: ProviderEntry): ProviderSpec {
  if (typeof entry === 'function') return { token: entry, useClass: entry, inject: [], scope: classScope(entry), entry }
  if ('useClass' in entry) return { token: injectionToken(entry.provide), useClass: entry.useClass, inject: [], scope: entry.scope ?? classScope(entry.useClass), entry }
  if ('useFactory' in entry) return { token: injectionToken(entry.provide), useClass: null, inject: entry.inject ?? [], scope: entry.scope ?? 'singleton', entry }
  // The aliased token is checked for visibility like a factory's inject list.
  if ('useExisting' in entry) return { token: injectionToken(entry.provide), useClass: null, inject: [entry.useExisting], scope: 'singleton', entry }
  return { token: injectionToken(entry.provide), useClass: null, inject: [], scope: 'singleton', entry }
}

function classScope(target: Function): ProviderScope {
  return isRequestScopedClass(target) ? 'request' : isTransientClass(target) ? 'transient' : 'singleton'
}

/** Where a provider registers and what it reports to. */
export interface ProviderTarget {
  readonly container: DependencyContainer
  /** Token -> the module that registered it in `container`, for duplicate detection. */
  readonly owners: Map<InjectionToken, ModuleNode>
  /** Records every instance a class or factory provider builds, in creation order, for close(). */
  readonly disposer: Disposer
  /** Receives the container's factory providers, token -> provider, for createApp to settle. */
  readonly factories: Map<InjectionToken, FactoryProvider>
}

/**
 * Registers one module's providers (`entries`: its declarations, test overrides applied) in the
 * target container (its own, or its parent's when lifted).
 *
 * Classes are registered as Singleton *in the module's container*: one instance per declaring
 * module, shared with its descendants. (ContainerScoped would not do that: tsyringe copies
 * ContainerScoped registrations into every child container created afterwards, so each
 * descendant module would build its own copy.) A factory is bound to the declaring container,
 * not to the one that happens to resolve it, so its dependencies follow the same visibility.
 */
export function registerProviders(node: ModuleNode, entries: readonly ProviderEntry[], target: ProviderTarget): void {
  const { container, owners, disposer, factories } = target
  for (const entry of entries) {
    const spec = toProviderSpec(entry)
    const previous = owners.get(spec.token)
    if (previous !== undefined) {
      throw moduleError('ENC_ERR_MODULE_DUPLICATE_PROVIDER', { token: describeToken(spec.token), first: previous.path, second: node.path, lifted: node.lifted || previous.lifted })
    }
    owners.set(spec.token, node)
    if (typeof entry === 'function' || 'useClass' in entry) {
      const lifecycle = droppedLifecycle(spec.useClass as Function)
      if (lifecycle !== null) {
        throw moduleError('ENC_ERR_MODULE_PROVIDER_LIFECYCLE', { subject: `provider ${describeToken(spec.token)} in ${node.path}`, lifecycle })
      }
      // Transient: tsyringe builds a fresh one each time it is resolved, that is once per consumer.
      container.register(spec.token, { useClass: spec.useClass as never }, { lifecycle: spec.scope === 'transient' ? Lifecycle.Transient : Lifecycle.Singleton })
      // Fires after the instance (and so everything it depends on) was built: creation order.
      container.afterResolution(spec.token, (_token, instance) => disposer.track(instance), { frequency: 'Always' })
    } else if ('useFactory' in entry && spec.scope === 'transient') {
      // Called each time its token is resolved (once per consumer), as the consumer of INQUIRER in its inject list.
      const { useFactory, dispose } = entry
      const subject = `provider ${describeToken(spec.token)} in ${node.path}`
      container.register(spec.token, {
        useFactory: () => {
          const value = asConsumer(spec.token, () => callTransientFactory(useFactory, spec.inject.map((token) => container.resolve(token as InjectionToken)), subject, refuseTransient))
          disposer.track(value, dispose)
          return value
        },
      })
    } else if ('useFactory' in entry) {
      const release = { disposer, dispose: entry.dispose }
      const factory = new FactoryProvider(spec.token, spec.inject as InjectionToken[], entry.useFactory as never, container, release, node.path)
      factories.set(spec.token, factory)
      container.register(spec.token, { useFactory: () => factory.get() })
    } else if ('useExisting' in entry) {
      // The instance is the aliased provider's: built, tracked and released once, by that provider.
      // Bound to the declaring container like a factory (tsyringe's useToken would resolve from the
      // container that asks: a descendant declaring the target again got its own, unchecked for
      // visibility and cycles, and endless when that one injects the alias).
      const target = entry.useExisting as InjectionToken
      container.register(spec.token, { useFactory: () => container.resolve(target) })
    } else {
      container.register(spec.token, { useValue: entry.useValue })
    }
  }
}
