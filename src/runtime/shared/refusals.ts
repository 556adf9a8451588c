import { functionNotes } from './function-notes'

/**
 * What a request hook answers when it refuses a request without a security scheme behind it (a
 * guard class whose handle() returns false: 403 ENC_ERR_GUARD_DENIED), for the document only.
 */
export interface RefusalDescription {
  readonly status: number
  /** The code of the framework's error body it answers with. */
  readonly code: string
}

// Keyed by the hook function, as security marks are: a route documents exactly the refusals of the
// hooks it runs, so encapsulation and lift() need no second model.
const refusals = functionNotes<RefusalDescription>()

export function describeRefusal<F extends Function>(hook: F, description: RefusalDescription): F {
  return refusals.note(hook, description)
}

export function refusalOf(hook: Function): RefusalDescription | undefined {
  return refusals.of(hook)
}
