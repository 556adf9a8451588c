/**
 * Keeps servers and the load generator off each other's cores: servers on CPU 0, the load
 * generator on the others (up to 3). Without pinning, on a 2-core machine the two fight for the
 * same core and the numbers measure the scheduler. Pinning is skipped (and said so) where
 * taskset is missing or there is a single core.
 */
import { spawnSync } from 'node:child_process'
import { cpus } from 'node:os'

export interface Pinning {
  readonly serverCpus: string
  readonly loadCpus: string
  /** How many cores the load generator has: wrk's thread count. */
  readonly loadCores: number
}

export function detectPinning(wanted: boolean): { pinning: Pinning | null; note: string } {
  if (!wanted) return { pinning: null, note: 'not pinned (--no-pin)' }
  const cores = cpus().length
  if (process.platform !== 'linux' || cores < 2) return { pinning: null, note: `not pinned (${cores} core(s), ${process.platform})` }
  const probe = spawnSync('taskset', ['-c', '0', 'true'], { timeout: 5000 })
  if (probe.error !== undefined || probe.status !== 0) return { pinning: null, note: 'not pinned (taskset unavailable)' }
  const loadCores = Math.min(cores - 1, 3)
  const loadCpus = loadCores === 1 ? '1' : `1-${loadCores}`
  return { pinning: { serverCpus: '0', loadCpus, loadCores }, note: `servers on CPU 0, load generator on CPU ${loadCpus}` }
}

/** The command and arguments that run `command args` on `cpus` (taskset execs, so the pid is the program's). */
export function pinned(cpuList: string | null, command: string, args: readonly string[]): [string, string[]] {
  return cpuList === null ? [command, [...args]] : ['taskset', ['-c', cpuList, command, ...args]]
}
