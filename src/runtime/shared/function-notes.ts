/**
 * Facts attached to a function for introspection (openapi(), explain()), keyed by the function
 * itself: the document then reads what a route actually runs, with no second model to keep in
 * step, and serving never looks here. The functions are not kept alive by their notes.
 */
export interface FunctionNotes<T> {
  /** Attaches `value` to `fn` and returns `fn`, so a declaration can be wrapped in place. */
  note<F extends Function>(fn: F, value: T): F
  of(fn: Function): T | undefined
}

export function functionNotes<T>(): FunctionNotes<T> {
  const notes = new WeakMap<Function, T>()
  return {
    note: (fn, value) => { notes.set(fn, value); return fn },
    of: (fn) => notes.get(fn),
  }
}
