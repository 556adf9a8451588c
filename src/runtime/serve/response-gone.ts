import type { ServerResponse } from 'node:http'

/**
 * The response can no longer send. node:http2's compatibility response has no `destroyed`: when
 * nghttp2 ends the session on a protocol error (or the client resets the stream) only its stream
 * says so, and a check of `res.destroyed` alone took the request for one still waiting.
 */
export function responseGone(res: ServerResponse): boolean {
  return res.destroyed || (res as ServerResponse & { stream?: { destroyed?: boolean } }).stream?.destroyed === true
}
