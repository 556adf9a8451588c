import type { DependencyContainer, InjectionToken } from 'tsyringe'
import type { ProviderToken } from '../decorators/internal'
import { describeToken, moduleError } from './module-error'
import { resolveVisible } from './resolve-visible'
import { injectionToken } from './provider-token'

/** NestJS's `ModuleRefGetOrResolveOpts`: `strict: false` looks in every module of the app, not only what the module sees. */
export interface ModuleRefOptions { readonly strict?: boolean }

/**
 * NestJS's ModuleRef: inject it (`constructor(private readonly moduleRef: ModuleRef)`) to look a
 * provider up by token at run time, from the module whose provider, controller or module class
 * injects it. Each module's container provides its own.
 */
export abstract class ModuleRef {
  /**
   * The instance the module sees for `token` (its own providers, its lifted children's and its
   * ancestors'); with `{ strict: false }`, the one the first module providing it (root first) has.
   * A transient provider is refused, as NestJS's get() refuses one (`ENC_ERR_MODULE_TRANSIENT`,
   * naming `resolve()`); a request-scoped one too (`ENC_ERR_MODULE_REQUEST_SCOPE`): in a request,
   * `await resolveProvider(request, Token)`.
   */
  abstract get<T>(token: ProviderToken<T>, options?: ModuleRefOptions): T
  /**
   * `get()` as a promise, for code written against NestJS's `resolve()`, and a transient provider's
   * fresh instance on each call (as NestJS's, which builds one per context id; the instance is kept
   * until close(), which releases it). There is no context id: a request-scoped provider belongs to
   * a request (`resolveProvider(request, Token)`).
   */
  abstract resolve<T>(token: ProviderToken<T>, contextId?: undefined, options?: ModuleRefOptions): Promise<T>
  /**
   * A new instance of a class no module provides, its constructor parameters from what the module
   * sees (checked as a provider's are: an invisible one is refused). Not tracked: nothing calls its
   * lifecycle methods or releases it, as in NestJS.
   */
  abstract create<T>(type: new (...args: any[]) => T): Promise<T>
}

/** What a module's ModuleRef is given by the injector. */
export interface ModuleRefSource {
  readonly container: DependencyContainer
  /** The module's name, for messages. */
  readonly module: string
  /** The container of the first module (root first) that provides `token`, for `strict: false`. */
  readonly anywhere: (token: unknown) => DependencyContainer | undefined
  /** Refuses a class whose constructor parameters the module does not see (the boot check). */
  readonly checkClass: (type: Function) => void
  /** Whether `token`, as `from` sees it, is a transient provider (or an alias of one). */
  readonly isTransient: (from: DependencyContainer, token: unknown) => boolean
}

class ContainerModuleRef extends ModuleRef {
  constructor(private readonly source: ModuleRefSource) { super() }

  get<T>(token: ProviderToken<T>, options?: ModuleRefOptions): T {
    return this.#lookUp(token, options, true)
  }

  async resolve<T>(token: ProviderToken<T>, _contextId?: undefined, options?: ModuleRefOptions): Promise<T> {
    return this.#lookUp(token, options, false)
  }

  #lookUp<T>(publicToken: ProviderToken<T>, options: ModuleRefOptions | undefined, single: boolean): T {
    const token = injectionToken(publicToken)
    const { container, module, anywhere, isTransient } = this.source
    let from = container
    if (options?.strict === false && !container.isRegistered(token, true)) from = anywhere(token) ?? container
    // NestJS's get() refuses a transient provider: each call would build (and keep) another one.
    if (single && isTransient(from, token)) throw moduleError('ENC_ERR_MODULE_TRANSIENT', { case: 'module-ref-get', subject: describeToken(token), module })
    return from === container ? resolveVisible(container, token, 'moduleRef.get', module) : from.resolve(token)
  }

  async create<T>(type: new (...args: any[]) => T): Promise<T> {
    this.source.checkClass(type)
    return this.source.container.resolve(type)
  }
}

export function moduleRefOf(source: ModuleRefSource): ModuleRef {
  return new ContainerModuleRef(source)
}
