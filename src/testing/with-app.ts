import type { ProviderToken } from '../decorators'
import type { HttpsOptions, InjectOptions, InjectResponse, Scope } from '../runtime'
import { createApp, type AppOn, type AppOptions } from '../modules'
import { resolveFor } from '../modules/app-registry'

/** What a test body gets: the booted app, typed provider lookup, in-process requests. `A`: the app's type (its server's, AppOn). */
export interface TestApp<A extends Scope = Scope> {
  readonly app: A
  /**
   * The app's Node HTTP server (`app.server`), for supertest: `request(t.server).get('/')`.
   * supertest listens on an ephemeral port itself; withApp never calls listen().
   */
  readonly server: A['server']
  /** The instance the app's own code sees for `token` (from the root module, or from `from`). */
  get<T>(token: ProviderToken<T>, from?: Function): T
  /** An in-process request through the whole pipeline (no socket); `json<T>()` types the body. */
  inject(options: InjectOptions | string): Promise<InjectResponse>
}

/**
 * Boots `root` (overrides and all createApp options apply), runs `body`, and closes the app
 * whatever happens, so providers are disposed and no test leaks a server. Resolves with what
 * `body` returns; an error thrown by `body` wins over one from close().
 *
 * @example
 * await withApp(AppModule, { overrides: [override(Mailer, { useValue: fake })] }, async (t) => {
 *   const res = await t.inject({ method: 'POST', url: '/signup', payload: { email: 'a@b.c' } })
 *   expect(res.statusCode).to.equal(201)
 *   expect(t.get(Mailer)).to.equal(fake)
 * })
 */
// Typed per server options as createApp() is; the body is untyped in them.
export async function withApp<R, H2 extends boolean = false, S extends HttpsOptions | undefined = undefined>(root: Function, options: AppOptions<H2, S>, body: (t: TestApp<AppOn<H2, S>>) => R | Promise<R>): Promise<R>
export async function withApp<R>(root: Function, options: AppOptions, body: (t: never) => R | Promise<R>): Promise<R> {
  const app: Scope = await createApp(root, options)
  const t: TestApp = {
    app,
    server: app.server,
    get: (token, from) => resolveFor('t.get', app, token, from),
    inject: (request) => app.inject(request),
  }
  let result: R
  try {
    result = await body(t as never)
  } catch (error) {
    await app.close().catch(() => undefined)
    throw error
  }
  await app.close()
  return result
}
