import type { Server } from 'node:http'
import { AsyncLocalStorage } from 'node:async_hooks'
import { runtimeError } from '../errors/runtime-codes'
import { bootServer, loadChildren } from '../boot/boot'
import type { PluginNode } from '../declare/plugin-tree'
import type { BootContext } from '../boot/boot-context'
import type { ServerFacade } from '../declare/declare-context'
import type { ServeContext } from '../serve/serve-context'
import { endEventStreams } from '../serve/event-streams'
import type { InjectChain, InjectOptions, InjectResponse, ListenOptions, ReadyOptions } from '../types'
import { listenTarget } from './listen-target'
import { compileAllPending } from '../boot/route-schemas'
import type { BootProfile } from '../shared/boot-profile'
import { buildInspection } from '../boot/introspection'
import { loadInspect } from '../inspect/load-inspect'
import type { InspectView } from '../shared/introspection'
import type { Transport } from './node-server'
import type { Connections } from './connections'
import { bindListener, listeningUrl } from './bind-listener'
import { listenFailure } from './listen-failure'
import { runOnCloseHooks, runPreCloseHooks } from './close-hooks'
import { stopServing } from './stop-serving'
import { injectChain, injectOnce } from './inject'
import { pluginLoadTree } from './plugin-load-tree'

export interface ServerLifecycleInit {
  readonly http: Server
  readonly transport: Transport
  readonly serve: ServeContext
  readonly connections: Connections
  /** Closes what the server opened for its logs (logger.ts); the last step of close(). */
  readonly releaseLogger: () => Promise<void>
}

/**
 * ready / listen / close / inject of one server: what the root scope's methods forward to
 * (declare/declare-context.ts ServerFacade). Boot runs once, whoever asks first; close runs
 * once, however often it is called.
 */
export class ServerLifecycle implements ServerFacade {
  readonly #http: Server
  readonly #serve: ServeContext
  readonly #transport: Transport
  readonly #connections: Connections
  readonly #releaseLogger: () => Promise<void>
  #boot: BootContext | null = null
  #ready: Promise<void> | null = null
  /** Settles once every plugin has loaded and every route is compiled, before the onReady hooks run. */
  readonly #loaded: { readonly promise: Promise<void>; resolve(): void; reject(error: unknown): void }
  /** How many whenLoaded() calls wait: only then does boot yield to them before the onReady hooks. */
  #loadedWaiters = 0
  #closed: Promise<void> | null = null
  #view: InspectView | null = null
  /** Set while the onReady hooks run (and in what they await): ready() there must not wait on them. */
  #insideOnReady: AsyncLocalStorage<true> | null = null

  constructor(init: ServerLifecycleInit) {
    this.#http = init.http
    this.#serve = init.serve
    this.#transport = init.transport
    this.#connections = init.connections
    this.#releaseLogger = init.releaseLogger
    let resolve!: () => void
    let reject!: (error: unknown) => void
    const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej })
    // Handled here so a boot failure nobody waits on through whenLoaded() is not an unhandled rejection.
    promise.catch(() => undefined)
    this.#loaded = { promise, resolve, reject }
  }

  /** Second step of the composition root: the boot context needs the root scope, which needs this facade. */
  attach(boot: BootContext): void {
    this.#boot = boot
  }

  loadPending(node: PluginNode): Promise<void> {
    return loadChildren(this.#bootContext(), node)
  }

  ready(options: ReadyOptions = {}): Promise<void> {
    const ready = this.#start()
    // An onReady hook that awaits ready() (or inject(), which calls it) would wait on itself:
    // there it resolves once routes are compiled. Callers outside the hooks still wait for them.
    const booted = this.#insideOnReady?.getStore() === true ? this.#loaded.promise : ready
    if (options.compileAll !== true) return booted
    return booted.then(() => {
      const boot = this.#bootContext()
      compileAllPending(boot)
      // What the build step compiled goes to the schema cache (schemaCache option).
      boot.schemaCompilers.codeCache?.flush(true)
      boot.schemaCompilers.codeCache?.release()
    })
  }

  /**
   * What a plugin's scope's ready() waits for (avvio's ready queue): every plugin loaded and every
   * route compiled, not the onReady hooks, which run after these callbacks, in the order they were
   * asked for. A plugin asking this while it loads gets its answer once the whole tree has loaded.
   * It does not start the boot: ready(), listen() or inject() on the root does.
   */
  whenLoaded(): Promise<void> {
    this.#loadedWaiters++
    return this.#loaded.promise
  }

  /** Boots once, whoever asks first. */
  #start(): Promise<void> {
    if (this.#ready !== null) return this.#ready
    const boot = this.#bootContext()
    const loaded = this.#loaded
    const milestones = {
      loaded: async (): Promise<void> => {
        loaded.resolve()
        // Let the callbacks of ready() calls made while loading run before the onReady hooks.
        if (this.#loadedWaiters > 0) await new Promise<void>((resolve) => setImmediate(resolve))
      },
      runOnReadyHooks: (run: () => Promise<void>): Promise<void> => this.#runOnReadyHooks(run),
    }
    // Boot starts on the next tick, as Fastify's does: code that follows ready() or inject() in
    // the same synchronous block (marking a plugin with fastify-plugin's skip-override, adding a
    // route) still counts. And the promise exists before any plugin runs: a plugin may call
    // instance.ready(cb), which must not start a second boot (that would load the same plugin
    // again, which calls ready() again: endless recursion).
    this.#ready = new Promise<void>((resolve, reject) => {
      process.nextTick(() => {
        bootServer(boot, milestones).then(resolve, (error: unknown) => {
          // A failed boot is over too: a plugin that outlived pluginTimeout and resumes later has
          // its declarations refused (ENC_ERR_SCOPE_BOOTED, which its own promise carries), not
          // added to a server that will never serve them.
          boot.declared.booted = true
          loaded.reject(error)
          reject(error)
        })
      })
    })
    return this.#ready
  }

  /**
   * A storage of this server's own, disabled once the hooks settle: while any AsyncLocalStorage is
   * enabled, Node runs its async hooks for the whole process (on every socket write, nextTick and
   * promise of every request). Returns the hooks' own promise, so boot resumes on the same tick.
   */
  #runOnReadyHooks(run: () => Promise<void>): Promise<void> {
    const inside = new AsyncLocalStorage<true>()
    this.#insideOnReady = inside
    const running = inside.run(true, run)
    const leave = (): void => inside.disable()
    running.then(leave, leave)
    return running
  }

  bootProfile(top: number): BootProfile {
    const boot = this.#bootContext()
    return boot.profile.report(top, boot.schemaCompilers.codeCache?.stats() ?? null)
  }

  /**
   * Spec §9: `listen(port, host?)` (the release line) and `listen({ port, host })` (the development
   * line); Fastify 3's socket forms `listen(path)` and `listen({ path })` too (listen-target.ts).
   * Resolves to the URL, or for a socket to its path, as Fastify 3 does (bind-listener.ts).
   */
  async listen(portOrOptions?: number | string | ListenOptions, hostArg?: string): Promise<string> {
    const options: ListenOptions = typeof portOrOptions === 'object' && portOrOptions !== null ? portOrOptions : { port: portOrOptions as number | undefined }
    const target = listenTarget(options, typeof hostArg === 'string' ? hostArg : undefined, this.#bootContext().rootScope.path)
    // As Fastify 3 refuses it: what the onClose hooks released (pools, files) is gone.
    if (this.#closed !== null) throw runtimeError('ENC_ERR_SERVER_CLOSED', { path: this.#bootContext().rootScope.path })
    await this.ready()
    // close() called while this listen() waited for boot (a SIGTERM during startup): it found no
    // listener to stop and ran the onClose hooks, so listening now would keep the process alive
    // on released resources. Fastify 3 and 5 listen anyway.
    if (this.#closed !== null) throw runtimeError('ENC_ERR_SERVER_CLOSED', { path: this.#bootContext().rootScope.path })
    const server = this.#http
    if (server.listening) throw runtimeError('ENC_ERR_SERVER_LISTENING', { path: this.#bootContext().rootScope.path })
    await bindListener(server, target).catch((error: unknown) => { throw listenFailure(error, target, this.#bootContext().rootScope.path) })
    const url = listeningUrl(server, target, this.#transport.secure)
    // Fastify 3's line, word for word: log pipelines grep for it.
    this.#serve.log.info(`Server listening at ${url}`)
    return url
  }

  /** From startDraining() or close() on: what readiness answers 503 for. */
  get closing(): boolean { return this.#serve.closing || this.#serve.closeConnections }

  /**
   * The shutdown delay before close() (closeOnSignals' shutdownDelay): readiness fails and every
   * response closes its connection, while the server still accepts and serves in full, so a
   * balancer that has not yet seen readiness fail loses no request to a refused connection.
   */
  startDraining(): void {
    this.#serve.closeConnections = true
  }

  /**
   * Runs the preClose hooks (close-hooks.ts), stops serving (stop-serving.ts: no new connections,
   * in-flight requests finish, what is left at `closeTimeout` is cut), then runs the onClose
   * hooks. Each preClose/onClose hook is bounded by pluginTimeout.
   */
  close(): Promise<void> {
    if (this.#closed === null) this.#closed = this.#close()
    return this.#closed
  }

  async #close(): Promise<void> {
    const serve = this.#serve
    serve.closing = true
    serve.closeConnections = true
    await runPreCloseHooks(this.#bootContext(), serve, () => this.ready())
    // Piped event streams end now, cleanly: their clients reconnect to a server that accepts.
    endEventStreams(serve)
    await stopServing(this.#http, this.#connections, serve)
    // Like Fastify: close() before boot still loads the plugins, so that their onClose hooks run.
    await this.ready().catch(() => undefined)
    await runOnCloseHooks(this.#bootContext(), serve)
    // Last: the onClose hooks (and what failed in them) may still log.
    await this.#releaseLogger()
  }

  /**
   * An in-process request: the full pipeline, no socket. Boots the server first. Without options,
   * Fastify's chained form (`inject().get('/x').end()`): the request waits for the boot.
   */
  inject(options?: InjectOptions | string): Promise<InjectResponse> | InjectChain {
    if (options === undefined) return injectChain(this.#serve, () => this.ready())
    return injectOnce(this.#serve, () => this.ready(), options)
  }

  printPlugins(): string {
    const boot = this.#bootContext()
    if (!boot.compiled) throw runtimeError('ENC_ERR_INSPECT_NOT_BOOTED', { path: boot.rootScope.path })
    return loadInspect().printPlugins(pluginLoadTree(boot.declared.plugins.root, boot.rootScope.path))
  }

  /** Built on first use, once routes are compiled (so onReady hooks may print the tree). */
  introspect(): InspectView {
    const boot = this.#bootContext()
    if (!boot.compiled) {
      throw runtimeError('ENC_ERR_INSPECT_NOT_BOOTED', { path: boot.rootScope.path })
    }
    return this.#view ??= loadInspect().createInspectView(buildInspection(boot))
  }

  #bootContext(): BootContext {
    if (this.#boot === null) throw new Error('ServerLifecycle used before attach(): a bug in server/create-server.ts')
    return this.#boot
  }
}
