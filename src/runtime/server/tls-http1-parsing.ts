import type { Server } from 'node:net'
import type { TLSSocket } from 'node:tls'

/**
 * HTTP/1.1 over TLS is parsed from the socket's 'data' events, not by Node's parser consuming the
 * TLS handle directly (`parser.consume(socket._handle)`, what node:http does for any stream handle
 * it has not seen consumed).
 *
 * Why: Node stops reading a connection whose queued answers pass its high-water mark (and
 * maxPipelinedRequests stops it too, pipelined-cap.ts) by pausing the socket and then its parser.
 * A TCP handle delivers nothing more once paused; a TLS handle still hands the parser cleartext it
 * had decrypted, whenever the server writes. The paused parser reports that as `HPE_PAUSED`, a
 * parse error, and the connection dies: on node:https every request behind it and every answer not
 * yet written is lost; here the connection stalled for good. Any client pipelining more than ~16 KB
 * of answers behind a slow one (500 tiny GETs) hit it (Node 20, plain and allowHTTP1 servers alike).
 * Through 'data' events a paused socket emits nothing: the stream keeps what arrives until reading
 * resumes. Marking the handle consumed before node:http's connection listener runs is what makes
 * it take that path; HTTP/2 sessions (ALPN h2) do not read the flag and are left alone.
 */
export function parseTlsHttp1FromData(server: Server): void {
  server.prependListener('secureConnection', (socket: TLSSocket) => {
    const handle = (socket as TLSSocket & { _handle?: { _consumed?: boolean } | null })._handle
    if (handle !== null && handle !== undefined && socket.alpnProtocol !== 'h2') handle._consumed = true
  })
}
