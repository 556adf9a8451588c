import type { Scope } from '../types'
import { warnLegacyPreParsing } from './deprecations'

/** Request-path hooks, in the order a request meets them. */
export const requestHookNames = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse', 'onError', 'onRequestAbort', 'onTimeout'] as const
export type RequestPathHookName = typeof requestHookNames[number]

/** Hooks whose callback style has a `payload`/`error` argument before `done`. */
const fourArgumentHooks: ReadonlySet<string> = new Set(['preSerialization', 'onSend', 'onError'])

/**
 * A hook bound to the scope that declared it, with its calling style decided once at boot
 * (a `done` parameter means callback style), so the request path never inspects `fn.length`.
 * Shared: declared by declare/, listed per route by boot/, called by serve/. `scope` is only
 * the hook's `this`: the public Scope type, so the serve path cannot reach declare-phase state.
 */
export interface BoundHook {
  readonly fn: Function
  readonly scope: Scope
  readonly callback: boolean
  /**
   * preParsing in Fastify 3's form: `(request, reply, payload, done)` or async
   * `(request, reply, payload)`, passing on a replacement body stream. False for the legacy
   * `(request, reply, done)` form, which Fastify 3 still accepts.
   */
  readonly payload: boolean
}

export function bindHook(name: string, fn: Function, scope: Scope): BoundHook {
  if (name === 'preParsing') {
    const isAsync = fn.constructor.name === 'AsyncFunction'
    // Only the legacy arity is the legacy form, as in Fastify 3: any other hook is handed the
    // payload and its promise's stream replaces it, so `async () => decoded` is not ignored
    // (differential content-types 6:289).
    const legacy = fn.length === (isAsync ? 2 : 3)
    const payload = !legacy
    if (legacy) warnLegacyPreParsing()
    return { fn, scope, callback: isAsync ? false : fn.length > (payload ? 3 : 2), payload }
  }
  const doneIndex = fourArgumentHooks.has(name) ? 3 : name === 'onReady' || name === 'preClose' ? 0 : name === 'onClose' ? 1 : 2
  return { fn, scope, callback: fn.length > doneIndex, payload: false }
}
