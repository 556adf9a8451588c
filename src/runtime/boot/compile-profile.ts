import type { BootProfile, RouteCompileCost, ScopeCompileCost } from '../shared/boot-profile'
import type { SchemaCacheStats } from '../types'

/**
 * What is recorded per compiled route: the functions its compilers returned, not their size yet.
 * A size is a function's source text, and reading it copies the text (6.5 KB for a typical ajv
 * validator): that waits until someone asks for the profile, instead of every boot and every
 * lazy first request paying for it.
 */
export type RouteCompileRecord = Omit<RouteCompileCost, 'codeBytes'> & { readonly functions: readonly Function[] }

/**
 * Collects app.bootProfile(): eager boot records every route with a schema; lazy boot records
 * each on its first request (or on ready({ compileAll: true })).
 */
export class CompileProfile {
  readonly #routes: RouteCompileRecord[] = []
  #lazy = 0
  #eager = 0
  #pending = 0

  /** A route declared with schemas to compile: counted by mode; lazy ones are pending until recorded. */
  declare(mode: 'eager' | 'lazy'): void {
    if (mode === 'lazy') { this.#lazy++; this.#pending++ } else this.#eager++
  }

  record(cost: RouteCompileRecord): void {
    this.#routes.push(cost)
    if (cost.when !== 'boot') this.#pending--
  }

  /** Routes still waiting for a first request (lazy) to compile. */
  get pending(): number {
    return this.#pending
  }

  report(top: number, schemaCache: SchemaCacheStats | null = null): BootProfile {
    const byScope = new Map<string, { routes: number; ms: number; cpuMs: number; codeBytes: number }>()
    let totalMs = 0
    let totalCpuMs = 0
    let codeBytes = 0
    const routes = this.#routes.map(({ functions, ...r }): RouteCompileCost => ({ ...r, codeBytes: functions.reduce((sum, fn) => sum + sourceLength(fn), 0) }))
    for (const r of routes) {
      totalMs += r.ms
      totalCpuMs += r.cpuMs
      codeBytes += r.codeBytes
      const s = byScope.get(r.scope) ?? { routes: 0, ms: 0, cpuMs: 0, codeBytes: 0 }
      s.routes++
      s.ms += r.ms
      s.cpuMs += r.cpuMs
      s.codeBytes += r.codeBytes
      byScope.set(r.scope, s)
    }
    const slowest = <T extends { ms: number }>(list: T[]): T[] => list.sort((a, b) => b.ms - a.ms).slice(0, top)
    return {
      schemaCompilation: this.#lazy === 0 ? 'eager' : this.#eager === 0 ? 'lazy' : 'mixed',
      compiledRoutes: this.#routes.length,
      pendingRoutes: this.#pending,
      totalMs,
      totalCpuMs,
      codeBytes,
      slowestRoutes: slowest(routes),
      slowestScopes: slowest([...byScope].map(([scope, s]): ScopeCompileCost => ({ scope, ...s }))),
      schemaCache,
    }
  }
}

// A function shared by many routes (one cached validator for one schema) is read once.
const sourceLengths = new WeakMap<Function, number>()

function sourceLength(fn: Function): number {
  let length = sourceLengths.get(fn)
  if (length === undefined) sourceLengths.set(fn, length = Function.prototype.toString.call(fn).length)
  return length
}
