import type { AddressInfo } from 'node:net'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { AsyncLocalStorage } from 'node:async_hooks'
import type lightMyRequest from 'light-my-request'
import { runtimeError } from '../errors/runtime-codes'
import { bootServer, loadChildren } from '../boot/boot'
import type { PluginNode } from '../declare/plugin-tree'
import { scopesDepthFirst } from '../boot/all-scopes'
import { callLifecycleHook } from '../boot/lifecycle-hook'
import { isSelfBoundedHook } from '../shared/self-bounded-hook'
import type { BootContext } from '../boot/boot-context'
import type { ServerFacade } from '../declare/declare-context'
import { handleRequest } from '../serve/pipeline'
import type { ServeContext } from '../serve/serve-context'
import { endEventStreams } from '../serve/event-streams'
import type { InjectChain, InjectOptions, InjectResponse, ListenOptions, ReadyOptions } from '../types'
import { listenTarget } from './listen-target'
import { compileAllPending } from '../boot/route-schemas'
import type { BootProfile } from '../shared/boot-profile'
import { buildInspection } from '../boot/introspection'
import { createInspectView } from '../inspect/inspect-view'
import type { InspectView } from '../shared/introspection'
import { printPlugins, type PluginLoadInspection } from '../inspect/print-plugins'
import { readPluginMeta } from '../shared/plugin-meta'
import { isLifted } from '../declare/lift'
import type { Transport } from './node-server'
import type { Connections } from './connections'

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
   * Resolves to the URL, or for a socket to its path, as Fastify 3 does.
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
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => { server.removeListener('listening', onListening); reject(error) }
      const onListening = (): void => { server.removeListener('error', onError); resolve() }
      server.once('error', onError)
      server.once('listening', onListening)
      // A socket file left by a process that did not close fails with EADDRINUSE, as in Fastify 3:
      // removing it could take the socket of a server still running.
      if (target.path !== undefined) server.listen(target.path)
      else server.listen(target.port, target.host)
    })
    const address = server.address()
    let url: string
    if (typeof address === 'string' || address === null) url = address ?? (target.path ?? '')
    else {
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
      url = `${this.#transport.secure ? 'https' : 'http'}://${host}:${address.port}`
    }
    // Fastify 3's line, word for word: log pipelines grep for it.
    this.#serve.log.info(`Server listening at ${url}`)
    return url
  }

  /**
   * Stops accepting at once, closes idle keep-alive sockets and connections that have not sent a
   * byte, lets in-flight requests finish, and force-closes what is still open after `closeTimeout`
   * (preClose hooks run first, before it stops accepting). Then runs onClose hooks, deepest
   * scopes first and newest first within a scope (a plugin closes before what it depends on).
   * Each preClose/onClose hook is bounded by pluginTimeout (avvio 7 bounds none, so one async hook
   * that never settles hangs Fastify 3's close() forever, silently): past it, ENC_ERR_PLUGIN_TIMEOUT
   * is logged and the close goes on.
   */
  get closing(): boolean { return this.#serve.closing }

  close(): Promise<void> {
    if (this.#closed === null) this.#closed = this.#close()
    return this.#closed
  }

  async #close(): Promise<void> {
    const server = this.#http
    const serve = this.#serve
    serve.closing = true
    await this.#runPreCloseHooks()
    // Piped event streams end now, cleanly: their clients reconnect to a server that accepts.
    endEventStreams(serve)
    if (server.listening) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.#forceClose(), serve.limits.closeTimeout)
        timer.unref()
        // A connection busy at close() whose last answer went out before it, with Keep-Alive (an
        // upload answered 401/413/429 before its body was read), goes idle only once that body
        // has arrived: closeIdleConnections() kept it, and close() would wait keepAliveTimeout
        // for it. So idle connections are closed again, every idleSweepMs, until close() is done.
        const sweep = setInterval(() => this.#closeIdleHttp1(), idleSweepMs)
        sweep.unref()
        server.close(() => { clearTimeout(timer); clearInterval(sweep); resolve() })
        this.#closeIdle()
        // Connected but silent: Node counts these as busy (its parser waits for a first request),
        // so closeIdleConnections() keeps them and close() would wait for closeTimeout or
        // headersTimeout. They get a short grace instead: a request the client already sent may
        // not have been read yet (a connection accepted just before close()), and destroying it
        // would answer a sent request with ECONNRESET. Still silent after it: destroyed. A
        // connection that has sent part of a request is left to finish it (or to time out).
        // A TCP socket still in its TLS handshake counts as silent.
        const connections = this.#connections
        const silent = [...connections.sockets].filter((socket) => connections.silent(socket))
        if (silent.length > 0) {
          const grace = setTimeout(() => { for (const socket of silent) if (connections.silent(socket)) socket.destroy() }, silentConnectionGraceMs)
          grace.unref()
        }
      })
    }
    // Requests that ended (or were force-closed) during shutdown finish their end hooks first.
    // server.close() calls back before destroyed sockets have emitted 'close' (which is when a
    // response's abort hooks start), so wait for those events, then for the hooks.
    // (The set loses a socket on its 'close' event: what is still in it has not emitted it.)
    await Promise.all([...this.#connections.sockets].map((socket) => new Promise<void>((resolve) => { socket.once('close', () => resolve()) })))
    for (let round = 0; round < 100 && serve.endingDuringClose.size > 0; round++) await Promise.all([...serve.endingDuringClose])
    // Like Fastify: close() before boot still loads the plugins, so that their onClose hooks run.
    await this.ready().catch(() => undefined)
    const boot = this.#bootContext()
    // Newest first, as avvio's close queue (Fastify 3 and 5) runs them: scopes in the reverse of
    // the order they loaded (depth first), so a later sibling's subtree before an earlier one and
    // every child before its parent; within a scope the last hook added first, so a hook added
    // after another (it may use what the earlier one releases) runs before it.
    for (const scope of scopesDepthFirst(boot.rootScope).reverse()) {
      for (const hook of [...scope.hooks.own('onClose')].reverse()) {
        await callLifecycleHook(hook.fn, hook.scope, [hook.scope], hook.callback, serve.limits.pluginTimeout, `onClose hook in ${scope.path}`, !isSelfBoundedHook(hook.fn))
          .catch((error: unknown) => serve.log.error({ err: error }, `onClose hook in ${scope.path} failed`))
      }
    }
    // Last: the onClose hooks (and what failed in them) may still log.
    await this.#releaseLogger()
  }

  /**
   * closeTimeout is up: every connection still open is cut. Node's closeAllConnections() knows
   * only the connections its HTTP parser still owns; a socket given to an 'upgrade' listener
   * (a websocket, or an upgrade request routing answers over HTTP) left that list, but
   * server.close() still waits for it, so it is destroyed here too, from the set of every
   * connection the server accepted.
   */
  #forceClose(): void {
    // node:http2's servers have no closeAllConnections(); their sessions are destroyed instead.
    if (typeof this.#http.closeAllConnections === 'function') this.#http.closeAllConnections()
    for (const session of this.#connections.sessions) session.destroy()
    for (const socket of this.#connections.sockets) socket.destroy()
  }

  /**
   * Idle keep-alive connections close at once. An HTTP/2 session gets GOAWAY (session.close()):
   * its open streams finish, no new one starts, and it closes when the last one ends.
   * A serverFactory's server may have neither.
   */
  #closeIdle(): void {
    this.#closeIdleHttp1()
    for (const session of this.#connections.sessions) session.close()
  }

  #closeIdleHttp1(): void {
    if (typeof this.#http.closeIdleConnections === 'function') this.#http.closeIdleConnections()
  }

  /**
   * Fastify 4+'s preClose: once close() is called and before the server stops accepting, so a
   * plugin can end what Node's close() would wait for (upgraded websocket connections). Each
   * scope before its children, depth first, as Fastify runs them. close() before boot boots first (a server that never
   * booted is not listening), as Fastify does; one whose boot failed runs none. A failing hook is
   * logged and the close goes on, as in Fastify.
   */
  async #runPreCloseHooks(): Promise<void> {
    const boot = this.#bootContext()
    if (!boot.compiled) await this.ready().catch(() => undefined)
    if (!boot.compiled) return
    for (const scope of scopesDepthFirst(boot.rootScope)) {
      for (const hook of scope.hooks.own('preClose')) {
        await callLifecycleHook(hook.fn, hook.scope, [], hook.callback, this.#serve.limits.pluginTimeout, `preClose hook in ${scope.path}`, !isSelfBoundedHook(hook.fn))
          .catch((error: unknown) => this.#serve.log.error({ err: error }, `preClose hook in ${scope.path} failed`))
      }
    }
  }

  /**
   * An in-process request: the full pipeline, no socket. Boots the server first. Without options,
   * Fastify's chained form (`inject().get('/x').end()`): the request waits for the boot.
   */
  inject(options?: InjectOptions | string): Promise<InjectResponse> | InjectChain {
    if (options === undefined) {
      const afterBoot = (req: IncomingMessage, res: ServerResponse): void => {
        this.ready().then(() => { handleRequest(this.#serve, req, res) }, (error: unknown) => { res.emit('error', error) })
      }
      return loadLightMyRequest()(afterBoot) as unknown as InjectChain
    }
    return this.#injectOnce(options)
  }

  async #injectOnce(options: InjectOptions | string): Promise<InjectResponse> {
    await this.ready()
    const serve = this.#serve
    const dispatch = (req: IncomingMessage, res: ServerResponse): void => handleRequest(serve, req, res)
    const request = typeof options === 'string' ? { url: options, method: 'GET' } : options
    // Without a socket nothing else may keep the process alive until handlerTimeout answers.
    const release = serve.deadlines.holdOpen()
    try {
      const response = await loadLightMyRequest()(dispatch, request as never)
      return response as unknown as InjectResponse
    } finally {
      release()
    }
  }

  printPlugins(): string {
    const boot = this.#bootContext()
    if (!boot.compiled) throw runtimeError('ENC_ERR_INSPECT_NOT_BOOTED', { path: boot.rootScope.path })
    return printPlugins(pluginLoadTree(boot.declared.plugins.root, boot.rootScope.path))
  }

  /** Built on first use, once routes are compiled (so onReady hooks may print the tree). */
  introspect(): InspectView {
    const boot = this.#bootContext()
    if (!boot.compiled) {
      throw runtimeError('ENC_ERR_INSPECT_NOT_BOOTED', { path: boot.rootScope.path })
    }
    return this.#view ??= createInspectView(buildInspection(boot))
  }

  #bootContext(): BootContext {
    if (this.#boot === null) throw new Error('ServerLifecycle used before attach(): a bug in server/create-server.ts')
    return this.#boot
  }
}

/**
 * How long close() leaves a connection that has not sent a byte: long enough for a request already
 * on its way over loopback or a LAN to be read, short enough not to hold a shutdown.
 */
const silentConnectionGraceMs = 100
const idleSweepMs = 100

/** The plugin tree as printPlugins shows it: plugins by name (lifted ones marked), after() steps, no internal steps. */
function pluginLoadTree(node: PluginNode, name: string): PluginLoadInspection {
  const children = node.children.filter((child) => child.internal !== true).map((child) => {
    if (child.plugin === null) return pluginLoadTree(child, 'after()')
    const meta = readPluginMeta(child.plugin)
    return pluginLoadTree(child, isLifted(child.plugin) || meta.skipOverride ? `${meta.name} (lifted)` : meta.name)
  })
  return { name, ms: node.loadMs ?? null, children }
}

/**
 * light-my-request is loaded by the first inject(), not with Enclave: a server that only
 * listens never needs it, and loading it costs about 15 ms of CPU at process start (issue 16).
 */
function loadLightMyRequest(): typeof lightMyRequest {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('light-my-request') as typeof lightMyRequest
}
