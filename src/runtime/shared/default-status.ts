import { functionNotes } from './function-notes'

// Keyed by the handler, as security.ts keys guards by their hook.
const statuses = functionNotes<number>()

/**
 * Marks a route handler with the status it answers when it sets none (the modules layer's
 * `@HttpCode()`), so `openapi()` documents that status for a route without a response schema
 * for it. Returns the handler.
 */
export function describeDefaultStatus<F extends Function>(handler: F, status: number): F {
  return statuses.note(handler, status)
}

export function defaultStatusOf(handler: Function): number | undefined {
  return statuses.of(handler)
}
