import type { BootProfile, RouteCompileCost, ScopeCompileCost } from '../shared/boot-profile'

/**
 * Collects app.bootProfile(): eager boot records every route with a schema; lazy boot records
 * each on its first request (or on ready({ compileAll: true })).
 */
export class CompileProfile {
  readonly #routes: RouteCompileCost[] = []
  #lazy = 0
  #eager = 0
  #pending = 0

  /** A route declared with schemas to compile: counted by mode; lazy ones are pending until recorded. */
  declare(mode: 'eager' | 'lazy'): void {
    if (mode === 'lazy') { this.#lazy++; this.#pending++ } else this.#eager++
  }

  record(cost: RouteCompileCost): void {
    this.#routes.push(cost)
    if (cost.when !== 'boot') this.#pending--
  }

  report(top: number): BootProfile {
    const byScope = new Map<string, { routes: number; ms: number; codeBytes: number }>()
    let totalMs = 0
    let codeBytes = 0
    for (const r of this.#routes) {
      totalMs += r.ms
      codeBytes += r.codeBytes
      const s = byScope.get(r.scope) ?? { routes: 0, ms: 0, codeBytes: 0 }
      s.routes++
      s.ms += r.ms
      s.codeBytes += r.codeBytes
      byScope.set(r.scope, s)
    }
    const slowest = <T extends { ms: number }>(list: T[]): T[] => list.sort((a, b) => b.ms - a.ms).slice(0, top)
    return {
      schemaCompilation: this.#lazy === 0 ? 'eager' : this.#eager === 0 ? 'lazy' : 'mixed',
      compiledRoutes: this.#routes.length,
      pendingRoutes: this.#pending,
      totalMs,
      codeBytes,
      slowestRoutes: slowest([...this.#routes]),
      slowestScopes: slowest([...byScope].map(([scope, s]): ScopeCompileCost => ({ scope, ...s }))),
    }
  }
}
