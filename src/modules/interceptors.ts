import type { DependencyContainer } from 'tsyringe'
import type { Handler, Reply, Request, Scope } from '../runtime'
import { getClassInterceptors, getMethodInterceptors, getOwnRoutes, type Class } from '../decorators/internal'
import { runtimeError } from '../runtime/internal'
import { moduleError } from './module-error'
import { releaseDroppedStream, streamOf } from './dropped-stream'
import { isGuardClass } from './route-guards'
import { markPerRequest, perRequestRecipe } from './per-request-classes'
import { existingInstances } from './request-instances'
import type { Recipe } from './request-recipes'

/** What the wrapper calls: an interceptor instance's `intercept(context, next)`. */
export interface InterceptorInstance { intercept(context: object, next: () => Promise<unknown>): unknown }

/** Every interceptor class a controller names (its own, its base classes', its methods'). */
export function interceptorClassesOf(controller: Class): Function[] {
  const found = new Set<Function>()
  for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const i of [...getClassInterceptors(c as Function), ...[...getMethodInterceptors(c as Function).values()].flat()]) found.add(i)
  }
  return [...found]
}

/** The interceptor classes on a controller class and its base classes, base classes first (outermost). */
export function classInterceptors(controller: Class): Function[] {
  const classes: Function[] = []
  for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) classes.unshift(c as Function)
  return classes.flatMap(getClassInterceptors)
}

/**
 * Refuses, before anything is built, what could not intercept: a value that is no class (often
 * `undefined` from a circular import), a class without `intercept()`, `@UseInterceptors()` on a
 * method that declares no route (nothing would call it), or on a module method.
 */
export function checkInterceptors(owner: Class, path: string, kind: 'controller' | 'module'): void {
  for (let c: unknown = owner; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const type = c as Function
    const routes = new Set(getOwnRoutes(type).map((r) => r.propertyKey))
    for (const [key, list] of getMethodInterceptors(type)) {
      const where = `${type.name}.${String(key)}`
      if (kind === 'module' || !routes.has(key)) throw moduleError('ENC_ERR_MODULE_INTERCEPTOR_INVALID', { case: kind === 'module' ? 'module-method' : 'not-a-route', path, where })
      for (const interceptor of list) checkInterceptorClass(interceptor, `route ${where}`, path)
    }
    for (const interceptor of getClassInterceptors(type)) checkInterceptorClass(interceptor, `${kind} ${type.name}`, path)
    if (kind === 'module') return
  }
}

function checkInterceptorClass(interceptor: unknown, where: string, path: string): void {
  if (typeof interceptor !== 'function' || !isGuardClass(interceptor)) {
    throw moduleError('ENC_ERR_MODULE_INTERCEPTOR_INVALID', { case: 'not-a-class', path, where, got: describe(interceptor) })
  }
  if (typeof (interceptor.prototype as Record<string, unknown> | undefined)?.intercept !== 'function') {
    throw moduleError('ENC_ERR_MODULE_INTERCEPTOR_INVALID', { case: 'no-intercept', path, where, got: interceptor.name })
  }
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return String(value)
  if (typeof value === 'function') return `the function ${value.name === '' ? '(anonymous)' : value.name}`
  return typeof value
}

/** What a module gives its controllers' routes: its resolver and its (and its ancestors') interceptors. */
export interface RouteInterceptors { readonly resolve: InterceptorResolver; readonly outer: readonly InterceptorInstance[] }

/** Turns an interceptor class into its instance, from the container of the module that names it. */
export type InterceptorResolver = (interceptor: Function) => InterceptorInstance
const resolvers = new WeakMap<DependencyContainer, InterceptorResolver>()

/** One resolver (one instance per class) per module container, as the guard classes have. */
export function interceptorResolver(container: DependencyContainer): InterceptorResolver {
  const known = resolvers.get(container)
  if (known !== undefined) return known
  const instances = new Map<Function, InterceptorInstance>()
  const resolve: InterceptorResolver = (interceptor) => {
    let instance = instances.get(interceptor)
    if (instance === undefined) {
      const recipe = perRequestRecipe(container, interceptor)
      instance = recipe !== undefined ? perRequestInterceptor(recipe, interceptor) : container.resolve(interceptor as never) as InterceptorInstance
      instances.set(interceptor, instance)
    }
    return instance
  }
  resolvers.set(container, resolve)
  return resolve
}

/**
 * A request-scoped interceptor class: its stand-in builds it per request from the request's
 * instances (the route's handler is wrapped in the request scope, controller-routes.ts, so they
 * exist and are the controller's and guards' own), then calls its intercept(). A failure to build
 * it rejects like intercept() itself would. Named after the class for droppedAnswer()'s message.
 */
function perRequestInterceptor(recipe: Recipe, type: Function): InterceptorInstance {
  const standIn = {
    intercept(context: object, next: () => Promise<unknown>): Promise<unknown> {
      const instances = existingInstances((context as { request: Request }).request)!
      return instances.get(recipe).then((instance) => (instance as InterceptorInstance).intercept(context, next))
    },
  }
  Object.defineProperty(standIn, 'constructor', { value: type })
  return markPerRequest(standIn)
}

/**
 * The route method's call wrapped by its interceptors (outermost first). A route without any keeps
 * its handler: no wrapper, nothing per request. With them, each request builds one context and
 * one `next` per interceptor. `next()` is a promise of what the method returned or resolved to
 * (a sync throw becomes its rejection; a returned `reply` resolves to undefined once the response is
 * out, as `await reply` does). When the reply was answered some other way (the method or
 * an interceptor sent through `reply`, hijacked it, or returned `reply` to send later), what
 * intercept() returns is not an answer (the wrapper resolves to undefined), as NestJS ignores interceptor
 * results on `@Res()` routes.
 */
export function withInterceptors(handler: Handler, interceptors: readonly InterceptorInstance[], controller: Class, method: string | symbol): Handler {
  if (interceptors.length === 0) return handler
  const routeMethod = (controller.prototype as Record<string | symbol, Function>)[method]
  const count = interceptors.length
  const route = `${controller.name}.${String(method)}`
  let warned = false
  return function (this: Scope, request: Request, reply: Reply) {
    const scope = this
    const context = { request, reply, controller, method, handler: routeMethod }
    // The method's stream answer, if it gave one: released if the interceptors answer with something else.
    let answered: ReturnType<typeof streamOf>
    // The headers as sent, when the method sent through `reply`: what an interceptor sets later is lost.
    let sentHeaders: Record<string, unknown> | undefined
    const call = (i: number): Promise<unknown> => {
      try {
        if (i === count) {
          // A returned reply is a thenable (`await reply`): the promise settles once the response is out.
          return Promise.resolve(handler.call(scope, request, reply)).then((value) => {
            answered = streamOf(value)
            // getHeaders() returns a fresh object: the snapshot needs no copy of its own.
            if (reply.sent && !warned) sentHeaders = reply.getHeaders()
            return value
          })
        }
        const inner: InnerCall = { promise: undefined, next: undefined }
        const next = (): Promise<unknown> => {
          const promise = call(i + 1)
          const observed = new NextPromise((resolve, reject) => { promise.then(resolve, reject) })
          // Also marks it handled: a next() the interceptor dropped must not crash the process.
          handleQuietly(observed)
          inner.promise = promise
          inner.next = observed
          return observed
        }
        const result = interceptors[i].intercept(context, next)
        if (result === undefined) return Promise.resolve(droppedAnswer(inner, interceptors[i], controller, method, reply))
        return Promise.resolve(result).then((value) => value === undefined ? droppedAnswer(inner, interceptors[i], controller, method, reply) : value)
      } catch (error) {
        return Promise.reject(error)
      }
    }
    return call(0).then((value) => {
      if (answered !== undefined && value !== answered) releaseDroppedStream(answered, reply)
      if (sentHeaders !== undefined && !warned) warned = warnLateHeaders(sentHeaders, reply, route)
      return reply.sent ? undefined : value
    }, (error: unknown) => {
      if (answered !== undefined) releaseDroppedStream(answered, reply)
      throw error
    })
  } as Handler
}

/**
 * NestJS's `next.handle().pipe(tap(() => reply.header(...)))` (or `await next(); reply.header(...)`) on a
 * method that sent through `reply`: the response went out inside next(), so the header is lost, as it
 * is in NestJS with `@Res()`. Said once per route, at warn level, with the fix; true when it said it.
 */
function warnLateHeaders(sent: Record<string, unknown>, reply: Reply, route: string): boolean {
  const now = reply.getHeaders()
  // reply.header() stores a new value, never changes one in place: the same reference is the same header.
  const late = Object.keys(now).filter((name) => now[name] !== sent[name] && JSON.stringify(now[name]) !== JSON.stringify(sent[name]))
  if (late.length === 0) return false
  reply.log.warn({ route, headers: late },
    `an interceptor of ${route} set ${late.map((h) => `'${h}'`).join(', ')} after next() resolved, but the method had sent the response through reply: ` +
    'the header was not sent. Return the value from the method instead (NestJS\'s @Res({ passthrough: true })), set the header before next(), or use an @OnSend hook (docs/controllers.md). Logged once per route.')
  return true
}

interface InnerCall { promise: Promise<unknown> | undefined; next: NextPromise | undefined }

/**
 * The promise next() gives: it records whether the interceptor looked at the outcome (`await`,
 * then(), catch(), Promise.all() all call then() on a promise of a subclass), so a dropped answer
 * can tell an interceptor that caught the method's error (`try { await next() } catch {}`) from
 * one that never looked (`next()` alone). Whether the promise had settled cannot: a method that
 * throws synchronously has rejected before intercept() returns, awaited or not. Derived promises
 * are plain ones (species).
 */
class NextPromise extends Promise<unknown> {
  static override get [Symbol.species](): PromiseConstructor { return Promise }
  observed = false
  override then<A = unknown, B = never>(onFulfilled?: ((value: unknown) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    this.observed = true
    return super.then(onFulfilled, onRejected)
  }
}

const ignore = (): void => {}
/** A rejection handler that does not count as the interceptor looking. */
const handleQuietly = (promise: NextPromise): void => { void Promise.prototype.then.call(promise, undefined, ignore) }

/**
 * intercept() gave undefined. When it had called next() and the method gave a value (or threw, and
 * the interceptor caught it), that answer was lost in the interceptor (`next()` without `return`):
 * the coded 500 names the interceptor, not the handler. A next() it never looked at (neither
 * returned, awaited nor then()-ed) is awaited here, so the method's own error reaches the error
 * handler instead of crashing the process.
 */
function droppedAnswer(inner: InnerCall, interceptor: InterceptorInstance, controller: Class, method: string | symbol, reply: Reply): Promise<unknown> | undefined {
  const promise = inner.promise
  if (promise === undefined || reply.sent) return undefined
  const looked = inner.next?.observed === true
  const name = (interceptor as { constructor?: { name?: string } }).constructor?.name ?? '(anonymous)'
  const where = (dropped: 'value' | 'error') => runtimeError('ENC_ERR_REPLY_NOTHING_SENT', {
    interceptorAt: `${reply.request.method} ${reply.request.routerPath ?? reply.request.url}`, interceptor: name, route: `${controller.name}.${String(method)}`, dropped,
  })
  return promise.then(
    (value) => { if (value === undefined || reply.sent) return undefined; throw where('value') },
    (error: unknown) => { if (!looked) throw error; if (reply.sent) return undefined; throw where('error') },
  )
}
