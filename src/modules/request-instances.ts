import type { Handler, Logger, Reply, Request, Scope } from '../runtime'
import type { RequestEnd } from '../decorators/internal'
import type { Recipe } from './request-recipes'
import { isThenable } from './settle-within'
import { succeeded } from './disposal'

/**
 * The request-scoped instances of one request: each built on first need (async factories
 * awaited, dependencies first), shared by every consumer within the request, and released
 * newest first when the route's handler has settled.
 */
export class RequestInstances {
  readonly #values = new Map<Recipe, Promise<unknown>>()
  readonly #created: Array<{ readonly value: unknown; readonly recipe: Recipe }> = []

  constructor(private readonly request: Request, private readonly reply: Reply) {}

  get(recipe: Recipe): Promise<unknown> {
    let value = this.#values.get(recipe)
    if (value === undefined) this.#values.set(recipe, value = this.#build(recipe))
    return value
  }

  async #build(recipe: Recipe): Promise<unknown> {
    const args = new Array<unknown>(recipe.args.length)
    for (let i = 0; i < args.length; i++) {
      const arg = recipe.args[i]
      args[i] = arg.kind === 'value' ? arg.value : arg.kind === 'request' ? this.request : arg.kind === 'reply' ? this.reply : await this.get(arg.recipe)
    }
    let value = recipe.make(args)
    if (isThenable(value)) value = await value
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
    const created = this.#created
    for (let i = created.length - 1; i >= 0; i--) {
      const { value, recipe } = created[i]
      try {
        if (recipe.release !== 'own') await recipe.release(value, end)
        else if (typeof (value as { dispose?: unknown } | null)?.dispose === 'function') await (value as { dispose(end: RequestEnd): unknown }).dispose(end)
      } catch (error) {
        if (first === undefined) first = { error }
        else log.error({ err: error }, `releasing ${recipe.what} at the end of the request failed`)
      }
    }
    created.length = 0
    return first
  }
}

/** What a module's wiring holds for a controller built per request, in place of its instance. */
export class PerRequestController {
  constructor(readonly recipe: Recipe) {}
}

const controllers = new WeakMap<Request, object>()

/** The request's controller instance, for a route whose controller is request-scoped (argument-builder.ts). */
export function controllerOf(request: Request): object {
  return controllers.get(request)!
}

/**
 * A route of a request-scoped controller: the controller (and the request-scoped part of its
 * graph) is built before the handler runs, and released once it settled, with how it ended. A
 * build failure (a factory's throw or rejection) is the handler's error, for the route's error
 * handlers. A release failure is the route's error when the handler succeeded and nothing is
 * sent yet (a commit that fails answers 500, not the 200 it would have confirmed); otherwise it
 * is logged. Routes whose controller is a singleton never get here.
 */
export function inRequestScope(controller: Recipe, handler: Handler): Handler {
  return async function (this: Scope, request: Request, reply: Reply) {
    const instances = new RequestInstances(request, reply)
    let result: unknown
    let end: RequestEnd = succeeded
    try {
      controllers.set(request, await instances.get(controller) as object)
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
    const released = await instances.release(end, request.log)
    if (end.failed) throw end.error
    if (released !== undefined) {
      if (!reply.sent) throw released.error
      request.log.error({ err: released.error }, 'releasing a request-scoped provider failed after the answer was sent')
    }
    return result
  } as Handler
}
