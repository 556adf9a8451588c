import type { FastifyTypedHook } from '../runtime/fastify-typed-hook'
import type { DoneFn, Reply, Request, RequestHook } from '../runtime/types'
import { declarationError, decoratedWhere } from './declaration-error'
import { addClassRouteHooks, addMethodRouteHooks } from './metadata'
import { describeValue } from './module-options'
import type { RouteHookName } from './types'

/**
 * What a guard's `handle()` may give back: nothing or `true` (proceed), `false` (deny: 403
 * ENC_ERR_GUARD_DENIED, NestJS's canActivate), or `reply` (it answers, or will). Anything else
 * is a compile error, so a guard written for another contract does not silently let requests through.
 */
export type GuardResult = void | boolean | Reply
/**
 * A guard class: a provider of the controller's module (so it can inject services) whose
 * `handle(request, reply)` is the hook, sync, async, or with a `done` callback (then `done(error)`
 * denies and the return value is not read). Give it to `describeSecurity()` to mark the routes it guards.
 */
export type GuardClass = abstract new (...args: any[]) => { handle(request: Request, reply: Reply, done: DoneFn): GuardResult | Promise<GuardResult> }
/** A hook function, or a guard class resolved from the module's providers at boot. */
export type RouteHookArg = RequestHook | GuardClass

/** Any class with a `handle(request, reply, done?)`: what the decorators accept before {@link CheckedHooks} reads its result. */
type GuardConstructor = abstract new (...args: any[]) => { handle(request: Request, reply: Reply, done: DoneFn): unknown }
/**
 * What the decorators take besides a hook of the stage: a guard class, or another function that is
 * not a class ({@link OtherHookFunction}, checked as a hook typed for Fastify). Named as when it was
 * guard classes alone: a compile error shows it ('RequestHook | AnyGuardClass'), and one such message is a fixture's.
 */
type AnyGuardClass = GuardConstructor | OtherHookFunction

/** A compile error naming what to fix: the guard class is not assignable to a type with this key. */
type GuardTypeError<Message extends string> = GuardClass & { [K in Message]: never }

/**
 * The guard classes among a decorator's hooks, checked on what `handle()` gives back (NestJS
 * habits are caught where they would let requests through): a result that may be `true` or
 * `undefined` (`return user?.isAdmin`) is refused, since only `false` denies; a value that is
 * none of nothing, a boolean or `reply` is refused; a `done`-style handle must return nothing.
 * Any other function that is not Enclave's hook is kept only when it reads as a hook typed for
 * Fastify (src/runtime/fastify-typed-hook.ts), else refused naming `NotAFastifyHook`.
 */
export type CheckedHooks<H extends readonly unknown[]> = number extends H['length'] ? H : { [K in keyof H]: CheckedHook<H[K], RequestHook, FastifyTypedHook<H[K]>> }
// (An array, not a tuple: the hooks failed the decorator's constraint, whose message then names each wrong one.)

// A value typed as the wide GuardClass (`hooks: RouteHookArg[]` spread) was checked where it was typed.
type CheckedGuard<C> = [GuardClass] extends [C] ? C : C extends abstract new (...args: any[]) => { handle(...args: infer A): infer R }
  ? 0 extends 1 & R ? C
    : A['length'] extends 3
      ? [Awaited<R>] extends [void] ? C : GuardTypeError<"guard handle(request, reply, done) answers through done(): return nothing (a returned value is not read); deny with done(error)">
      : [Awaited<R>] extends [GuardResult]
        ? true extends Awaited<R> ? undefined extends Awaited<R> ? GuardTypeError<"guard handle() may return undefined, which lets the request through (only false denies): return true or false"> : C : C
        : GuardTypeError<"guard handle() must return nothing, true or false (false denies with 403), or reply, or a promise of one of those">
  : C

/**
 * What the decorators take besides a hook of the stage (an inline one is typed by it) and a guard
 * class: another function, checked by {@link CheckedHooks} as a hook typed for Fastify
 * (`fastify.authenticate`, @fastify/auth's `fastify.auth([...])`, src/runtime/fastify-typed-hook.ts).
 * One that is not a class (a class's `prototype` is its instance type; a function's reads
 * as Function's `any`), so a class that is no guard still fails the decorator's constraint, with
 * the message naming what `handle()` lacks. It has no call signature: a second function type in
 * the union would cost an inline hook its contextual typing (TypeScript types a parameter from a
 * union only when the members' signatures are identical).
 */
export type OtherHookFunction = Function & { prototype?: undefined }

/**
 * One hook checked: a guard class on its `handle()`'s result, a hook of the stage (`Hook`) as is
 * (`unknown` in the intersection: written `T`, an inline hook's parameters lost their contextual
 * type when its body had an error), any other function as `Fastify` maps it (itself when it reads as Fastify's).
 */
export type CheckedHook<T, Hook, Fastify> = T extends GuardConstructor ? CheckedGuard<T> : T extends Hook ? unknown : Fastify

/** On a module class, a controller class or one of its route methods. */
export type RouteHookDecorator = (target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => void

/**
 * Request hooks of one route (on a route method), of every route of a controller (on the
 * controller class), or of every controller route of a module and its descendants (on the module
 * class: NestJS's APP_GUARD): NestJS's `@UseGuards`, as the runtime's route-level hook options.
 * They are merged into the route options at boot (module hooks, outermost module first, then the
 * controller's, then the method's, then the route options' own), so serving pays nothing for the
 * decorator and an unknown URL keeps its 404. Several decorators stack in source order. A hook
 * may be a {@link GuardClass}: a provider whose `handle()` runs, with its injected services.
 *
 * @example
 * @Route('/books')
 * class BooksController {
 *   @Get('/') list() { ... }                                        // open
 *   @OnRequest(bearerAuthHook({ keys })) @Post('/') create() { ... } // guarded
 * }
 */
export function OnRequest<H extends ReadonlyArray<RequestHook | AnyGuardClass>>(...hooks: H & CheckedHooks<H>): RouteHookDecorator { return routeHooks('onRequest', 'OnRequest', hooks as readonly RouteHookArg[]) }
/** Like {@link OnRequest}, at preValidation: after the body is parsed, before it is validated. */
export function PreValidation<H extends ReadonlyArray<RequestHook | AnyGuardClass>>(...hooks: H & CheckedHooks<H>): RouteHookDecorator { return routeHooks('preValidation', 'PreValidation', hooks as readonly RouteHookArg[]) }
/** Like {@link OnRequest}, at preHandler: after validation, right before the handler. */
export function PreHandler<H extends ReadonlyArray<RequestHook | AnyGuardClass>>(...hooks: H & CheckedHooks<H>): RouteHookDecorator { return routeHooks('preHandler', 'PreHandler', hooks as readonly RouteHookArg[]) }

/** Records hooks of one stage on a module class, a controller class or a route method (checked at boot by the module layer). */
export function routeHooks(name: RouteHookName, decorator: string, hooks: readonly Function[]): RouteHookDecorator {
  return (target, propertyKey, descriptor) => {
    const where = decoratedWhere(`@${decorator}()`, target, propertyKey)
    const bad = hooks.findIndex((h) => typeof h !== 'function')
    if (hooks.length === 0 || bad !== -1) {
      throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'route-hook-arg', got: hooks.length === 0 ? 'no hook' : describeValue(hooks[bad]) })
    }
    if (propertyKey === undefined) {
      addClassRouteHooks(target as Function, { name, hooks })
      return
    }
    if (typeof target === 'function') {
      throw declarationError('ENC_ERR_DECL_STATIC_MEMBER', { where, member: 'route' })
    }
    if (descriptor === undefined || typeof descriptor.value !== 'function') {
      throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'route-on-property' })
    }
    addMethodRouteHooks(target.constructor, propertyKey, { name, hooks })
  }
}
