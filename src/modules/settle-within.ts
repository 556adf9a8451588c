/**
 * A promise or a function-shaped thenable: what a factory (provider or usePlugin options) may
 * return instead of its value.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

/**
 * `work`, or the error `expired()` makes once `timeoutMs` has passed without it settling (0: no
 * limit, as pluginTimeout 0 turns the plugin limit off). Boot waits keep the event loop alive;
 * `unref` is for waits during close(), which must not hold the process open by themselves.
 */
export function settleWithin<T>(work: PromiseLike<T>, timeoutMs: number, expired: () => Error, options: { unref?: boolean } = {}): Promise<T> {
  if (timeoutMs <= 0) return Promise.resolve(work)
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), timeoutMs)
    if (options.unref === true) timer.unref()
  })
  return Promise.race([work, limit]).finally(() => clearTimeout(timer))
}
