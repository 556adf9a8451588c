import { functionNotes } from './function-notes'

/** An OpenAPI security scheme a guard hook enforces, for the document (never read when serving). */
export interface SecurityDescription {
  /** The components/securitySchemes key, e.g. `bearerAuth`. */
  readonly name: string
  /** The OpenAPI Security Scheme object, e.g. `{ type: 'http', scheme: 'bearer' }`. */
  readonly scheme: Readonly<Record<string, unknown>>
  /** What the guard answers when it refuses. Default 401. */
  readonly status?: number
}

// Keyed by the hook function itself: a route is guarded exactly when its resolved hook chain
// holds a marked hook, so the document follows encapsulation and lift() with no second model.
const guards = functionNotes<SecurityDescription>()

/**
 * Marks a request hook as an authentication guard, so that `openapi()` lists the scheme on
 * every route whose hook chain contains it, with its refusal status. Returns the hook.
 *
 * @example
 * const hook = describeSecurity(async (request, reply) => { ... }, { name: 'apiKey', scheme: { type: 'apiKey', in: 'header', name: 'x-api-key' } })
 * scope.addHook('onRequest', hook)
 */
export function describeSecurity<F extends Function>(hook: F, description: SecurityDescription): F {
  return guards.note(hook, description)
}

export function securityOf(hook: Function): SecurityDescription | undefined {
  return guards.of(hook)
}
