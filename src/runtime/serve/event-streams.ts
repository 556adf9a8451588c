import type { ServerResponse } from 'node:http'
import type { ServeContext } from './serve-context'
import { responseGone } from './response-gone'

/**
 * Server-Sent Events replies that Enclave pipes from a stream (a returned `PassThrough`, a
 * generator's `Readable.from()`, a web `ReadableStream`, sent as `text/event-stream`). Such a
 * stream has no end of its own, so close() would wait `closeTimeout` for it and then cut it. The
 * type says what ending it means: the SSE protocol's end of a stream is "reconnect" (WHATWG
 * HTML §9.2: the client retries, with `Last-Event-ID`), so close() ends these responses cleanly
 * (the chunked terminator, not a cut connection) as soon as it stops accepting, and destroys the
 * source, whose 'close' event is the handler's cue to unsubscribe. Other streams (a download, an
 * NDJSON export) have an end, and a clean end before it would pass a truncated body off as whole:
 * those are left to finish within `closeTimeout`.
 */
export function isEventStream(type: unknown): boolean {
  return typeof type === 'string' && type.trimStart().toLowerCase().startsWith('text/event-stream')
}

/**
 * Registers a piped event-stream reply with close(). `stopPiping` detaches the source from the
 * response (so nothing is written after its end); `closeSource` stops the source. A response
 * that starts once close() has begun is ended at once: its client reconnects elsewhere.
 */
export function trackEventStream(serve: ServeContext, res: ServerResponse, stopPiping: () => void, closeSource: () => void): void {
  const end = (): void => {
    serve.eventStreams.delete(end)
    if (res.writableEnded || responseGone(res)) return
    stopPiping()
    closeSource()
    res.end()
  }
  if (serve.closing) { end(); return }
  serve.eventStreams.add(end)
  res.once('close', () => serve.eventStreams.delete(end))
}

/** close(): ends every event-stream reply still open (trackEventStream). */
export function endEventStreams(serve: ServeContext): void {
  for (const end of [...serve.eventStreams]) end()
}
