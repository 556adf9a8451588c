/**
 * One measured run: server CPU read before and after the load, so CPU per request counts only
 * what the server spent (its idle time around the run is negligible next to several seconds of
 * load). A run whose answers were not all of the expected kind is flagged, not hidden.
 */
import { Endpoint } from './endpoints'
import { LoadResult, Runner } from './load'
import { cpuMicros } from './proc-cpu'
import { ServerHandle } from './server-process'
import { Pinning } from './pinning'

export interface Sample extends LoadResult {
  /** Server CPU microseconds per response, null where /proc is unavailable. */
  readonly cpuUsPerRequest: number | null
  /** Why this run's figures are not to be trusted, or null. */
  readonly flag: string | null
}

export interface RunSettings {
  readonly runner: Runner
  readonly pinning: Pinning | null
  readonly connections: number
  readonly pipelining: number
}

function flagFor(endpoint: Endpoint, result: LoadResult): string | null {
  if (result.requests === 0) return 'no responses'
  if (result.socketErrors > 0) return `${result.socketErrors} socket errors/timeouts`
  const expectedErrors = endpoint.status >= 400 ? result.requests : 0
  if (result.errorStatuses !== expectedErrors) return `${result.errorStatuses} of ${result.requests} responses had status >= 400`
  return null
}

export async function measure(server: ServerHandle, endpoint: Endpoint, seconds: number, settings: RunSettings): Promise<Sample> {
  const before = cpuMicros(server.pid)
  const result = await settings.runner({
    port: server.port,
    endpoint,
    seconds,
    connections: settings.connections,
    pipelining: settings.pipelining,
    cpuList: settings.pinning?.loadCpus ?? null,
    threads: settings.pinning?.loadCores ?? 1,
  })
  const after = cpuMicros(server.pid)
  if (!server.alive()) throw new Error(`${server.name} exited during the ${endpoint.id} run`)
  const cpu = before !== null && after !== null && result.requests > 0 ? (after - before) / result.requests : null
  return { ...result, cpuUsPerRequest: cpu, flag: flagFor(endpoint, result) }
}
