import type { SchemaCacheStats } from '../types'

/**
 * What app.bootProfile() returns: what compiling route schemas cost, route by route and scope
 * by scope (a module is a scope). Code size is the length of the generated validator and
 * serializer functions, which is what V8 has to parse and keep: ajv 6 writes about 6.5 KB for
 * an ordinary body schema.
 */
export interface RouteCompileCost {
  readonly method: string
  readonly url: string
  /** The scope (module) path the route was declared in. */
  readonly scope: string
  /** Wall-clock milliseconds: what the compile took, time other processes ran included. */
  readonly ms: number
  /** CPU milliseconds this process spent compiling it (cpu-clock.ts): what it costs on any host, loaded or not. */
  readonly cpuMs: number
  readonly codeBytes: number
  /** When it was compiled: at boot, or on the route's first request (lazy), or by compileAll. */
  readonly when: 'boot' | 'first request' | 'compileAll'
}

export interface ScopeCompileCost {
  readonly scope: string
  readonly routes: number
  readonly ms: number
  readonly cpuMs: number
  readonly codeBytes: number
}

export interface BootProfile {
  readonly schemaCompilation: 'eager' | 'lazy' | 'mixed'
  /** Routes whose schemas are compiled (or failed to), and routes still waiting for a first request. */
  readonly compiledRoutes: number
  readonly pendingRoutes: number
  /** Wall-clock milliseconds of all compiles. */
  readonly totalMs: number
  /** CPU milliseconds of all compiles: on a shared host, the figure to compare across runs. */
  readonly totalCpuMs: number
  readonly codeBytes: number
  /** Slowest (by wall-clock `ms`) first, at most `top` of each. */
  readonly slowestRoutes: readonly RouteCompileCost[]
  readonly slowestScopes: readonly ScopeCompileCost[]
  /** The schemaCache option's counts (functions from the cache, compiled, not cacheable), or null without it. */
  readonly schemaCache: SchemaCacheStats | null
}
