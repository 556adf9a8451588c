import type { Readable } from 'node:stream'

/** A payload sent as a stream: anything with pipe(), as Fastify 3 tests it (legacy streams too). */
export function isStream(payload: object): payload is Readable {
  return typeof (payload as { pipe?: unknown }).pipe === 'function'
}

/**
 * Stops a source the response no longer reads, in Fastify 3's order: destroy(), else close(),
 * else abort(). Not every stream sent is a stream.Readable: a legacy stream (the `send` module's)
 * or a hand-made source may lack destroy(), and calling it anyway threw from a 'close' listener,
 * an uncaught exception that took the process down.
 */
export function closeSource(stream: Readable): void {
  const source = stream as unknown as { destroy?: unknown; close?: unknown; abort?: unknown }
  if (typeof source.destroy === 'function') stream.destroy()
  else if (typeof source.close === 'function') (source.close as (callback: () => void) => void)(() => {})
  else if (typeof source.abort === 'function') (source.abort as () => void)()
}
