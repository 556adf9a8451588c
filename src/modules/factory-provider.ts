import type { DependencyContainer, InjectionToken } from 'tsyringe'
import type { Disposer } from './disposal'
import type { RequestEnd } from '../decorators/internal'

/** Where a factory's value goes once built: the app's disposer, with the entry's own `dispose` if it has one. */
export interface FactoryRelease {
  readonly disposer: Disposer
  readonly dispose: ((value: any, end: RequestEnd) => unknown) | undefined
}
import { describeToken, moduleError } from './module-error'
import { isThenable, settleWithin } from './settle-within'

/** Finds the factory provider a token resolves to from a container (nearest container first). */
export type FactoryLookup = (container: DependencyContainer, token: InjectionToken) => FactoryProvider | undefined

/**
 * One `{ provide, useFactory, inject }` provider: built once per declaring container, and
 * awaited at boot when the factory returns a promise (NestJS's async providers), so whoever
 * injects the token gets the value, never a Promise. createApp() settles every factory before
 * it constructs any class, dependencies first; a factory whose promise is still pending when
 * something else resolves its token is refused with a coded error instead of leaking the Promise.
 */
export class FactoryProvider {
  #state: 'new' | 'pending' | 'settled' = 'new'
  #value: unknown
  /** The coded error get() threw, kept because tsyringe rewraps errors thrown during construction. */
  refusal: Error | null = null

  constructor(
    readonly token: InjectionToken,
    private readonly inject: readonly InjectionToken[],
    private readonly factory: (...args: never[]) => unknown,
    private readonly container: DependencyContainer,
    private readonly release: FactoryRelease,
    private readonly path: string,
  ) {}

  /** What tsyringe's useFactory calls, whoever resolves the token. */
  get(): unknown {
    if (this.#state === 'settled') return this.#value
    if (this.#state === 'new') this.#call()
    if (this.#state === 'pending') {
      this.refusal = moduleError('ENC_ERR_MODULE_ASYNC_PROVIDER', { token: describeToken(this.token), path: this.path })
      throw this.refusal
    }
    return this.#value
  }

  /** Builds the value, awaiting it (and the factories it injects, first) when it is a promise. */
  async settle(lookup: FactoryLookup, timeoutMs: number): Promise<void> {
    if (this.#state === 'settled') return
    for (const token of this.inject) await lookup(this.container, token)?.settle(lookup, timeoutMs)
    if (this.#state === 'new') this.#call()
    if (this.#state === 'pending') {
      // A factory promise that never settles (a connection waiting on an unreachable host) would hang
      // createApp() for ever: like a plugin that never calls done(), it gets pluginTimeout, then a coded error.
      this.#value = await settleWithin(this.#value as PromiseLike<unknown>, timeoutMs,
        () => moduleError('ENC_ERR_MODULE_ASYNC_PROVIDER_TIMEOUT', { token: describeToken(this.token), path: this.path, ms: timeoutMs }))
      this.#state = 'settled'
      this.release.disposer.track(this.#value, this.release.dispose)
    }
  }

  #call(): void {
    const value = this.factory(...(this.inject.map((token) => this.container.resolve(token)) as never[]))
    if (isThenable(value)) {
      this.#state = 'pending'
      this.#value = value
      return
    }
    this.#state = 'settled'
    this.#value = value
    this.release.disposer.track(value, this.release.dispose)
  }
}
