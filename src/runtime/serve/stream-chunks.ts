import type { Readable, Writable } from 'node:stream'

/**
 * Moves an object-mode stream reply into the response, as `source.pipe(dest)` does (backpressure,
 * end), checking each chunk on the way. Node's response takes only strings and bytes, and pipe
 * writes each chunk from the stream's 'data' event: one object or number
 * (`Readable.from([{ id: 1 }])`, the natural first try at NDJSON) made `res.write` throw there,
 * an uncaught exception that took the process down while the client got an empty 200. Here the
 * first chunk that is neither goes to `onInvalid` (which fails the stream with a coded error) and
 * nothing more is written. A loop of our own, not a Transform in between: that extra stream hop
 * cost about 15% of the CPU of a 100-line NDJSON reply. Byte-mode streams (files, sockets) can
 * only give bytes and are piped as they are.
 */
export function pumpCheckedChunks(source: Readable, dest: Writable, onInvalid: (chunk: unknown) => void): () => void {
  let failed = false
  const resume = (): void => { if (!failed) source.resume() }
  source.on('data', (chunk: unknown) => {
    if (failed) return
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) {
      failed = true
      onInvalid(chunk)
      return
    }
    if (!dest.write(chunk)) {
      source.pause()
      dest.once('drain', resume)
    }
  })
  source.once('end', () => { if (!failed) dest.end() })
  // A 'data' listener starts a stream only if nobody paused it; pipe() resumes it in any case
  // (a stream paused by its maker was a reply that never ended).
  if (source.readableFlowing !== true) source.resume()
  // Stops the pump (close() ending an event stream: event-streams.ts): nothing more is written.
  return () => { failed = true }
}
