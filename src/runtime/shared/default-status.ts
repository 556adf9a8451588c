// Keyed by the handler function itself, as shared/security.ts keys guards by their hook: the
// document reads what the route runs, and serving never looks here.
const statuses = new WeakMap<Function, number>()

/**
 * Marks a route handler with the status it answers when it sets none (the modules layer's
 * `@HttpCode()`), so `openapi()` documents that status for a route without a response schema
 * for it. Returns the handler.
 */
export function describeDefaultStatus<F extends Function>(handler: F, status: number): F {
  statuses.set(handler, status)
  return handler
}

export function defaultStatusOf(handler: Function): number | undefined {
  return statuses.get(handler)
}
