import type { InjectionToken } from 'tsyringe'
import type { HttpsOptions, ServerOptions } from '../runtime'
import type { ConcreteClass, ProviderScope, ProviderToken, RequestEnd } from '../decorators/internal'
import type { HealthOptions } from '../plugins/health-types'

/**
 * What code that injects a `T` can reach: its public members. A mapped type over `keyof T` drops
 * private and #private members, which TypeScript otherwise compares nominally, so a stub of a
 * class with a `private readonly config` is accepted when its public methods fit. Functions and
 * primitives are kept as they are (mapping would drop a call signature).
 */
export type PublicShape<T> = T extends (...args: any[]) => unknown ? T : T extends object ? { [K in keyof T]: T[K] } : T

/**
 * What a test stub of a `T` may be: any part of its public shape (NestJS's overrideProvider().useValue()
 * takes a partial stub; a test fakes the methods it calls). A misspelt member is still an
 * excess-property error in an object literal. Functions and primitives stay whole.
 */
export type StubShape<T> = T extends (...args: any[]) => unknown ? T : T extends object ? Partial<PublicShape<T>> : T

/**
 * What replaces a provider in a test: the same three recipes a module can declare, typed by the
 * token's public shape (a stub need not copy private members; a `useValue` may be a partial stub). NoInfer: the token alone says what T is.
 */
export type OverrideRecipe<T = unknown> =
  | { useValue: NoInfer<StubShape<T>>; scope?: never }
  | { useClass: ConcreteClass<NoInfer<PublicShape<T>>>; scope?: ProviderScope }
  // A factory may be async: createApp() awaits it, as it does a module's async factory provider.
  | {
    useFactory: (...deps: any[]) => NoInfer<PublicShape<T>> | Promise<NoInfer<PublicShape<T>>>
    inject?: readonly ProviderToken[]
    /** 'request': a fresh value per request, as a module's request-scoped factory (the override does not inherit the replaced provider's scope). */
    scope?: ProviderScope
    /** Releases the factory's value on close() (per request when request-scoped), as a module's factory provider does. */
    dispose?: (value: NoInfer<PublicShape<T>>, end: RequestEnd) => unknown
  }

/** `[Token, recipe]`: build with `override(Token, recipe)` to have the recipe checked against the token's type. */
export type ProviderOverride<T = any> = readonly [ProviderToken<T>, OverrideRecipe<T>]

export interface SignalOptions {
  /** The signals that start a graceful close. Default `['SIGINT', 'SIGTERM']`. */
  signals?: readonly NodeJS.Signals[]
  /** Called instead of process.exit once close() settled: for embedding and tests. Default process.exit. */
  exit?: (code: number) => void
  /**
   * Milliseconds between the signal and close(): readiness answers 503 and every response
   * carries `Connection: close` at once, while the server still accepts and serves, so a
   * balancer (Kubernetes endpoints) stops routing here before the listener closes. Default 0
   * (close at once). Set it to what your balancer needs to see readiness fail (readiness
   * periodSeconds x failureThreshold, or the endpoints' propagation), and keep it plus
   * closeTimeout under terminationGracePeriodSeconds.
   */
  shutdownDelay?: number
}

/**
 * createApp() options: every server option, plus what only an app built from modules can do.
 * `H2`, `S`: the `http2` and `https` options as given, which type the app's server (RawServerFor).
 */
export interface AppOptions<H2 extends boolean = boolean, S extends HttpsOptions | undefined = HttpsOptions | undefined> extends ServerOptions<H2, S> {
  /**
   * Replace providers for a test: each token is replaced wherever a module of the tree declares
   * it (every declaration, so a child's own provider never keeps the real one alive); the
   * replacement lives in the declaring module's container, so visibility does not change.
   * A token that no module declares fails boot with ENC_ERR_MODULE_OVERRIDE_UNKNOWN.
   */
  overrides?: readonly ProviderOverride[]
  /**
   * SIGINT/SIGTERM run close() once and exit 0 (1 when close() failed); a second signal while
   * closing exits 130 (SIGINT) / 143 (SIGTERM) at once. Off by default: a library must not own
   * the process.
   */
  closeOnSignals?: boolean | SignalOptions
  /** Mounts the health routes (`true` for the defaults); providers with `checkHealth()` add their checks. */
  health?: boolean | HealthOptions
}

/**
 * A typed override entry for `createApp(Root, { overrides: [...] })`.
 *
 * @example
 * const app = await createApp(AppModule, { overrides: [override(Mailer, { useValue: fakeMailer })] })
 */
export function override<T>(token: ProviderToken<T>, recipe: OverrideRecipe<T>): ProviderOverride<T> {
  return [token, recipe]
}
