import type { DependencyContainer } from 'tsyringe'
import { createServer, lift, type HttpsOptions, type Scope, type ServerOptions } from '../runtime'
import type { RawServerFor, RawServerMark } from '../runtime/shared/raw-server'
import { health } from '../plugins/health'
import type { AppOptions } from './app-options'
import { registerApp } from './app-registry'
import { Disposer } from './disposal'
import { healthChecksOf } from './health-contributors'
import { inject } from './injector'
import { LifecycleHooks } from './lifecycle-hooks'
import { checkRequiredPluginsOf, modulePlugin } from './module-plugin'
import { overrideTable } from './overrides'
import { inModuleTerms } from './schema-listing'
import { scan } from './scan'
import { closeOnSignals } from './signals'
import { isFastifyOnlyServerOption, knownServerOptions, selfBoundedHook, unknownOptions } from '../runtime/internal'
import { moduleError } from './module-codes'
import { assertNoUnlistedControllers } from './unlisted-controllers'
import { assertContractsImplemented } from './contract-check'

/**
 * The booted root scope of an application. `app.openapi(info)`, `printTree()`, `explain()` are
 * Scope methods (built from what boot resolved, runtime/inspect), so App is the Scope itself.
 */
export type App = Scope
/**
 * The app createApp() boots on the server its `http2`/`https` options make: `app.server` an
 * Http2Server, and its routes' `request.raw` an Http2ServerRequest, as createServer()'s scope.
 */
export type AppOn<H2 extends boolean, S extends HttpsOptions | undefined> = App & RawServerMark<RawServerFor<H2, S>>

/** Same default as the runtime's pluginTimeout: how long one provider's dispose() may take. */
const defaultDisposeTimeout = 10_000

/**
 * Boots an application from its root module: scans the module tree (each module becomes an
 * encapsulation context, spec §3.3), checks it, wires the providers, declares everything on a
 * new server and awaits `ready()`. Returns the booted root scope: `listen`, `inject`, `close`,
 * `server` and every runtime operation work on it. Every boot error is coded and names the
 * module path (`AppModule > PublicModule`) and the fix.
 *
 * @example
 * const app = await createApp(AppModule, { logger: true, closeOnSignals: true, health: true })
 * await app.listen({ port: 3000 })
 * app.openapi({ title: 'Notes', version: '1.0.0' })   // the OpenAPI 3.1 document of the module tree
 * // in tests: await request(app.server).get('/two').expect(200)
 */
// The signature types the server from the `http2`/`https` options (as createServer's); the body is untyped in it.
export async function createApp<H2 extends boolean = false, S extends HttpsOptions | undefined = undefined>(root: Function, options?: AppOptions<H2, S>): Promise<AppOn<H2, S>>
export async function createApp(root: Function, options: AppOptions = {}): Promise<App> {
  checkAppOptionKeys(root, options)
  const { overrides, closeOnSignals: signals, health: healthOption, ...serverOptions } = options
  const tree = scan(root)
  assertNoUnlistedControllers(tree)
  assertContractsImplemented(tree)
  const table = overrideTable(tree, overrides)
  const containers: DependencyContainer[] = []
  const disposer = new Disposer()
  const disposeTimeout = serverOptions.pluginTimeout || defaultDisposeTimeout
  // The server (nothing listens yet) comes first: its logger is the one providers inject.
  const app = createServer({ ...serverOptions, name: serverOptions.name ?? tree.type.name } satisfies ServerOptions)
  let wiring
  try {
    wiring = await inject(tree, { containers, disposer, overrides: table, log: app.log, asyncTimeout: serverOptions.pluginTimeout ?? defaultDisposeTimeout })
  } catch (error) {
    // Some providers may already exist (pools, connections): release them before reporting.
    await disposer.disposeAll(app.log, disposeTimeout)
    await app.close().catch(() => undefined)
    throw error
  }
  const built = wiring
  const lifecycle = new LifecycleHooks(tree, (node) => built.get(node)!.built)
  const bootTimeout = serverOptions.pluginTimeout ?? defaultDisposeTimeout
  try {
    // Before boot: the listeners are removed by an onClose hook, which can only be added now.
    // onClose hooks run newest first (avvio's order), the root's after every child scope's: the
    // oldest root hooks run last. So this one, added first, runs last (a second signal still
    // forces the exit while providers are released), and the providers' release, added last,
    // runs after every module's onClose hook (the root module's own are added later, at boot):
    // those hooks still have their providers. Between them, onApplicationShutdown(): after the
    // release, as NestJS calls it after the HTTP server closed.
    if (signals !== undefined && signals !== false) closeOnSignals(app, signals === true ? {} : signals, (signal) => lifecycle.signalled(signal), tree.type.name)
    // These hooks bound each step by disposeTimeout themselves, not their sum (selfBoundedHook).
    app.addHook('onClose', selfBoundedHook(() => lifecycle.afterShutdown(app.log, disposeTimeout)))
    app.addHook('onClose', selfBoundedHook(async () => {
      // Normally done by the preClose hook below; a failed boot runs no preClose hook.
      await lifecycle.beforeShutdown(app.log, disposeTimeout)
      await disposer.disposeAll(app.log, disposeTimeout)
    }))
    // onModuleDestroy() and beforeApplicationShutdown() first, as NestJS calls them before closing
    // the HTTP server: the root's preClose hooks run before every module's, in the order added.
    app.addHook('preClose', selfBoundedHook(() => lifecycle.beforeShutdown(app.log, disposeTimeout)))
    if (healthOption !== undefined && healthOption !== false) {
      const own = healthOption === true ? {} : healthOption
      app.register(health({ ...own, checks: { ...healthChecksOf(disposer.instances), ...own.checks } }))
    }
    // Every provider is built: onModuleInit() before any module declares its routes and plugins.
    await lifecycle.init(bootTimeout)
    // The root module is the app's root scope itself (lifted), its prefix applied by the runtime.
    app.register(lift(modulePlugin(tree, wiring)), { prefix: tree.meta.prefix })
    // @Requires: once every module's plugins are in, wherever an ancestor listed them. A module
    // that failed to load keeps its own error (a check of a half-loaded tree would only mislead).
    app.after((error) => {
      if (error) throw error
      checkRequiredPluginsOf(wiring)
    })
    await app.ready()
    // Every module initialised and the server booted; createApp() has not returned, so nothing listens yet.
    await lifecycle.bootstrap(bootTimeout)
  } catch (error) {
    await app.close().catch(() => undefined)
    // Normally a no-op: close() ran the hook above, and disposeAll empties its list. Kept for a close() that failed.
    await disposer.disposeAll(app.log, disposeTimeout)
    throw inModuleTerms(error, tree)
  }
  registerApp(app, tree.type, new Map([...wiring].map(([node, w]) => [node.type, w.container] as const)))
  return app
}

const appOnlyOptions: ReadonlyArray<Exclude<keyof AppOptions, keyof ServerOptions>> = ['overrides', 'closeOnSignals', 'health']

/**
 * createApp() takes every server option and its own three: a misspelt one is named against both
 * (`overides`: did you mean 'overrides'?), not reported as a createServer() option. A Fastify
 * option Enclave does not offer is left to createServer(), whose message says what to do instead.
 */
function checkAppOptionKeys(root: Function, options: AppOptions): void {
  if (options === null || typeof options !== 'object') return
  const given = Object.fromEntries(Object.entries(options).filter(([key]) => !isFastifyOnlyServerOption(key)))
  const unknown = unknownOptions(given, [...knownServerOptions, ...appOnlyOptions])
  if (unknown === null) return
  throw moduleError('ENC_ERR_MODULE_APP_OPTIONS', { root: root.name || 'the root module', problem: unknown, own: appOnlyOptions })
}
