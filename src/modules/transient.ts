import type { DependencyContainer } from 'tsyringe'
import { moduleError } from './module-error'
import { isThenable } from './settle-within'

/**
 * The class of the consumer a transient provider is being built for (NestJS's INQUIRER):
 * `@inject(INQUIRER) owner: Function | undefined` in a transient provider's constructor, or in a
 * transient factory's inject list. Undefined when nothing class-shaped asked (a factory provider,
 * resolveProvider()). Refused at boot anywhere else (docs/request-scope.md, "Transient providers").
 */
export const INQUIRER: unique symbol = Symbol('INQUIRER')

/** The classes whose constructor parameters are being resolved right now, innermost last (tsyringe resolves synchronously). */
const constructing: unknown[] = []

type ParamResolver = (context: unknown, ctor: Function) => (param: unknown, index: number) => unknown

/**
 * Makes `container` record which class it resolves constructor parameters for, so INQUIRER can
 * name the consumer. tsyringe passes that class to resolveParams() only (4.x, dependency-container.js),
 * so each of the app's containers wraps its own; a tsyringe without it leaves INQUIRER undefined.
 * Within one construction, two parameters with one plain token get one value: a transient provider
 * is built once per consumer, as NestJS 12 does (tsyringe alone would build one per parameter).
 */
export function trackInquirers(container: DependencyContainer): void {
  const target = container as unknown as { resolveParams?: ParamResolver }
  const original = target.resolveParams
  if (typeof original !== 'function') return
  target.resolveParams = function (this: unknown, context: unknown, ctor: Function) {
    const resolveOne = original.call(this, context, ctor)
    let resolved: Map<unknown, unknown> | undefined
    return (param: unknown, index: number) => {
      const key = plainToken(param)
      if (key !== undefined && resolved?.has(key) === true) return resolved.get(key)
      constructing.push(ctor)
      let value: unknown
      try { value = resolveOne(param, index) } finally { constructing.pop() }
      if (key !== undefined) (resolved ??= new Map()).set(key, value)
      return value
    }
  }
}

/** The token of a parameter resolved as it is (a class, a string, a symbol, `@inject(T)`); undefined for delay(), injectAll(), transforms. */
function plainToken(param: unknown): unknown {
  if (typeof param === 'function' || typeof param === 'string' || typeof param === 'symbol') return param
  if (typeof param !== 'object' || param === null) return undefined
  const descriptor = param as { token?: unknown; multiple?: unknown; transform?: unknown }
  if (descriptor.multiple === true || descriptor.transform !== undefined || !('token' in descriptor)) return undefined
  const token = descriptor.token
  return typeof token === 'function' || typeof token === 'string' || typeof token === 'symbol' ? token : undefined
}

/** Runs `build` (a transient factory resolving its inject list) as the consumer `self`. */
export function asConsumer<T>(self: unknown, build: () => T): T {
  constructing.push(self)
  try { return build() } finally { constructing.pop() }
}

/** INQUIRER as resolved at boot: the consumer of the transient provider whose dependencies are being resolved. */
export function currentInquirer(): Function | undefined {
  const found = constructing[constructing.length - 2]
  return typeof found === 'function' ? found : undefined
}

/**
 * The coded refusal a transient factory threw while tsyringe was building its consumer: tsyringe
 * rewraps it into a plain Error, so the injector takes it back from here (as FactoryProvider.refusal).
 */
let refusal: Error | null = null

export function refuseTransient(error: Error): never {
  refusal = error
  throw error
}

export function takeTransientRefusal(): Error | null {
  const found = refusal
  refusal = null
  return found
}

/**
 * One call of a transient factory: its value, or the coded refusal when it returned a promise (the
 * value is built while its consumer is, which cannot wait). `refuse` throws it: refuseTransient at
 * boot (tsyringe rewraps what is thrown through it), a plain throw per request.
 */
export function callTransientFactory(factory: (...args: any[]) => unknown, args: readonly unknown[], subject: string, refuse: (error: Error) => never = throwIt): unknown {
  const value = factory(...args)
  if (isThenable(value)) refuse(moduleError('ENC_ERR_MODULE_TRANSIENT', { case: 'async', subject }))
  return value
}

function throwIt(error: Error): never {
  throw error
}
