import { Transform } from 'node:stream'

/**
 * Stands between an object-mode stream reply and the response. Node's response takes only
 * strings and bytes, and `stream.pipe(res)` writes each chunk from the stream's 'data' event:
 * one object or number (`Readable.from([{ id: 1 }])`, the natural first try at NDJSON) made
 * `res.write` throw there, an uncaught exception that took the process down while the client
 * got an empty 200. Here the first chunk that is neither is handed to `onInvalid` (which fails
 * the stream with a coded error) and it and everything after it are dropped. Byte-mode streams
 * (files, sockets) can only give bytes and never pass through this.
 */
export function chunkGuard(onInvalid: (chunk: unknown) => void): Transform {
  let failed = false
  return new Transform({
    writableObjectMode: true,
    transform(chunk: unknown, _encoding, callback) {
      if (failed) { callback(); return }
      if (typeof chunk === 'string' || chunk instanceof Uint8Array) { callback(null, chunk); return }
      failed = true
      onInvalid(chunk)
      callback()
    },
  })
}
