import type { Scope } from '../runtime'
import type { ResolvedClusterOptions } from './cluster-options'
import { isStop, LISTEN_FAILED, LISTEN_FAILED_EXIT_CODE } from './messages'
import { LingeringClose } from './linger'

/**
 * A worker: builds the app, listens on the shared socket, and closes gracefully (in-flight
 * requests finish, providers are disposed) when the primary asks or a signal arrives, then exits
 * 0. A worker that cannot boot exits 1 and the primary respawns it with a backoff; one that cannot
 * listen tells the primary first, which then stops (start-cluster.ts).
 *
 * The stop listeners are in place before the app is built: a worker asked to stop while it boots
 * (a SIGTERM to the cluster during a slow boot, a rolling restart's stop) exits at once with 0, or,
 * once the app is built and only listen() is under way, closes it first (its providers are disposed).
 * It serves nothing yet, so there is nothing to drain, and a boot waiting on a database could
 * otherwise hold the stop until the primary's stopTimeout killed it (the STOP message was lost:
 * nothing listened for it), or let the worker start serving after it was told to stop.
 */
export async function runWorker(factory: () => Promise<Scope> | Scope, options: ResolvedClusterOptions): Promise<void> {
  let built: Scope | null = null
  let serving: { app: Scope; lingering: LingeringClose } | null = null
  let stopping = false
  const stop = (reason: string): void => {
    if (stopping) return
    stopping = true
    if (built === null) {
      console.error(`worker ${process.pid} stopping (${reason}) before it listened: exiting without serving`)
      process.exit(0)
    }
    if (serving === null) {
      // Built, listen() under way: nothing served yet, but the providers exist and must be disposed;
      // close() also ends a listen() that completes meanwhile (after() below sees `stopping`).
      console.error(`worker ${process.pid} stopping (${reason}) before it listened: closing the app without serving`)
      built.close().then(() => process.exit(0), (error: unknown) => { console.error(error); process.exit(1) })
      return
    }
    const { app, lingering } = serving
    // The primary logs the drain once; each worker says when and why it began, in its own log.
    app.log.info({ reason }, `worker stopping (${reason}): finishing in-flight requests`)
    // Two event-loop turns first: a connection the primary handed over in the same turn as this
    // message has not been read yet, and close() drops connections that have sent no byte.
    setImmediate(() => setImmediate(() => {
      lingering.start()
      app.close().then(() => process.exit(0), (error: unknown) => { console.error(error); process.exit(1) })
    }))
  }
  process.on('message', (message) => { if (isStop(message)) stop('asked by the primary') })
  // Ctrl-C reaches every process of the group: the worker drains like on the primary's request.
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('disconnect', () => stop('primary disconnected'))
  try {
    const app = await factory()
    built = app
    const lingering = new LingeringClose(app.server, 2_000)
    await app.listen({ port: options.port, host: options.host })
    // A stop that came during listen() is already closing the app: it must not start serving.
    if (!stopping) serving = { app, lingering }
  } catch (error) {
    console.error(error)
    // The primary stops instead of respawning workers that would fail on the same address.
    if ((error as { enclaveCode?: unknown } | null)?.enclaveCode === 'ENC_ERR_SERVER_LISTEN_FAILED' && process.send !== undefined) {
      process.send({ cmd: LISTEN_FAILED, message: (error as Error).message }, undefined, {}, () => process.exit(LISTEN_FAILED_EXIT_CODE))
      return
    }
    process.exit(1)
  }
}
