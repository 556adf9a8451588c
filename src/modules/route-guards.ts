import type { DependencyContainer } from 'tsyringe'
import { describeSecurity, type Reply, type Request, type RequestHook } from '../runtime'
import { bindHook, describeRefusal, securityOf } from '../runtime/internal'
import { getClassRouteHooks, getMethodRouteHooks, type Class, type GuardStage, type RouteHookName } from '../decorators/internal'
import { moduleError } from './module-error'
import { isThenable } from './settle-within'
import { markPerRequest, perRequestRecipe } from './per-request-classes'
import { instancesOf, type RequestInstances } from './request-instances'
import type { Recipe } from './request-recipes'

/**
 * A route hook given as a class (`@OnRequest(AdminOnly)`): a provider of the controller's module
 * whose `handle(request, reply)` is the hook, so a guard can use injected services. Told apart
 * from a hook function by its source, as scan.ts tells module classes from plugin functions.
 */
export function isGuardClass(hook: Function): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(hook))
}

/** Every hook class a controller's route hooks name (its own, its base classes', its methods'). */
export function guardClassesOf(controller: Class): Function[] {
  const found = new Set<Function>()
  for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const metas = [...getClassRouteHooks(c as Function), ...[...getMethodRouteHooks(c as Function).values()].flat()]
    for (const meta of metas) for (const hook of meta.hooks) if (isGuardClass(hook)) found.add(hook)
  }
  return [...found]
}

/** The hook classes a module class's own route hooks name (`@OnRequest(AuthGuard)` on the module). */
export function moduleGuardClassesOf(module: Class): Function[] {
  return [...new Set(getClassRouteHooks(module).flatMap((meta) => meta.hooks.filter(isGuardClass)))]
}

/** Refuses a hook class without a `handle` method, before anything is built. */
export function checkGuardClass(guard: Function, owner: Class, path: string): void {
  const prototype = guard.prototype as Record<string, unknown> | undefined
  if (typeof prototype?.handle !== 'function') {
    // A NestJS guard keeps its canActivate(context): the message names the rename.
    const canActivate = typeof prototype?.canActivate === 'function'
    throw moduleError('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED', { case: 'no-handle', path, name: `${guard.name} (on ${owner.name})`, canActivate })
  }
}

/** Turns a route hook as declared (a function, or a hook class) into the function the route runs at `stage`. */
export type HookResolver = (hook: Function, stage: RouteHookName) => Function

const guardStages: ReadonlySet<RouteHookName> = new Set<GuardStage>(['onRequest', 'preValidation', 'preHandler'])
const resolvers = new WeakMap<DependencyContainer, HookResolver>()

/**
 * The hook functions of a module's hook classes, one per class and kind of stage, built at boot
 * from the module's container (visibility was checked with the other dependencies). One resolver
 * per container, so a module's guard shared by its descendants' routes is one function: a guard
 * class marked with describeSecurity() passes its mark to it, so openapi() marks the routes it guards.
 */
export function guardResolver(container: DependencyContainer): HookResolver {
  const known = resolvers.get(container)
  if (known !== undefined) return known
  const bound = new Map<Function, Function>()
  const boundPlain = new Map<Function, Function>()
  const resolve: HookResolver = (hook, stage) => {
    if (!isGuardClass(hook)) return hook
    const guard = guardStages.has(stage)
    const cache = guard ? bound : boundPlain
    let fn = cache.get(hook)
    if (fn === undefined) {
      // Request-scoped (it injects one): built per request from the request's instances, at any stage.
      const recipe = perRequestRecipe(container, hook)
      if (recipe !== undefined) fn = markPerRequest(guard ? perRequestGuardHook(recipe, hook) : perRequestStageHook(recipe, hook, stage))
      else {
        const instance = container.resolve(hook as never) as { handle: Function }
        // bind() keeps handle's arity, so a `done` parameter still marks a callback-style hook.
        fn = guard ? guardHook(instance) : instance.handle.bind(instance) as Function
      }
      Object.defineProperty(fn, 'name', { value: `${hook.name}.handle` })
      if (guard) {
        const mark = securityOf(hook)
        // Its handle() may return false: openapi() documents the 403 on the routes it guards, unless
        // describeSecurity() on the class already says what it answers (a bearer guard's 401).
        if (mark !== undefined) describeSecurity(fn as RequestHook, mark)
        else describeRefusal(fn, { status: 403, code: 'ENC_ERR_GUARD_DENIED' })
      }
      cache.set(hook, fn)
    }
    return fn
  }
  resolvers.set(container, resolve)
  return resolve
}

/**
 * The guard's `handle` as a request hook. A sync or async `handle` that gives `false` denies
 * (NestJS's canActivate habit; a hook function's return value is ignored, as in Fastify, but a
 * guard class is our own contract). A `done`-style handle keeps its arity, so the runner still
 * passes `done`, and denies by `done(error)`. A guard that sent its own answer is left alone.
 */
function guardHook(instance: { handle: Function }): RequestHook {
  const handle = instance.handle
  if (handle.length >= 3) return doneGuardHook(instance)
  return function (request: Request, reply: Reply) {
    const result: unknown = handle.call(instance, request, reply)
    return isThenable(result) ? result.then((value) => settle(value, reply)) : settle(result, reply)
  } as RequestHook
}

/** A guard's answer: `false` denies, unless the guard sent its own answer. */
function settle(value: unknown, reply: Reply): unknown {
  if (value === false && !reply.sent) throw moduleError('ENC_ERR_GUARD_DENIED')
  return value
}

/**
 * A request-scoped guard class: built (with the request-scoped part of its graph) per request,
 * from the request's instances, so it shares them with the route's interceptors and controller;
 * then run as guardHook() runs a singleton's. A failure to build it is the hook's error (the
 * route's error handlers answer); a denial or failure is kept as the request's `end.error` for
 * the release when the handler never runs.
 */
function perRequestGuardHook(recipe: Recipe, type: Function): RequestHook {
  const handle = (type.prototype as { handle: Function }).handle
  if (handle.length >= 3) {
    return function (request: Request, reply: Reply, done: (error?: unknown) => void) {
      const instances = instancesOf(request, reply)
      const fail = (error: unknown): void => {
        if (instances.failure === undefined) instances.failure = error
        done(error)
      }
      instances.get(recipe).then((instance) => {
        (doneGuardHook(instance as { handle: Function }) as Function)(request, reply, (error?: unknown) => { if (error === undefined) done(); else fail(error) })
      }, fail)
    } as RequestHook
  }
  return async function (request: Request, reply: Reply) {
    const instances = instancesOf(request, reply)
    try {
      const instance = await instances.get(recipe) as { handle: Function }
      return settle(await instance.handle(request, reply), reply)
    } catch (error) {
      if (instances.failure === undefined) instances.failure = error
      throw error
    }
  } as RequestHook
}

/**
 * A request-scoped hook class at a stage that is not a guard's (preParsing, preSerialization,
 * onSend, onResponse, onError, onTimeout): built from the request's instances when it runs, then
 * its `handle` called with the stage's arguments, as a singleton's bound `handle` is. The stand-in
 * has `handle`'s arity and async-ness, so the runtime (bound-hook.ts) picks the calling style (a
 * `done` parameter, preParsing's payload or legacy form) it picks for the singleton. A failure to
 * build it is the hook's error, kept as the request's `end.error` when the handler never runs.
 */
function perRequestStageHook(recipe: Recipe, type: Function, stage: RouteHookName): Function {
  const handle = (type.prototype as { handle: Function }).handle
  const noteFailure = (instances: RequestInstances, error: unknown): void => { if (instances.failure === undefined) instances.failure = error }
  const run = async function (...args: unknown[]): Promise<unknown> {
    const instances = instancesOf(args[0] as Request, args[1] as Reply)
    try {
      return await handle.apply(await instances.get(recipe), args)
    } catch (error) {
      noteFailure(instances, error)
      throw error
    }
  }
  const fn = bindHook(stage, handle, null as never).callback
    ? function (...args: unknown[]): void {
      const instances = instancesOf(args[0] as Request, args[1] as Reply)
      const done = args[args.length - 1] as (error?: unknown) => void
      const fail = (error: unknown): void => { noteFailure(instances, error); done(error) }
      instances.get(recipe).then((instance) => {
        // A done-style hook that also returns a promise goes on with whichever settles first, as the runner does.
        const result: unknown = handle.apply(instance, args)
        if (isThenable(result)) result.then(() => done(), fail)
      }).catch(fail)
    }
    : handle.constructor.name === 'AsyncFunction' ? run : function (...args: unknown[]): Promise<unknown> { return run(...args) }
  Object.defineProperty(fn, 'length', { value: handle.length })
  return fn
}

/**
 * A `done`-style handle denies by `done(error)`. Its types say to return nothing, but a `false`
 * returned anyway (untyped code, a cast) denies at once rather than leaving the request to wait
 * for a `done()` that may never come; a later `done()` is then ignored, as is any second call.
 */
function doneGuardHook(instance: { handle: Function }): RequestHook {
  const handle = instance.handle
  return function (request: Request, reply: Reply, done: (error?: unknown) => void) {
    let called = false
    const once = (error?: unknown): void => {
      if (called) return
      called = true
      done(error)
    }
    const deny = (value: unknown): void => {
      if (value === false && !reply.sent) once(moduleError('ENC_ERR_GUARD_DENIED'))
    }
    const result: unknown = handle.call(instance, request, reply, once)
    if (isThenable(result)) result.then(deny, once)
    else deny(result)
  } as RequestHook
}
