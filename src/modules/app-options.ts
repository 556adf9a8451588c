import type { InjectionToken } from 'tsyringe'
import type { ServerOptions } from '../runtime'
import type { ConcreteClass } from '../decorators/internal'
import type { HealthOptions } from '../plugins/health-types'

/** What replaces a provider in a test: the same three recipes a module can declare. */
export type OverrideRecipe<T = unknown> =
  | { useValue: T }
  | { useClass: ConcreteClass<T> }
  // A factory may be async: createApp() awaits it, as it does a module's async factory provider.
  | { useFactory: (...deps: any[]) => T | Promise<T>; inject?: readonly InjectionToken[] }

/** `[Token, recipe]`: build with `override(Token, recipe)` to have the recipe checked against the token's type. */
export type ProviderOverride<T = any> = readonly [InjectionToken<T>, OverrideRecipe<T>]

export interface SignalOptions {
  /** The signals that start a graceful close. Default `['SIGINT', 'SIGTERM']`. */
  signals?: readonly NodeJS.Signals[]
  /** Called instead of process.exit once close() settled: for embedding and tests. Default process.exit. */
  exit?: (code: number) => void
}

/** createApp() options: every server option, plus what only an app built from modules can do. */
export interface AppOptions extends ServerOptions {
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
export function override<T>(token: InjectionToken<T>, recipe: OverrideRecipe<T>): ProviderOverride<T> {
  return [token, recipe]
}
