/** Type-only brand of a route method's return type that an interceptor reshapes (never set at run time). */
export declare const interceptedMark: unique symbol

/**
 * The return type of a route method whose answer an interceptor reshapes
 * (`@UseInterceptors(Envelope)` turning `StoredFile[]` into `{ data: StoredFile[] }`): the route's
 * response schema describes what the interceptor answers, which the route decorator's return
 * check (handler-fit.ts) cannot see, as it cannot see `@UseInterceptors()`. Typed
 * `Intercepted<StoredFile[]>` (or `Promise<Intercepted<...>>`), the method's return is left to the
 * interceptor and the serializer; it is `T` for every other use (an optional property of type
 * never adds nothing), so `return files` needs no cast.
 */
export type Intercepted<T> = (T & InterceptedBrand) | Extract<T, null | undefined | void>
/** The brand of Intercepted<T>, a named interface so that declaration files can name it. */
export interface InterceptedBrand { readonly [interceptedMark]?: never }

/**
 * `null & {...}` would be never, so null and undefined stay outside the brand: check the rest. A
 * symbol index (`Record<symbol, number>`) has every symbol as a key, the brand's too: not a brand.
 */
export type IsIntercepted<R> = typeof interceptedMark extends keyof NonNullable<R> ? (symbol extends keyof NonNullable<R> ? false : true) : false
