import type { DependencyContainer } from 'tsyringe'
import { dependenciesOf, type ProviderLookup } from './dependency-cycle'
import { describeToken } from './module-error'
import { isRequestToken } from './request-token'

/**
 * Which providers live per request: those declared so (`scope: 'request'`, @RequestScoped()), and,
 * as NestJS bubbles the scope up, every provider that injects one of them or REQUEST/REPLY,
 * directly or through others. Each answer is the path that makes it so, for boot messages:
 * `OrdersService -> Tx (scope 'request' in AppModule)`. Null: a singleton, built at boot.
 * Run after the cycle check, on the providers as registered (test overrides applied).
 */
export interface ScopeAnalysis {
  /** For `token` as resolved from `container`. */
  reasonOf(container: DependencyContainer, token: unknown): string | null
  /** For a class that is not a provider (a controller, a module class): through its constructor parameters. */
  classReason(container: DependencyContainer, target: Function): string | null
}

export function analyseScopes(lookup: ProviderLookup): ScopeAnalysis {
  const memo = new Map<DependencyContainer, Map<unknown, string | null>>()
  const reasonOf = (from: DependencyContainer, token: unknown): string | null => {
    if (isRequestToken(token)) return describeToken(token)
    const found = lookup(from, token)
    if (found === undefined) return null
    let known = memo.get(found.container)
    if (known === undefined) memo.set(found.container, known = new Map())
    const seen = known.get(token)
    if (seen !== undefined || known.has(token)) return seen ?? null
    // Cycles were refused before this runs; the placeholder only keeps a delay()ed loop finite.
    known.set(token, null)
    let reason: string | null = null
    if (found.spec.scope === 'request') reason = `${describeToken(token)} (scope 'request' in ${found.node.path})`
    else {
      for (const dep of dependenciesOf(found.spec)) {
        const inner = reasonOf(found.container, dep.token)
        if (inner !== null) { reason = `${describeToken(token)} -> ${inner}`; break }
      }
    }
    known.set(token, reason)
    return reason
  }
  const classReason = (container: DependencyContainer, target: Function): string | null => {
    for (const dep of dependenciesOf({ useClass: target, inject: [] })) {
      const inner = reasonOf(container, dep.token)
      if (inner !== null) return `${target.name} -> ${inner}`
    }
    return null
  }
  return { reasonOf, classReason }
}
