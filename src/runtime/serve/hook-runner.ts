import type { Readable } from 'node:stream'
import type { BoundHook } from '../shared/bound-hook'
import type { ReplyImpl } from './reply'
import type { RequestImpl } from './request'
import { isThenable } from '../shared/thenable'
import { undefinedError } from './undefined-error'
import { readableThrown } from './unreadable-thrown'
import { warnUnloggedLateFailure } from './unlogged-failure'

type Next = (request: RequestImpl, reply: ReplyImpl) => void


function isStream(value: unknown): value is Readable {
  return value !== null && typeof value === 'object' && typeof (value as { pipe?: unknown }).pipe === 'function'
}

/**
 * Runs onRequest / preParsing / preValidation / preHandler hooks one after another. A hook that
 * sends a reply ends the chain, and so does one that returns (or resolves to) `reply`: it will
 * answer later (Fastify's "return reply"). A hook that throws, rejects or calls `done(err)` hands
 * the error to `fail` (the error handlers). A done-style hook that also returns a promise is
 * settled by whichever comes first, so its rejection is answered, never an unhandled rejection.
 * Hooks run with `this` the scope of the route being served (Fastify), so they see its decorators.
 * Written as a loop over callbacks, not async/await, so a chain of synchronous hooks costs no
 * promise allocation.
 */
export function runRequestHooks(hooks: readonly BoundHook[], request: RequestImpl, reply: ReplyImpl, next: Next,
  fail: (reply: ReplyImpl, error: unknown) => void): void {
  let index = 0
  const thisArg = reply.route.scope
  const step = (error?: unknown): void => {
    if (error !== undefined && error !== null) { fail(reply, error); return }
    if (reply.sent) return
    if (index === hooks.length) { next(request, reply); return }
    const hook = hooks[index++]
    const payload = hook.payload ? request.payloadStream ?? request.raw : undefined
    if (!hook.callback) {
      // The common case (async or sync hooks without done) settles once by itself: no guard to allocate.
      let result: unknown
      try {
        result = hook.payload ? hook.fn.call(thisArg, request, reply, payload) : hook.fn.call(thisArg, request, reply)
      } catch (e) {
        step(e ?? undefinedError())
        return
      }
      if (result === reply) return
      if (!isThenable(result)) { step(); return }
      result.then((value) => {
        // `return reply` (send later) resolves through reply.then: undefined once the client went
        // away, when the chain must stop as it did for the reply itself (no handler for nobody).
        if (value === reply || (value === undefined && request.aborted)) return
        if (hook.payload && isStream(value)) request.payloadStream = value
        step()
      }, (e: unknown) => step(e ?? undefinedError()))
      return
    }
    let settled = false
    // A done-style hook settles once, whatever mix of done(), a returned promise and a throw it uses.
    const once = (e?: unknown, value?: unknown): void => {
      if (settled) return
      settled = true
      if ((e === undefined || e === null) && value === reply) return
      if (hook.payload && (e === undefined || e === null) && isStream(value)) request.payloadStream = value
      step(e)
    }
    try {
      const result = hook.payload ? hook.fn.call(thisArg, request, reply, payload, once) : hook.fn.call(thisArg, request, reply, once)
      if (result === reply) { settled = true; return }
      // A done-style hook that returns a promise continues on whichever comes first (Fastify 3's
      // hookRunner; @fastify/helmet's onRequest resolves without calling done on some paths).
      if (isThenable(result)) result.then(() => once(), (e: unknown) => once(e ?? undefinedError()))
    } catch (e) {
      once(e ?? undefinedError())
    }
  }
  step()
}

/** preSerialization and onSend: each hook may replace the payload by returning (or `done`-ing) a new one. */
export function runPayloadHooks(hooks: readonly BoundHook[], request: RequestImpl, reply: ReplyImpl, payload: unknown,
  next: (payload: unknown) => void, fail: (error: unknown) => void): void {
  let index = 0
  let current = payload
  const thisArg = reply.route.scope
  const step = (error?: unknown, replaced?: unknown): void => {
    if (error !== undefined && error !== null) { fail(error); return }
    if (replaced !== undefined) current = replaced
    if (index === hooks.length) { next(current); return }
    const hook = hooks[index++]
    let settled = false
    const once = (e?: unknown, value?: unknown): void => {
      if (settled) return
      settled = true
      step(e, value)
    }
    try {
      if (hook.callback) {
        const result = hook.fn.call(thisArg, request, reply, current, once)
        if (isThenable(result)) result.then(() => once(), (e: unknown) => once(e ?? undefinedError()))
      } else {
        const result = hook.fn.call(thisArg, request, reply, current)
        // The reply is thenable (await reply) and ends only after these hooks: waiting on it would
        // hang. Returned by a sync hook, it is a payload as any other value (refused by send: 500).
        if (result !== reply && isThenable(result)) result.then((value) => once(null, value), (e: unknown) => once(e ?? undefinedError()))
        else once(null, result)
      }
    } catch (e) {
      once(e ?? undefinedError())
    }
  }
  step()
}

/**
 * What a failing observer hook gives: the log line's message (Fastify 3's, where it has one) and,
 * separately, what the unlogged-failure warning says failed. Each caller states both, once, as a
 * module constant: the warning's text never depends on the log line's wording.
 */
export interface ObserverFailure { readonly logLine: string; readonly warning: string }

/**
 * onError, onResponse, onRequestAbort: they observe, they cannot change the answer. A failure in
 * one is logged and the next still runs, so a broken logging hook never hides the real error.
 */
export function runObserverHooks(hooks: readonly BoundHook[], request: RequestImpl, reply: ReplyImpl,
  extra: unknown, hasExtra: boolean, done: () => void, failure: ObserverFailure, onFailure: ((error: unknown) => boolean) | null = null): void {
  let index = 0
  const thisArg = reply.route.scope
  const step = (error?: unknown): void => {
    // onFailure may take the failure instead of its own line (onResponse and the access log).
    if (error !== undefined && error !== null && (onFailure === null || !onFailure(readableThrown(error)))) {
      request.log.error(reply.route.serve.idFields(request.id, { err: readableThrown(error) }), failure.logLine)
      warnUnloggedLateFailure(reply, readableThrown(error), failure.warning)
    }
    if (index === hooks.length) { done(); return }
    const hook = hooks[index++]
    // An observer cannot end the chain nor replace a payload: it only settles, once.
    let settled = false
    const once = (e?: unknown): void => {
      if (settled) return
      settled = true
      step(e)
    }
    try {
      // No argument array: onResponse runs on every request that has one.
      const result = hasExtra
        ? (hook.callback ? hook.fn.call(thisArg, request, reply, extra, once) : hook.fn.call(thisArg, request, reply, extra))
        : (hook.callback ? hook.fn.call(thisArg, request, reply, once) : hook.fn.call(thisArg, request, reply))
      if (isThenable(result)) result.then(() => once(), (e: unknown) => once(e ?? undefinedError()))
      else if (!hook.callback) once()
    } catch (e) {
      once(e)
    }
  }
  step()
}

