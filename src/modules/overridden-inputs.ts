import type { DependencyContainer } from 'tsyringe'
import { dependenciesOf, type ProviderLookup } from './dependency-cycle'
import { describeToken } from './module-error'

/**
 * The overridden tokens a usePlugin() entry's options were built from: its inject tokens, and the
 * tokens reached through the providers those depend on (a stub Db under a real Api that the plugin
 * is given is as much the cause as a stub given directly). A deeper one is described with the path
 * it was reached by: `Db (through Api)`. The walk stops at an override (the stub has no dependencies
 * worth naming) and visits each provider once, so a diamond or a cycle ends.
 */
export function overriddenInputs(inject: readonly unknown[], from: DependencyContainer, lookup: ProviderLookup, isOverridden: (token: unknown) => boolean): string[] {
  const found: string[] = []
  // Per declaring container, the tokens visited: the same token may be declared apart in two modules.
  const seen = new Map<DependencyContainer | null, Set<unknown>>()
  const visit = (container: DependencyContainer, token: unknown, through: readonly unknown[]): void => {
    const provider = lookup(container, token)
    const where = provider?.container ?? null
    const visited = seen.get(where) ?? seen.set(where, new Set()).get(where)!
    if (visited.has(token)) return
    visited.add(token)
    if (isOverridden(token)) {
      found.push(through.length === 0 ? describeToken(token) : `${describeToken(token)} (through ${through.map(describeToken).join(' > ')})`)
      return
    }
    if (provider === undefined) return
    for (const dep of dependenciesOf(provider.spec)) visit(provider.container, dep.token, [...through, token])
  }
  for (const token of inject) visit(from, token, [])
  return found
}
