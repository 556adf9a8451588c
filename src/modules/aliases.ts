import type { DependencyContainer } from 'tsyringe'
import type { ProviderLookup } from './dependency-cycle'

/**
 * The provider a token stands for once `useExisting` aliases (any depth) are followed, with the
 * container that declares it, and whether it is transient: an alias of a transient provider is as
 * transient as its target (NestJS 12: each consumer of the alias gets its own instance). Undefined
 * when nothing provides it.
 */
export function unaliased(lookup: ProviderLookup, from: DependencyContainer, token: unknown): { readonly container: DependencyContainer; readonly token: unknown; readonly transient: boolean } | undefined {
  for (let found = lookup(from, token); found !== undefined; found = lookup(from, token)) {
    const entry = found.spec.entry
    if (typeof entry !== 'object' || !('useExisting' in entry)) return { container: found.container, token, transient: found.spec.scope === 'transient' }
    from = found.container
    token = entry.useExisting
  }
  return undefined
}
