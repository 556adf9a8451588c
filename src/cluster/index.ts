import type { Scope } from '../runtime'
import type { ClusterOptions } from './cluster-options'
import type { ClusterHandle } from './primary'
export type { ClusterOptions } from './cluster-options'
export type { ClusterHandle } from './primary'
export { clusterErrorCodes } from './cluster-codes'

/**
 * Runs the app in `workers` processes on node:cluster, sharing one listening socket (docs/operations.md,
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
export function startCluster(factory: () => Promise<Scope> | Scope, options: ClusterOptions = {}): Promise<ClusterHandle | null> {
  // node:cluster and the primary's and worker's code load on the call: an app in one process (a
  // serverless function, a container per core) never loads them (~2 ms CPU of `require('enclave')`).
  return (require('./start-cluster') as typeof import('./start-cluster')).startCluster(factory, options)
}
