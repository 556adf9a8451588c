/**
 * One load run against one endpoint, by wrk when installed (it costs the load core less, so the
 * server is the bottleneck), else autocannon. Both run in their own process.
 */
import { spawnSync } from 'node:child_process'
import { Endpoint } from './endpoints'
import { LoadTool } from './options'
import { runWrk } from './wrk'
import { runAutocannon } from './autocannon'

export interface LoadSpec {
  readonly port: number
  readonly endpoint: Endpoint
  readonly seconds: number
  readonly connections: number
  readonly pipelining: number
  readonly cpuList: string | null
  readonly threads: number
}

export interface LoadResult {
  /** Responses received. */
  readonly requests: number
  readonly seconds: number
  readonly rps: number
  readonly p99Ms: number
  /** Responses with a status of 400 or more (wrk counts those; autocannon's non-2xx is mapped to match). */
  readonly errorStatuses: number
  /** Connection errors and timeouts. */
  readonly socketErrors: number
}

export type Runner = (spec: LoadSpec) => Promise<LoadResult>

function wrkInstalled(): boolean {
  const probe = spawnSync('wrk', ['--version'], { timeout: 5000 })
  return probe.error === undefined
}

export function chooseRunner(tool: LoadTool): { name: 'wrk' | 'autocannon'; run: Runner } {
  if (tool === 'autocannon') return { name: 'autocannon', run: runAutocannon }
  if (wrkInstalled()) return { name: 'wrk', run: runWrk }
  if (tool === 'wrk') throw new Error('bench: --tool=wrk but wrk is not installed (apt-get install wrk), or use --tool=autocannon')
  return { name: 'autocannon', run: runAutocannon }
}

/** Longest a load run may take beyond its duration before it is killed. */
export const LOAD_GRACE_MS = 30_000
