import type { Handler, Logger, Reply, Request, Scope } from '../runtime'
import type { RequestEnd } from '../decorators/internal'
import type { Recipe } from './request-recipes'
import { isThenable } from './settle-within'
import { succeeded } from './disposal'
import { moduleError } from './module-error'
import { onHandOver } from '../runtime/internal'

/**
 * The request-scoped instances of one request: each built on first need (async factories
 * awaited, dependencies first), shared by every consumer within the request, and released
 * newest first when the route's handler has settled.
 */
export class RequestInstances {
  readonly #values = new Map<Recipe, Promise<unknown>>()
  readonly #created: Array<{ readonly value: unknown; readonly recipe: Recipe }> = []
  /** Rejects when the request's signal aborts: one listener per request, however many gets wait. */
  #aborted: Promise<never> | undefined
  /** Set once released: a build still in flight then (an aborted request's guard) is released as it lands. */
  #ended: RequestEnd | undefined
  /** A route handler wrapped by inRequestScope() serves this request: resolveProvider(request, ...) may build here. */
  owned = false
  /** The wrapped handler is running: it releases when it settles if the request ended meanwhile. */
  running = false
  /** How the handler settled, for a release it leaves to the end of the request (a late request-scoped hook). */
  settled: RequestEnd | undefined
  /** The request ended (onResponse / onRequestAbort ran the release hook), whether or not anything was released then. */
  endCame = false
  /** A request-scoped guard's denial or failure, for `end.error` when the handler never ran. */
  failure: unknown
  /** The route's request-scoped controller, once built (inRequestScope), for its method's call. */
  controller: object | undefined

  constructor(private readonly request: Request, private readonly reply: Reply) {}

  get released(): boolean { return this.#ended !== undefined }

  get(recipe: Recipe): Promise<unknown> {
    if (this.#ended !== undefined) return Promise.reject(moduleError('ENC_ERR_MODULE_REQUEST_SCOPE', { case: 'released', subject: recipe.what }))
    let value = this.#values.get(recipe)
    if (value === undefined) this.#values.set(recipe, value = this.#build(recipe))
    // A factory that never settles is given up when the request is (handlerTimeout, client gone),
    // wherever it is awaited: a guard, an interceptor, resolveProvider(request, ...), the controller.
    return recipe.mayWait ? Promise.race([value, this.#aborted ??= abortedOf(this.request.signal)]) : value
  }

  /**
   * A new instance of `recipe` on each call, released with the request's other instances: a
   * transient provider resolveProvider(request, ...) builds (the request is its consumer).
   */
  fresh(recipe: Recipe): Promise<unknown> {
    if (this.#ended !== undefined) return Promise.reject(moduleError('ENC_ERR_MODULE_REQUEST_SCOPE', { case: 'released', subject: recipe.what }))
    const value = this.#build(recipe)
    return recipe.mayWait ? Promise.race([value, this.#aborted ??= abortedOf(this.request.signal)]) : value
  }

  async #build(recipe: Recipe): Promise<unknown> {
    const args = new Array<unknown>(recipe.args.length)
    for (let i = 0; i < args.length; i++) {
      const arg = recipe.args[i]
      args[i] = arg.kind === 'value' ? arg.value : arg.kind === 'request' ? this.request : arg.kind === 'reply' ? this.reply : await this.get(arg.recipe)
    }
    let value = recipe.make(args)
    if (isThenable(value)) value = await value
    if (this.#ended !== undefined) {
      // The request ended while this was being built (a client that went away mid-guard): release it now.
      await this.#releaseOne(value, recipe, this.#ended).catch((error: unknown) => this.request.log.error({ err: error }, `releasing ${recipe.what} at the end of the request failed`))
      throw moduleError('ENC_ERR_MODULE_REQUEST_SCOPE', { case: 'released', subject: recipe.what })
    }
    this.#created.push({ value, recipe })
    return value
  }

  /**
   * Releases what this request built, newest first (a transaction before the pool client it
   * holds): a factory's `dispose(value, end)`, else the value's own `dispose(end)`. Every one
   * runs; the first failure is returned (the route's error when the handler succeeded), later ones logged.
   */
  async release(end: RequestEnd, log: Logger): Promise<{ error: unknown } | undefined> {
    let first: { error: unknown } | undefined
    this.#ended = end
    const created = this.#created
    for (let i = created.length - 1; i >= 0; i--) {
      const { value, recipe } = created[i]
      try {
        await this.#releaseOne(value, recipe, end)
      } catch (error) {
        if (first === undefined) first = { error }
        else log.error({ err: error }, `releasing ${recipe.what} at the end of the request failed`)
      }
    }
    created.length = 0
    return first
  }

  async #releaseOne(value: unknown, recipe: Recipe, end: RequestEnd): Promise<void> {
    if (recipe.release !== 'own') await recipe.release(value, end)
    else if (typeof (value as { dispose?: unknown } | null)?.dispose === 'function') await (value as { dispose(end: RequestEnd): unknown }).dispose(end)
  }
}

const stores = new WeakMap<Request, RequestInstances>()

/**
 * The request's instances, made on first need: by a request-scoped guard or hook class (before the
 * handler), by the handler's wrapper, or by resolveProvider(request, ...) inside withRequestScope().
 * One per request, so a guard, an interceptor and the controller share one Tenant.
 */
export function instancesOf(request: Request, reply: Reply): RequestInstances {
  let instances = stores.get(request)
  if (instances === undefined) {
    stores.set(request, instances = new RequestInstances(request, reply))
    onHandOver(reply, releaseAfterHandOver)
  }
  return instances
}

/**
 * reply.callNotFound() hands the response to the not-found route (Fastify 3's context switch): the
 * calling route's end hooks, where releaseAtEnd() sits, no longer run. The runtime calls this then
 * (onHandOver: a field on the reply, nothing wrapped per request), and the release waits for the
 * response's own end instead ('finish'; 'close' first when the client went away; inject()
 * responses never close). releaseAtEnd() runs once whichever end comes first.
 */
function releaseAfterHandOver(request: Request, reply: Reply): void {
  const res = reply.raw
  const end = (): void => {
    res.off('finish', end)
    res.off('close', end)
    releaseAtEnd(request).catch((error: unknown) => request.log.error({ err: error }, 'releasing a request-scoped provider failed after the answer was sent'))
  }
  res.on('finish', end)
  res.on('close', end)
}

/** The request's instances when something made them, else undefined. */
export function existingInstances(request: Request): RequestInstances | undefined {
  return stores.get(request)
}

/**
 * The end-of-request release (onResponse, or onRequestAbort; appended after the route's own) for a
 * route with request-scoped guards or hook classes: what they built is released here when the
 * handler never ran (a guard denied, validation failed, the client went away), with `end.failed`;
 * and everything is, when the route's release waits for the end of the request (a request-scoped
 * hook after the handler: preSerialization, onSend, onResponse, onError, onTimeout), with how the
 * handler settled. A handler still running (a 503 of handlerTimeout went out, the client went away)
 * releases when it settles instead. Runs once per request: the first of the two ends.
 */
export async function releaseAtEnd(request: Request): Promise<void> {
  const instances = stores.get(request)
  if (instances === undefined || instances.released || instances.endCame) return
  instances.endCame = true
  if (instances.running) return
  const released = await instances.release(instances.settled ?? { failed: true, error: instances.failure }, request.log)
  if (released !== undefined) request.log.error({ err: released.error }, 'releasing a request-scoped provider failed after the answer was sent')
}

/** What a module's wiring holds for a controller built per request, in place of its instance. */
export class PerRequestController {
  constructor(readonly recipe: Recipe) {}
}

function abortedOf(signal: AbortSignal): Promise<never> {
  const aborted = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason)
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
  aborted.catch(() => undefined) // observed through race() only when something still waits
  return aborted
}

/** The request's controller instance, for a route whose controller is request-scoped (argument-builder.ts). */
export function controllerOf(request: Request): object {
  return stores.get(request)!.controller!
}

/**
 * A route of a request-scoped controller, or one with a request-scoped guard, hook class or
 * interceptor (then `controller` is null): the controller (and the request-scoped part of its
 * graph) is built before the handler runs, sharing what the route's guards already built. A build
 * failure (a factory's throw or rejection) is the handler's error, for the route's error handlers.
 *
 * The release runs once the handler settled, with how it ended. A release failure is then the
 * route's error when the handler succeeded and nothing is sent yet (a commit that fails answers
 * 500, not the 200 it would have confirmed); otherwise it is logged. With `untilEnd` (a request-scoped
 * hook runs after the handler, and needs the instances then), the release is left to the end of
 * the request (releaseAtEnd), unless the request already ended while the handler ran; a failure
 * there can only be logged. Routes that need nothing request-scoped never get here.
 */
export function inRequestScope(controller: Recipe | null, handler: Handler, untilEnd = false): Handler {
  return async function (this: Scope, request: Request, reply: Reply) {
    const instances = instancesOf(request, reply)
    instances.owned = true
    instances.running = true
    let result: unknown
    let end: RequestEnd = succeeded
    try {
      // A factory that never settles is given up when request.signal aborts (get() races it), and
      // what it builds later is released as it lands.
      if (controller !== null) instances.controller = await instances.get(controller) as object
      result = handler.call(this, request, reply)
      // The reply is itself a thenable (resolved once sent): the handler answered through it.
      if (result !== reply && isThenable(result)) result = await result
      // Returned without being sent: the method sends later. Wait for it, so the pipeline sees an
      // answered reply and what the request built is released after the send, not before.
      if (result === reply) {
        if (!reply.sent) await reply
        result = undefined
      }
    } catch (error) {
      end = { failed: true, error }
    }
    instances.running = false
    if (untilEnd && !instances.endCame) {
      instances.settled = end
      if (end.failed) throw end.error
      return result
    }
    const released = instances.released ? undefined : await instances.release(end, request.log)
    if (end.failed) throw end.error
    if (released !== undefined) {
      if (!reply.sent) throw released.error
      request.log.error({ err: released.error }, 'releasing a request-scoped provider failed after the answer was sent')
    }
    return result
  } as Handler
}
