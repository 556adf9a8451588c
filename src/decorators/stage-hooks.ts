import type { FastifyTypedErrorHook, FastifyTypedHook, FastifyTypedPayloadHook } from '../runtime/fastify-typed-hook'
import type { ErrorHook, PayloadHook, Reply, Request, RequestHook } from '../runtime/types'
import { routeHooks, type OtherHookFunction, type RouteHookDecorator } from './route-hooks'

/**
 * A hook class for the stages that are not guards: a provider of the module whose `handle()` is
 * the hook, called with the stage's arguments and with `this` its instance (so it can use
 * injected services). Its return value means what the stage's hook function's does (the new
 * payload for preSerialization and onSend); `false` denies nothing here.
 */
export type HookClass<F extends (...args: any[]) => unknown> = abstract new (...args: any[]) => { handle: OmitThis<F> }
type OmitThis<F> = F extends (this: any, ...args: infer A) => infer R ? (...args: A) => R : never

/** `handle(request, reply, payload, done?)` for @PreParsing: the raw body stream, or a replacement. */
export type PayloadStreamHook = (this: unknown, request: Request, reply: Reply, payload: NodeJS.ReadableStream, done: (error: Error | null, payload?: NodeJS.ReadableStream) => void) => unknown

/**
 * What a stage decorator takes before {@link CheckedStageHooks} reads each hook: a hook of the
 * stage (an inline one is typed by it), a hook class, or another function that is not a class,
 * checked as a hook typed for Fastify for that stage (src/runtime/fastify-typed-hook.ts).
 */
type StageArg<F extends (...args: any[]) => unknown> = F | HookClass<F> | OtherHookFunction

/** Each hook as is (`unknown`: see route-hooks.ts's CheckedHook) when it is a hook class or a hook of the stage (`F`); any other function as itself when it reads as Fastify's hook of that stage, else a type naming the shape wanted. An array, not a tuple: the hooks failed the constraint, whose message names each wrong one. */
export type CheckedStageHooks<H extends readonly unknown[], F extends (...args: any[]) => unknown, Kind extends keyof FastifyTyped<unknown>> =
  number extends H['length'] ? H : { [K in keyof H]: H[K] extends HookClass<F> | F ? unknown : FastifyTyped<H[K]>[Kind] }
interface FastifyTyped<T> { request: FastifyTypedHook<T>; payload: FastifyTypedPayloadHook<T>; error: FastifyTypedErrorHook<T> }

// The stages below are Fastify 3's other per-route hook options. They are NestJS's interceptors
// taken apart: there is no intercept(context, next) wrapping the handler, because a hook cannot
// hold the handler's call (nor its async context) between two stages honestly; each stage is a
// hook of its own, merged into the route options at boot as @OnRequest's are.

/** Route hooks at preParsing: before the body is read (the payload is the raw stream). */
export function PreParsing(...hooks: Array<PayloadStreamHook | RequestHook | HookClass<PayloadStreamHook>>): RouteHookDecorator { return routeHooks('preParsing', 'PreParsing', hooks) }
/**
 * Route hooks at preSerialization: `handle(request, reply, payload)` returns the value to
 * serialize instead (wrapping a success in `{ data }`). It runs for a handler's returned value
 * only (not for strings, buffers, streams, nor for the built-in error bodies), before the
 * response schema: a route with a response schema must describe the wrapped shape.
 */
export function PreSerialization<H extends ReadonlyArray<StageArg<PayloadHook>>>(...hooks: H & CheckedStageHooks<H, PayloadHook, 'payload'>): RouteHookDecorator { return routeHooks('preSerialization', 'PreSerialization', hooks) }
/**
 * Route hooks at onSend: `handle(request, reply, payload)` sees the serialized payload (a string
 * for JSON) of every answer of the route, error replies included, and may return a replacement.
 * The place for a response cache's store, compression, or headers computed from the body.
 */
export function OnSend<H extends ReadonlyArray<StageArg<PayloadHook>>>(...hooks: H & CheckedStageHooks<H, PayloadHook, 'payload'>): RouteHookDecorator { return routeHooks('onSend', 'OnSend', hooks) }
/** Route hooks at onResponse: once the answer went out (`reply.getResponseTime()`): logging, metrics. Its result is not read. */
export function OnResponse<H extends ReadonlyArray<StageArg<RequestHook>>>(...hooks: H & CheckedStageHooks<H, RequestHook, 'request'>): RouteHookDecorator { return routeHooks('onResponse', 'OnResponse', hooks) }
/**
 * Route hooks at onError: `handle(request, reply, error)` observes an error that reaches the
 * built-in reply (after the error handlers, as in Fastify 3). It cannot change the answer: that is
 * what `@ErrorHandler()` does.
 */
export function OnError<H extends ReadonlyArray<StageArg<ErrorHook>>>(...hooks: H & CheckedStageHooks<H, ErrorHook, 'error'>): RouteHookDecorator { return routeHooks('onError', 'OnError', hooks) }
/** Route hooks at onTimeout: the connection timed out (server option `connectionTimeout`) while this route's request was in flight. */
export function OnTimeout<H extends ReadonlyArray<StageArg<RequestHook>>>(...hooks: H & CheckedStageHooks<H, RequestHook, 'request'>): RouteHookDecorator { return routeHooks('onTimeout', 'OnTimeout', hooks) }
