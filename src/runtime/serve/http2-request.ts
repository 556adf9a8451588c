import type { IncomingMessage } from 'node:http'

/**
 * A request from node:http2's compatibility API (an Http2ServerRequest): its `socket` stands for
 * the session's, shared by every stream of the connection, so what closes or lingers on a
 * connection (an HTTP/1 answer to a body it will not read) must leave it alone, and the
 * Connection header does not exist there. Only asked on paths that close a connection.
 */
export function isHttp2(raw: IncomingMessage): boolean {
  return raw.httpVersionMajor === 2
}
