import cluster from 'node:cluster'
import type { Scope } from '../runtime'
import { resolveClusterOptions, type ClusterOptions } from './cluster-options'
import { runPrimary, type ClusterHandle } from './primary'
import { runWorker } from './worker'
import { primaryLogLine, type PrimaryLog } from './primary-log'

/**
 * Runs the app in `workers` processes on node:cluster, sharing one listening socket (README
 * "Scale-out"). Call it from the entry file: the primary forks copies of that same file, and in
 * each copy `factory` builds the app, which then listens on `port`/`host`.
 * The primary respawns a crashed worker with a backoff, drains every worker on SIGTERM/SIGINT
 * and exits 0, and replaces the workers one by one on SIGHUP (no request fails: a new worker
 * listens before an old one stops, and the old one finishes its in-flight requests).
 * Resolves with a handle in the primary, with null in a worker.
 *
 * @example
 * // dist/main.js
 * startCluster(() => createApp(AppModule, { health: true }), { workers: 4, port: 8080, host: '0.0.0.0' })
 */
export async function startCluster(factory: () => Promise<Scope> | Scope, options: ClusterOptions = {}): Promise<ClusterHandle | null> {
  const resolved = resolveClusterOptions(options)
  if (!cluster.isPrimary) {
    await runWorker(factory, resolved)
    return null
  }
  const log: PrimaryLog = (level, msg) => { process.stdout.write(`${primaryLogLine(level, msg)}\n`) }
  const handle = runPrimary(resolved, log)
  let signalled = false
  const onStop = (signal: NodeJS.Signals): void => {
    if (signalled) return
    signalled = true
    log('info', `${signal} received, draining ${handle.pids().length} worker(s)`)
    handle.close().then(() => process.exit(0))
  }
  process.on('SIGTERM', onStop)
  process.on('SIGINT', onStop)
  process.on('SIGHUP', () => {
    log('info', 'SIGHUP received, restarting workers one by one')
    handle.restart().catch((error: Error) => log('error', `rolling restart stopped: ${error.message}`))
  })
  log('info', `started ${resolved.workers} worker(s) on ${resolved.host}:${resolved.port}`)
  return handle
}
