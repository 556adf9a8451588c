import type { ScopeImpl } from './scope'
import type { ServerFacade } from './declare-context'
import { settleInto } from './callback-form'
import type { InjectChain, InjectOptions, InjectResponse, ListenOptions, ReadyOptions } from '../types'

// Fastify's callback forms are offered beside the promises (a Fastify app's tests and main
// files use them): listen(port[, host[, backlog]], cb), listen(options, cb), ready(cb), close(cb),
// inject(options, cb) and inject()'s light-my-request chain. With a callback nothing is returned.

/** The callback of Fastify's callback forms: the last argument, when it is a function. */
export function lastCallback<F>(args: IArguments): F | undefined {
  const last: unknown = args.length > 0 ? args[args.length - 1] : undefined
  return typeof last === 'function' ? last as F : undefined
}

/**
 * Fastify's ready(). On the root it boots the server and resolves once the onReady hooks have
 * run. On a plugin's scope (avvio's ready on a child instance) it resolves once every plugin
 * has loaded and every route is compiled, before the onReady hooks, in the order asked; a
 * plugin may call it while it loads. Both resolve with the scope they were called on; the
 * callback form gets `(error, scope)`.
 */
export function ready<S extends ScopeImpl>(scope: S, arg: ReadyOptions | ((error: Error | null, scope?: S) => void) | undefined): Promise<S> | S {
  const options = typeof arg === 'function' ? undefined : arg
  const facade = scope.context.facade
  // A callback takes no options (compileAll is a promise-form option).
  const booted = scope.parent === null || options?.compileAll === true ? facade.ready(options) : facade.whenLoaded()
  if (typeof arg !== 'function') return booted.then(() => scope) as Promise<S>
  settleInto(booted, () => { arg(null, scope) }, (error) => { arg(error) })
  return scope
}

export function listen(facade: ServerFacade, a: number | string | ListenOptions | undefined, host: string | Function | undefined, callback: ((error: Error | null, address?: string) => void) | undefined): Promise<string> | void {
  if (callback === undefined) return facade.listen(a, host as string | undefined)
  const given = typeof host === 'string' ? host : undefined
  // On failure Fastify 3 calls back with (error, null): callers test `address === null`.
  const failed = callback as unknown as (error: Error, address: null) => void
  settleInto(facade.listen(typeof a === 'function' ? undefined : a, given), (address) => { callback(null, address) }, (error) => { failed(error, null) })
}

export function close(facade: ServerFacade, callback: ((error?: Error) => void) | undefined): Promise<void> | void {
  if (callback === undefined) return facade.close()
  settleInto(facade.close(), () => { callback() }, (error) => { callback(error) })
}

export function inject(facade: ServerFacade, options: InjectOptions | string | undefined, callback: ((error: Error | null, response?: InjectResponse) => void) | undefined): Promise<InjectResponse> | InjectChain | void {
  if (options === undefined) return facade.inject()
  const response = facade.inject(options) as Promise<InjectResponse>
  if (callback === undefined) return response
  // Fastify 3's callback form: the response, or the error that kept the server from booting.
  settleInto(response, (res) => { callback(null, res) }, (error) => { callback(error) })
}
