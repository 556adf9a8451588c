import { availableParallelism } from 'node:os'
import { clusterError } from './cluster-codes'
import { unknownOptions } from '../runtime/internal'

export interface ClusterOptions {
  /** Worker processes. Default: one per core (os.availableParallelism()). */
  workers?: number
  /** What every worker listens on (the primary shares one socket between them). Default 3000 / 127.0.0.1. */
  port?: number
  host?: string
  /** First respawn delay after a crash, doubled for each further crash within a minute. Default 100 ms. */
  respawnDelay?: number
  /** The doubling stops here. Default 10 s. */
  maxRespawnDelay?: number
  /** A stopping worker still alive after this is killed (SIGKILL). Default 30 s. */
  stopTimeout?: number
  /** A new worker that has not listened after this is given up on (a rolling restart stops). Default 30 s. */
  startTimeout?: number
}

export type ResolvedClusterOptions = Required<ClusterOptions>

const clusterOptionKeys: ReadonlyArray<keyof ClusterOptions> = ['workers', 'port', 'host', 'respawnDelay', 'maxRespawnDelay', 'stopTimeout', 'startTimeout']

export function resolveClusterOptions(options: ClusterOptions): ResolvedClusterOptions {
  const unknown = options !== null && typeof options === 'object' ? unknownOptions(options, clusterOptionKeys) : null
  if (unknown !== null) throw clusterError('ENC_ERR_CLUSTER_INVALID_OPTION', { unknown, known: clusterOptionKeys })
  const resolved = {
    workers: availableParallelism(), port: 3000, host: '127.0.0.1',
    respawnDelay: 100, maxRespawnDelay: 10_000, stopTimeout: 30_000, startTimeout: 30_000, ...options,
  }
  const counts: Array<keyof ResolvedClusterOptions> = ['workers', 'respawnDelay', 'maxRespawnDelay', 'stopTimeout', 'startTimeout']
  for (const name of counts) {
    const value = resolved[name]
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (name === 'workers' ? 1 : 0)) {
      throw clusterError('ENC_ERR_CLUSTER_INVALID_OPTION', { name, value, min: name === 'workers' ? 1 : 0 })
    }
  }
  if (!Number.isSafeInteger(resolved.port) || resolved.port < 0 || resolved.port > 65535) {
    throw clusterError('ENC_ERR_CLUSTER_INVALID_OPTION', { name: 'port', value: resolved.port, min: 0, max: 65535 })
  }
  return resolved
}
