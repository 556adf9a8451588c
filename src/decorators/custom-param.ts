import type { Reply, Request } from '../runtime/types'
import { declarationError } from './declaration-error'
import { param } from './params'

/** Type-only brand of a parameter a createParamDecorator() decorator fills (never set at run time). */
export declare const customParamMark: unique symbol

/**
 * The type of a parameter filled by a `createParamDecorator()` decorator: `@CurrentUser() user: CustomParam<User>`.
 * It is `T` for every use (an optional property of type never adds nothing), and tells the route
 * decorator's parameter check (handler-fit.ts), which cannot see parameter decorators, that this
 * parameter is not filled from the body, query, params or headers. The decorator itself checks that
 * its value fits `T`.
 */
export type CustomParam<T> = (T & CustomParamBrand) | Extract<T, null | undefined>
/** The brand of CustomParam<T>, a named interface so that declaration files can name it. */
export interface CustomParamBrand { readonly [customParamMark]?: never }

/** `null & {...}` would be never, so null and undefined stay outside the brand: check the rest. */
export type IsCustomParam<P> = typeof customParamMark extends keyof NonNullable<P> ? true : false

/**
 * What a custom parameter decorator requires of the method it sits in (legacy decorators pass the
 * prototype, the method's name and the parameter's index as literal types, so parameter `I` of
 * method `K` can be read): the parameter is typed `CustomParam<...>` and accepts the value `V`.
 * A misfit names the parameter, the method and the fix in the compile error.
 */
type CustomParamFits<T, K, I extends number, V> = K extends string | symbol
  ? T extends { [k in K]: (...args: infer P) => unknown }
    ? IsCustomParam<P[I]> extends true
      ? ([V] extends [P[I]] ? unknown : { [m in `parameter ${I} of ${K & string} cannot take the decorator's value (type it CustomParam<X> with X the value's type)`]: V })
      : { [m in `parameter ${I} of ${K & string} is filled by a custom parameter decorator: type it CustomParam<X> with X the value's type`]: V }
    : unknown
  : unknown

/** A parameter decorator giving values of type `V`, checked against the parameter's declared type. */
export type CustomParamDecorator<V> = <T extends object, K extends string | symbol, I extends number>(
  target: T & CustomParamFits<T, K, I, V>, propertyKey: K, parameterIndex: I) => void

/**
 * NestJS's `createParamDecorator()`, Enclave-shaped: the factory gets the decorator's argument,
 * the request and the reply (no ExecutionContext), and runs per request, in the handler's turn,
 * after validation and the route's hooks. Its value is the handler's argument; a promise is awaited
 * first (NestJS would pass the promise as is), and a throw or rejection is the handler's error, so
 * it goes to the error handlers (`throw new HttpError(401, ...)` answers 401).
 *
 * @example
 * const CurrentUser = createParamDecorator((_data: undefined, request: Request) => {
 *   if (request.user === null) throw new HttpError(401, 'Unauthorized')
 *   return request.user
 * })
 * @Get('/me') me(@CurrentUser() user: CustomParam<User>) { return user }
 */
export function createParamDecorator<D, R>(factory: (data: D, request: Request, reply: Reply) => R): (data?: D) => CustomParamDecorator<Awaited<R>> {
  if (typeof factory !== 'function') {
    throw declarationError('ENC_ERR_DECL_TARGET', { case: 'param-factory', got: factory === null ? 'null' : typeof factory })
  }
  // Error messages name the decorator by its factory: `createParamDecorator(function CurrentUser(...) {...})`.
  const name = factory.name === '' ? 'customParam' : factory.name
  return (data?: D) => {
    const shown = data === undefined ? '' : typeof data === 'string' ? `'${data}'` : typeof data
    return param('custom', name, undefined, { factory, data, name }, shown) as CustomParamDecorator<Awaited<R>>
  }
}
