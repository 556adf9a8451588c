import type { BoundHook } from '../shared/bound-hook'
import type { ReplyImpl } from './reply'
import type { RequestImpl } from './request'
import { isThenable } from '../shared/thenable'

type Next = (request: RequestImpl, reply: ReplyImpl) => void


/**
 * Calls a done-style hook. As Fastify does, such a hook may instead return a promise
 * (@fastify/helmet's onRequest does on some paths): whichever signal comes first continues the
 * chain, once.
 */
function callWithDone(hook: BoundHook, args: unknown[], step: (error?: unknown, payload?: unknown) => void): void {
  let called = false
  const done = (error?: unknown, payload?: unknown): void => {
    if (called) return
    called = true
    step(error, payload)
  }
  const result = hook.fn.call(hook.scope, ...args, done)
  if (isThenable(result)) result.then(() => done(), (e: unknown) => done(e ?? new Error('hook rejected')))
}

/**
 * Runs onRequest / preParsing / preValidation / preHandler hooks one after another. A hook that
 * sends a reply ends the chain; a hook that throws, rejects or calls `done(err)` hands the error
 * to `fail` (the error handlers). Written as a loop over callbacks, not async/await, so a chain of
 * synchronous hooks costs no promise allocation.
 */
export function runRequestHooks(hooks: readonly BoundHook[], request: RequestImpl, reply: ReplyImpl, next: Next,
  fail: (reply: ReplyImpl, error: unknown) => void): void {
  let index = 0
  const step = (error?: unknown): void => {
    if (error !== undefined && error !== null) { fail(reply, error); return }
    if (reply.sent) return
    if (index === hooks.length) { next(request, reply); return }
    const hook = hooks[index++]
    try {
      if (hook.callback) {
        callWithDone(hook, [request, reply], step)
      } else {
        const result = hook.fn.call(hook.scope, request, reply)
        if (isThenable(result)) result.then(() => step(), (e: unknown) => step(e ?? new Error('hook rejected')))
        else step()
      }
    } catch (e) {
      step(e ?? new Error('hook threw'))
    }
  }
  step()
}

/**
 * preParsing in Fastify 3's forms, `(request, reply, payload, done)` and async
 * `(request, reply, payload)`, where a hook may hand back a replacement stream for the body
 * (@fastify/compress returns a decompressing one); the older `(request, reply, done)` still works.
 * The stream the body is read from ends up in `request.payloadStream`.
 */
export function runPreParsingHooks(hooks: readonly BoundHook[], request: RequestImpl, reply: ReplyImpl, next: Next,
  fail: (reply: ReplyImpl, error: unknown) => void): void {
  let index = 0
  const step = (error?: unknown, replaced?: unknown): void => {
    if (error !== undefined && error !== null) { fail(reply, error); return }
    if (isStreamLike(replaced)) request.payloadStream = replaced as RequestImpl['payloadStream']
    if (reply.sent) return
    if (index === hooks.length) { next(request, reply); return }
    const hook = hooks[index++]
    const payload = request.payloadStream ?? request.raw
    try {
      if (hook.fn.length >= 4) callWithDone(hook, [request, reply, payload], step)
      else if (hook.callback) callWithDone(hook, [request, reply], step)
      else {
        const result = hook.fn.call(hook.scope, request, reply, payload)
        if (isThenable(result)) result.then((value) => step(null, value), (e: unknown) => step(e ?? new Error('hook rejected')))
        else step(null, result)
      }
    } catch (e) {
      step(e ?? new Error('hook threw'))
    }
  }
  step()
}

function isStreamLike(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { on?: unknown }).on === 'function' && typeof (value as { pipe?: unknown }).pipe === 'function'
}

/** preSerialization and onSend: each hook may replace the payload by returning (or `done`-ing) a new one. */
export function runPayloadHooks(hooks: readonly BoundHook[], request: RequestImpl, reply: ReplyImpl, payload: unknown,
  next: (payload: unknown) => void, fail: (error: unknown) => void): void {
  let index = 0
  let current = payload
  const step = (error?: unknown, replaced?: unknown): void => {
    if (error !== undefined && error !== null) { fail(error); return }
    if (replaced !== undefined) current = replaced
    if (index === hooks.length) { next(current); return }
    const hook = hooks[index++]
    try {
      if (hook.callback) {
        callWithDone(hook, [request, reply, current], step)
      } else {
        const result = hook.fn.call(hook.scope, request, reply, current)
        if (isThenable(result)) result.then((value) => step(null, value), (e: unknown) => step(e ?? new Error('hook rejected')))
        else step(null, result)
      }
    } catch (e) {
      step(e ?? new Error('hook threw'))
    }
  }
  step()
}

/**
 * onError, onResponse, onRequestAbort: they observe, they cannot change the answer. A failure in
 * one is logged and the next still runs, so a broken logging hook never hides the real error.
 */
export function runObserverHooks(hooks: readonly BoundHook[], request: RequestImpl, reply: ReplyImpl,
  extra: unknown, hasExtra: boolean, done: () => void): void {
  let index = 0
  const step = (error?: unknown): void => {
    if (error !== undefined && error !== null) request.log.error(reply.route.serve.idFields(request.id, { err: error }), 'a hook failed')
    if (index === hooks.length) { done(); return }
    const hook = hooks[index++]
    try {
      const args: unknown[] = hasExtra ? [request, reply, extra] : [request, reply]
      if (hook.callback) { hook.fn.call(hook.scope, ...args, step); return }
      const result = hook.fn.call(hook.scope, ...args)
      if (isThenable(result)) result.then(() => step(), (e: unknown) => step(e ?? new Error('hook rejected')))
      else step()
    } catch (e) {
      step(e)
    }
  }
  step()
}

