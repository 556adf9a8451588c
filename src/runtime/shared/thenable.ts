/** A promise or anything shaped like one (what async plugins, hooks and handlers return). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function'
}
