import type { DependencyContainer } from 'tsyringe'
import { createServer, lift, type Scope, type ServerOptions } from '../runtime'
import { inject } from './injector'
import { modulePlugin } from './module-plugin'
import { scan } from './scan'
import { assertNoUnlistedControllers } from './unlisted-controllers'
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiInfo } from '../openapi/openapi-document'

/** The booted root scope of an application, plus what its module tree can tell. */
export interface App extends Scope {
  /** The OpenAPI 3.1 document of the app's module tree (see openApiDocument). */
  openapi(info?: OpenApiInfo): OpenApiDocument
}

/**
 * Boots an application from its root module: scans the module tree (each module becomes an
 * encapsulation context, spec §3.3), checks it, wires the providers, declares everything on a
 * new server and awaits `ready()`. Returns the booted root scope: `listen`, `inject`, `close`,
 * `server` and every runtime operation work on it. Every boot error is coded and names the
 * module path (`AppModule > PublicModule`) and the fix.
 *
 * @example
 * const app = await createApp(AppModule, { logger: true })
 * await app.listen({ port: 3000 })
 * app.openapi({ title: 'Notes', version: '1.0.0' })   // the OpenAPI 3.1 document of the module tree
 * // in tests: await request(app.server).get('/two').expect(200)
 */
export async function createApp(root: Function, options: ServerOptions = {}): Promise<App> {
  const tree = scan(root)
  assertNoUnlistedControllers(tree)
  const containers: DependencyContainer[] = []
  let wiring
  try {
    wiring = inject(tree, containers)
  } catch (error) {
    // Some providers may already exist (pools, connections): release them before reporting.
    await disposeAll(containers)
    throw error
  }
  const app = createServer({ ...options, name: options.name ?? tree.type.name })
  app.decorate('openapi', (info?: OpenApiInfo) => buildOpenApiDocument(tree, info))
  // Providers with a dispose() method are disposed when the app closes, children first.
  app.addHook('onClose', () => disposeAll(containers))
  try {
    // The root module is the app's root scope itself (lifted), its prefix applied by the runtime.
    app.register(lift(modulePlugin(tree, wiring)), { prefix: tree.meta.prefix })
    await app.ready()
  } catch (error) {
    await app.close().catch(() => undefined)
    throw error
  }
  return app as App
}

async function disposeAll(containers: readonly DependencyContainer[]): Promise<void> {
  for (const container of [...containers].reverse()) await container.dispose()
}
