import cluster, { type Worker } from 'node:cluster'
import type { ResolvedClusterOptions } from './cluster-options'
import { LISTEN_FAILED_EXIT_CODE, listenFailedMessage, STOP } from './messages'
import type { PrimaryLog } from './primary-log'

/** What startCluster() returns in the primary process. */
export interface ClusterHandle {
  /** The pids of the workers alive now. */
  readonly pids: () => number[]
  /** Replaces the workers one by one: a new one listens before an old one is asked to stop. */
  restart(): Promise<void>
  /** Stops every worker gracefully (the same as SIGTERM) and resolves once all have exited. */
  close(): Promise<void>
}

const crashWindowMs = 60_000

/**
 * The primary: forks the workers, respawns a crashed one (100 ms, 200 ms, ... up to
 * maxRespawnDelay while crashes keep coming within a minute), rolls the workers on SIGHUP and
 * drains them all on SIGTERM/SIGINT, then exits 0. A worker that cannot listen (the port is
 * taken) stops them all, and `onListenFailed` runs once they have exited.
 */
export function runPrimary(options: ResolvedClusterOptions, log: PrimaryLog, onListenFailed: () => void = () => undefined): ClusterHandle {
  const live = new Set<Worker>()
  /** Workers asked to stop: their exit is expected, not a crash. */
  const stopping = new Set<Worker>()
  const crashes: number[] = []
  const respawns = new Set<NodeJS.Timeout>()
  let closing: Promise<void> | null = null
  let restarting: Promise<void> | null = null

  let listenFailed = false
  const failListen = (worker: Worker, text: string): void => {
    if (listenFailed) return
    listenFailed = true
    // Every worker listens on the same address: respawning would fail the same way, forever.
    log('error', `worker ${worker.process.pid} cannot listen, so no worker can; stopping instead of respawning: ${text}`)
    void close().then(onListenFailed)
  }
  const fork = (): Worker => {
    const worker = cluster.fork()
    live.add(worker)
    worker.on('message', (message: unknown) => {
      const text = listenFailedMessage(message)
      if (text !== null) failListen(worker, text)
    })
    worker.once('exit', (code, signal) => {
      live.delete(worker)
      if (code === LISTEN_FAILED_EXIT_CODE) failListen(worker, 'listen() failed (the worker\'s own log has the error)')
      if (stopping.delete(worker) || closing !== null) return
      const now = Date.now()
      crashes.push(now)
      while (crashes.length > 0 && crashes[0] < now - crashWindowMs) crashes.shift()
      const delay = Math.min(options.maxRespawnDelay, options.respawnDelay * 2 ** (crashes.length - 1))
      log('warn', `worker ${worker.process.pid} exited (${signal ?? code}); respawning in ${delay} ms`)
      const timer = setTimeout(() => { respawns.delete(timer); if (closing === null) fork() }, delay)
      respawns.add(timer)
    })
    return worker
  }

  const stop = (worker: Worker): Promise<void> => new Promise((resolve) => {
    if (worker.isDead()) return resolve()
    stopping.add(worker)
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), options.stopTimeout)
    worker.once('exit', () => { clearTimeout(timer); resolve() })
    worker.send({ cmd: STOP }, () => undefined)
  })

  const listening = (worker: Worker): Promise<void> => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker ${worker.process.pid} did not listen within ${options.startTimeout} ms`)), options.startTimeout)
    worker.once('listening', () => { clearTimeout(timer); resolve() })
    worker.once('exit', () => { clearTimeout(timer); reject(new Error(`worker ${worker.process.pid} exited before listening`)) })
  })

  const restart = (): Promise<void> => {
    if (restarting !== null) return restarting
    restarting = (async () => {
      for (const old of [...live]) {
        if (closing !== null) return
        const fresh = fork()
        await listening(fresh)
        await stop(old)
      }
      log('info', 'rolling restart done')
    })().finally(() => { restarting = null })
    return restarting
  }

  const close = (): Promise<void> => {
    if (closing === null) {
      for (const timer of respawns) clearTimeout(timer)
      closing = Promise.all([...live].map(stop)).then(() => undefined)
    }
    return closing
  }

  for (let i = 0; i < options.workers; i++) fork()
  return { pids: () => [...live].map((w) => w.process.pid!), restart, close }
}
