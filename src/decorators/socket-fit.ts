import type { Request, RequestOf } from '../runtime/types'
import type { RouteMethodDecorator } from './handler-fit'

/*
 * Types only: what a `{ websocket: true }` route decorator checks about its method. @fastify/websocket
 * calls it with (socket, request), with no parameter decorators: the socket is what the method
 * declares (ws's `WebSocket`; Enclave does not depend on ws), the request must take the route's
 * request (typed from its schema, as an HTTP route's `request: Request` parameter), and nothing
 * else is passed. The return value goes nowhere, so it is not checked.
 */

type IsAny<T> = 0 extends 1 & T ? true : false
/** The request parameter takes what the plugin passes: the route's request (or it is left out). */
type RequestFits<S, P extends readonly unknown[]> = P extends readonly [] ? true
  : P extends readonly [infer Req] ? (IsAny<Req> extends true ? true : [RequestOf<S>] extends [Req] ? true : [Request] extends [Req] ? true : false)
  : P extends readonly [unknown?] ? true
  : false

/** `unknown` when the method fits a websocket route `S`, else an object naming the misfit. */
export type SocketHandlerFit<S, M> = M extends (socket: any, ...rest: infer P) => unknown
  ? (RequestFits<S, P> extends true ? unknown
    : { 'websocket handler: @fastify/websocket calls it (socket, request), so its second parameter must take the route request, and there is no third': P })
  : unknown

/** A method decorator typed for a websocket route `S` (SocketHandlerFit). */
export type SocketMethodDecorator<S> = <M extends (...args: any[]) => unknown>(
  target: object, propertyKey: string | symbol, descriptor: TypedPropertyDescriptor<M> & SocketHandlerFit<S, M>) => void

/** `@Get(path, { websocket: true })` (a literal): the socket method's check; else the HTTP handler's. */
export type RouteDecoratorFor<S, W extends boolean> = [W] extends [true] ? SocketMethodDecorator<S> : RouteMethodDecorator<S>
