/**
 * onClose/preClose hooks whose promise close() does not bound by pluginTimeout: the module layer's
 * own shutdown hooks, which run many steps (each provider's dispose(), each lifecycle method) and
 * bound every step themselves (by pluginTimeout, or the module layer's default dispose timeout when
 * pluginTimeout is 0), so their sum may rightly take longer than one.
 */
const selfBounded = new WeakSet<Function>()

/** Marks `hook` as bounding its own steps (returns it, for `addHook('onClose', selfBoundedHook(...))`). */
export function selfBoundedHook<T extends Function>(hook: T): T {
  selfBounded.add(hook)
  return hook
}

export function isSelfBoundedHook(hook: Function): boolean {
  return selfBounded.has(hook)
}
