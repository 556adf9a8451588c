import { Transform } from 'node:stream'

/**
 * Keeps a streamed body to the Content-Length its reply declared. Node writes whatever the stream
 * gives: more bytes than declared reach a keep-alive client as the start of the next response,
 * fewer leave it waiting and swallow the next response into this body (response desync; a
 * file that changed size between its stat and its read does it). Here the body stops before the
 * first byte past the length, or when the stream ends short, and `onMismatch` (which closes the
 * connection: the honest signal once headers went out) is told how many bytes the stream had.
 */
export function declaredLengthGuard(declared: number, onMismatch: (streamed: number) => void): Transform {
  let streamed = 0
  let failed = false
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      streamed += chunk.length
      if (failed) { callback(); return }
      if (streamed > declared) { failed = true; onMismatch(streamed); callback(); return }
      callback(null, chunk)
    },
    flush(callback) {
      if (!failed && streamed !== declared) { failed = true; onMismatch(streamed) }
      callback()
    },
  })
}
