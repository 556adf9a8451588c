import cluster from 'node:cluster'
import type { Scope } from '../runtime'
import { resolveClusterOptions, type ClusterOptions } from './cluster-options'
import { runPrimary, type ClusterHandle } from './primary'
import { runWorker } from './worker'
import { primaryLogLine, type PrimaryLog } from './primary-log'

/** startCluster() (cluster/index.ts, which documents it and loads this file on the call). */
export async function startCluster(factory: () => Promise<Scope> | Scope, options: ClusterOptions = {}): Promise<ClusterHandle | null> {
  const resolved = resolveClusterOptions(options)
  if (!cluster.isPrimary) {
    await runWorker(factory, resolved)
    return null
  }
  const log: PrimaryLog = (level, msg) => { process.stdout.write(`${primaryLogLine(level, msg)}\n`) }
  // Exit 1, as a single process whose listen() fails does: a supervisor sees the failure.
  const handle = runPrimary(resolved, log, () => process.exit(1))
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
