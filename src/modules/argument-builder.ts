import type { Handler, Reply, Request } from '../runtime'
import { getParams, methodParamCount, methodParamTypes, type ParamMeta } from '../decorators/internal'
import { Reply as ReplyDecorator } from '../decorators/params'
import { moduleError } from './module-error'

type Getter = (request: Request, reply: Reply) => unknown

/**
 * Turns a controller method into a route handler, once, at boot. Without parameter decorators
 * the method itself is the handler, bound to the controller: `(request, reply)`, no wrapper.
 * With them, one getter per parameter is chosen here, so a request pays for a few property
 * reads and never for reflection (Nest re-reads metadata per request on its slow path).
 *
 * A controller method's return value is its answer, sync or async alike. A sync method that
 * returns undefined is handed to the runtime as a promise of undefined, so it gets the async
 * handler's rule (answered if it sent or set 204 or 304, else a coded 500 at once) instead of Fastify's
 * callback-style wait for a send() that never comes (a hang until handlerTimeout).
 */
export function buildHandler(instance: object, declaringClass: Function, key: string | symbol, where: string, self?: (request: Request) => object): Handler {
  const method = (instance as Record<string | symbol, Function>)[key]
  const params = getParams(declaringClass, key)
  // A request-scoped controller (`instance` is its prototype): `this` is the request's own instance.
  if (self !== undefined) return perRequestHandler(method, params, checkedGetters(declaringClass, key, where, params), self)
  if (params.length === 0) {
    // An async method always answers a promise: bound, it is the handler itself, with no wrapper
    // frame in a thrown error's stack (which a logger formats) and no call through answered().
    if (method instanceof AsyncFunction) return method.bind(instance) as Handler
    return function (request: Request, reply: Reply) { return answered(method.call(instance, request, reply)) } as Handler
  }
  const getters = checkedGetters(declaringClass, key, where, params)
  if (params.some((p) => p.custom !== undefined)) return withArguments(() => instance, method, params, getters)
  // Fixed arities avoid building an argument array for the common cases.
  if (getters.length === 1) {
    const [a] = getters
    return function (request: Request, reply: Reply) { return answered(method.call(instance, a(request, reply))) } as Handler
  }
  if (getters.length === 2) {
    const [a, b] = getters
    return function (request: Request, reply: Reply) { return answered(method.call(instance, a(request, reply), b(request, reply))) } as Handler
  }
  return function (request: Request, reply: Reply) {
    const args = new Array(getters.length)
    for (let i = 0; i < getters.length; i++) args[i] = getters[i](request, reply)
    return answered(method.apply(instance, args))
  } as Handler
}

/**
 * A method without parameter decorators is called with (request, reply), as a Fastify handler is
 * (NestJS would pass undefined). A parameter whose emitted type cannot be either, `id: string`,
 * `dto: CreateNoteDto`, `notes: NotesService`, or a third parameter, is a decorator or a
 * constructor injection left out: it would receive the request object (or undefined) at run
 * time. Interfaces, unions and `any` are emitted as Object and pass: `request: Request`,
 * `req: FastifyRequest`. Without emitted types (no emitDecoratorMetadata) nothing is checked.
 * Not for a websocket route (@fastify/websocket), whose handler is called with (socket, request).
 * swc, @swc/jest, vitest and ts-jest's isolated mode emit a type's name whenever a value of that
 * name is in scope, and `Reply` is also the @Reply() decorator: `reply: Reply` arrives as that
 * function, where tsc emits Object.
 */
export function checkUndecorated(declaringClass: Function, key: string | symbol, where: string): void {
  if (getParams(declaringClass, key).length > 0) return
  const types = methodParamTypes(declaringClass, key)
  if (types === undefined) return
  types.forEach((type, index) => {
    const named = typeof type === 'function' && type !== Object && type !== Function && type !== ReplyDecorator ? (type.name || 'an anonymous class') : null
    if (index < 2 && named === null) return
    throw moduleError('ENC_ERR_MODULE_HANDLER_PARAMS', { where, index, type: named ?? 'any' })
  })
}

/** One getter per decorated parameter, after checking that every parameter has its decorator. */
function checkedGetters(declaringClass: Function, key: string | symbol, where: string, params: readonly ParamMeta[]): Getter[] {
  if (params.length === 0) return []
  const declared = methodParamCount(declaringClass, key) ?? params.length
  const missing = Array.from({ length: Math.max(declared, params.length) }, (_, i) => i).filter((i) => !params.some((p) => p.index === i))
  if (missing.length > 0) {
    throw moduleError('ENC_ERR_MODULE_HANDLER_PARAMS', { where, missing })
  }
  return params.map(toGetter)
}

/**
 * The handler of a request-scoped controller's method: the same argument rules as below (no
 * decorators: `(request, reply)`), called on the instance built for this request. Kept apart so
 * singleton routes keep their fixed-arity closures.
 */
function perRequestHandler(method: Function, params: readonly ParamMeta[], getters: readonly Getter[], self: (request: Request) => object): Handler {
  if (getters.length === 0) return function (request: Request, reply: Reply) { return answered(method.call(self(request), request, reply)) } as Handler
  return withArguments(self, method, params, getters)
}

/**
 * A method with a createParamDecorator() parameter, or any method of a request-scoped
 * controller: its factories run in the handler's turn (a throw is the handler's error), and a
 * factory's promise is awaited before the method is called, the others' values are not touched
 * (the reply is itself a thenable). `self` gives the instance the method is called on.
 */
function withArguments(self: (request: Request) => object, method: Function, params: readonly ParamMeta[], getters: readonly Getter[]): Handler {
  const custom = params.flatMap((p, i) => (p.custom === undefined ? [] : [i]))
  return function (request: Request, reply: Reply) {
    const instance = self(request)
    const args = new Array(getters.length)
    for (let i = 0; i < getters.length; i++) args[i] = getters[i](request, reply)
    let pending: Array<Promise<void>> | undefined
    for (const i of custom) {
      const value = args[i] as { then?: unknown } | null | undefined
      if (value !== null && value !== undefined && typeof value.then === 'function') {
        (pending ??= []).push(Promise.resolve(value).then((resolved) => { args[i] = resolved }))
      }
    }
    if (pending === undefined) return answered(method.apply(instance, args))
    return Promise.all(pending).then(() => method.apply(instance, args))
  } as Handler
}

const resolvedUndefined: Promise<undefined> = Promise.resolve(undefined)
const AsyncFunction = (async () => undefined).constructor

function answered(result: unknown): unknown {
  return result === undefined ? resolvedUndefined : result
}

// One closure per source with a literal property name, so each getter's property read stays
// monomorphic instead of going through a computed `request[source]`.
const wholePart: Record<Exclude<ParamMeta['source'], 'custom'>, Getter> = {
  body: (request) => request.body,
  query: (request) => request.query,
  params: (request) => request.params,
  headers: (request) => request.headers,
  request: (request) => request,
  reply: (_request, reply) => reply,
}

function toGetter(param: ParamMeta): Getter {
  if (param.custom !== undefined) {
    const { factory, data } = param.custom
    return (request, reply) => factory(data, request, reply)
  }
  if (param.source === 'custom') throw new TypeError('a custom parameter without its factory')
  const key = param.key
  if (key === null) return wholePart[param.source]
  const part = wholePart[param.source]
  // A key Object.prototype answers (`toString`, `constructor`, `__proto__`) would read the prototype's
  // member where the part lacks it (a JSON body is a plain object): read own values only. Chosen here,
  // at boot, so that other keys keep the plain read on the request path.
  if (key in Object.prototype) {
    return (request, reply) => {
      const value = part(request, reply) as Record<string, unknown> | null | undefined
      return value === null || value === undefined || !Object.hasOwn(value, key) ? undefined : value[key]
    }
  }
  const keyed = keyedPart[param.source]
  if (keyed !== undefined) return keyed(key)
  return (request, reply) => {
    const value = part(request, reply) as Record<string, unknown> | null | undefined
    return value === null || value === undefined ? undefined : value[key]
  }
}

type Part = Record<string, unknown> | null | undefined

// `@Body('name')`, `@Params('id')`...: the part's read and the key's in one closure per source, so a
// parameter costs one call per request instead of two (the part's getter, then the key): ~4 ns a
// parameter in process, over 8 routes' handlers called from one site (perf22).
const keyedPart: Partial<Record<ParamMeta['source'], (key: string) => Getter>> = {
  body: (key) => (request) => { const value = request.body as Part; return value === null || value === undefined ? undefined : value[key] },
  query: (key) => (request) => { const value = request.query as Part; return value === null || value === undefined ? undefined : value[key] },
  params: (key) => (request) => { const value = request.params as Part; return value === null || value === undefined ? undefined : value[key] },
  headers: (key) => (request) => { const value = request.headers as Part; return value === null || value === undefined ? undefined : value[key] },
}
