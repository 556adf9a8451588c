import type { DependencyContainer } from 'tsyringe'
import { constructorDependencies } from '../decorators/internal'
import { describeToken } from './module-error'
import type { ModuleNode } from './module-tree'
import { injectionTarget } from './injection-target'
import type { ProviderSpec } from './providers'

/** Where a token resolves from a container: the declaring module and its provider, if any module declares it. */
export type ProviderLookup = (from: DependencyContainer, token: unknown) => { node: ModuleNode; container: DependencyContainer; spec: ProviderSpec } | undefined

export interface DependencyCycle { readonly node: ModuleNode; readonly token: unknown; readonly cycle: string }

/**
 * tsyringe has no cycle check: providers that inject each other recurse until the stack overflows,
 * and its error nests one "Cannot inject the dependency" line per frame (megabytes of text, enough
 * to exhaust the heap, the cycle never named). So the provider graph is walked before anything
 * is built, and the first cycle is named: `Owners (constructor parameter 0) -> 'CATS' (...) -> Owners`.
 * A `delay(() => X)` dependency is lazy in tsyringe, so it breaks a cycle and is not followed.
 */
export function findDependencyCycle(starts: ReadonlyArray<{ container: DependencyContainer; token: unknown }>, lookup: ProviderLookup): DependencyCycle | null {
  const done = new Set<string>()
  const ids = new Map<unknown, number>()
  const key = (container: DependencyContainer, token: unknown): string => {
    for (const x of [container, token]) if (!ids.has(x)) ids.set(x, ids.size)
    return `${ids.get(container)}:${ids.get(token)}`
  }
  const stack: Array<{ key: string; token: unknown; edge: string }> = []
  const visit = (from: DependencyContainer, token: unknown): DependencyCycle | null => {
    const found = lookup(from, token)
    if (found === undefined) return null
    const k = key(found.container, token)
    const open = stack.findIndex((s) => s.key === k)
    if (open >= 0) {
      const loop = stack.slice(open)
      return { node: found.node, token, cycle: [...loop.map((s) => `${describeToken(s.token)} (${s.edge})`), describeToken(token)].join(' -> ') }
    }
    if (done.has(k)) return null
    for (const dep of dependenciesOf(found.spec)) {
      stack.push({ key: k, token, edge: dep.where })
      const cycle = visit(found.container, dep.token)
      stack.pop()
      if (cycle !== null) return cycle
    }
    done.add(k)
    return null
  }
  for (const start of starts) {
    const cycle = visit(start.container, start.token)
    if (cycle !== null) return cycle
  }
  return null
}

/** What a provider is built from: its class's constructor parameters (a `delay()` one excepted) and a factory's inject list. */
export function dependenciesOf(spec: Pick<ProviderSpec, 'useClass' | 'inject'>): Array<{ token: unknown; where: string }> {
  const deps: Array<{ token: unknown; where: string }> = []
  if (spec.useClass !== null) {
    (constructorDependencies(spec.useClass) ?? []).forEach((dep, index) => {
      const target = injectionTarget(dep)
      if (target.kind === 'token') deps.push({ token: target.token, where: `constructor parameter ${index}` })
    })
  }
  spec.inject.forEach((token, index) => deps.push({ token, where: `inject[${index}]` }))
  return deps
}
