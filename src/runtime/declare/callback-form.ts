/**
 * Settles a promise into a Node-style callback, for Fastify's callback forms (listen, close,
 * ready, inject). A callback that throws is the caller's bug: it surfaces as an uncaught
 * exception, as in Fastify, rather than as an unhandled rejection of a promise nobody holds, and
 * a throw on success is never fed back to the same callback as an error.
 */
export function settleInto<T>(promise: Promise<T>, onValue: (value: T) => void, onError: (error: Error) => void): void {
  promise.then((value) => { invoke(onValue, value) }, (error: Error) => { invoke(onError, error) })
}

function invoke<A>(fn: (arg: A) => void, arg: A): void {
  try {
    fn(arg)
  } catch (error) {
    process.nextTick(() => { throw error })
  }
}
