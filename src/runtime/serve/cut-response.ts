import type { ServerResponse } from 'node:http'

/**
 * node:http2's constants.NGHTTP2_INTERNAL_ERROR (RFC 9113 §7), written out: importing node:http2
 * here would load tls and crypto on every require of Enclave, HTTP/2 or not (test/package).
 */
const NGHTTP2_INTERNAL_ERROR = 0x2

/**
 * Ends a response that can no longer be completed (it failed after its head went out) so that the
 * client sees it incomplete. Over HTTP/1 that is the connection closed. Over HTTP/2 a plain
 * destroy() resets the stream with NO_ERROR, which a client (Node's, curl) reads as the end of a
 * complete response, a truncated body taken for the whole: the stream is reset with
 * INTERNAL_ERROR instead (RFC 9113 §8.1), and the session's other streams go on.
 */
export function cutResponse(res: ServerResponse): void {
  const stream = (res as ServerResponse & { stream?: { destroyed: boolean; close(code: number): void } }).stream
  if (stream !== undefined) {
    if (!stream.destroyed) stream.close(NGHTTP2_INTERNAL_ERROR)
    return
  }
  if (!res.destroyed) res.destroy()
}
