import type { Reply } from '../runtime'

/** What the route method answered with, when that is a readable stream (a file, a query cursor). */
export function streamOf(value: unknown): NodeJS.ReadableStream & { destroy?(): void; readableFlowing?: boolean | null } | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const candidate = value as { pipe?: unknown; on?: unknown }
  return typeof candidate.pipe === 'function' && typeof candidate.on === 'function' ? value as never : undefined
}

/**
 * The method answered with a stream and an interceptor answered with something else (a cache hit,
 * an error, `{ data }` it built itself): nobody will read the stream, and a file stream keeps its
 * descriptor open until collected. It is destroyed unless something started reading it (piped it
 * into a transform it returned, sent it through `reply`): when the reply is already on its way, the
 * check waits for the response to end, as reply.send(stream) pipes it only after the onSend hooks.
 */
export function releaseDroppedStream(stream: NonNullable<ReturnType<typeof streamOf>>, reply: Reply): void {
  const release = (): void => { if (stream.readableFlowing === null && typeof stream.destroy === 'function') stream.destroy() }
  if (!reply.sent) { release(); return }
  if (reply.raw.writableFinished || reply.raw.destroyed) { release(); return }
  reply.raw.once('close', release)
}
