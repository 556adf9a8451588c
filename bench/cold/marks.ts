/**
 * The clock of a cold-start worker. Every worker loads this first (before its framework), so
 * `started` is the process's bootstrap plus node's own start, and each later mark is measured
 * from the process's birth: performance.now() counts from it, process.cpuUsage() too.
 */
import { performance } from 'node:perf_hooks'

export const COLD_PREFIX = 'COLD '

/** One point of a cold start: wall clock and CPU (user + system, all threads) since the process began. */
export interface ColdMark { readonly ms: number; readonly cpuMs: number }

export interface ColdMarks {
  /** The worker's first line runs: node's own start and the bench's small modules. */
  readonly started: ColdMark
  /** The framework is loaded (`require('enclave')`, `require('fastify')`). */
  readonly required: ColdMark
  /** The app is built and listening. */
  readonly listening: ColdMark
  /** The first request was answered: taken when the driver, having read the whole answer, asks for the report. */
  readonly answered: ColdMark
  /** Modules in require.cache once listening. */
  readonly modules: number
}

export function mark(): ColdMark {
  const cpu = process.cpuUsage()
  return { ms: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000 }
}

export const started = mark()
