import type { Server } from 'node:http'
import type { Http2Session } from 'node:http2'
import type { Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import type { Transport } from './node-server'

/** The open connections of one server, for close() and the drain watch. */
export interface Connections {
  /**
   * Every open connection, upgraded ones included: close() ends those that never sent a byte,
   * and at closeTimeout those Node no longer tracks. On a TLS server, a connection is its TLS
   * socket once the handshake is done (its bytesRead counts request bytes, the HTTP parser
   * lives on it) and its TCP socket until then.
   */
  readonly sockets: ReadonlySet<Socket>
  /** HTTP/2 sessions still open: close() sends them GOAWAY, closeTimeout destroys them. Empty on HTTP/1 servers. */
  readonly sessions: ReadonlySet<Http2Session>
  /** Has not sent a request byte: a TCP socket still in its TLS handshake, or a connection that has read nothing. */
  silent(socket: Socket): boolean
}

/**
 * Per connection, not per request: Node's closeIdleConnections() leaves alone a connection that
 * has not sent a request yet, and close() must not wait closeTimeout for those (stop-serving.ts).
 */
export function trackConnections(server: Server, transport: Transport): Connections {
  const sockets = new Set<Socket>()
  const sessions = new Set<Http2Session>()
  const handshaking = new WeakSet<Socket>()
  const track = (socket: Socket): void => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  }
  server.on('connection', (socket: Socket) => {
    track(socket)
    if (transport.secure) handshaking.add(socket)
  })
  if (transport.secure) {
    server.on('secureConnection', (socket: TLSSocket) => {
      // From here the TLS socket stands for the connection; its TCP socket closes with it.
      const tcp = (socket as TLSSocket & { _parent?: Socket | null })._parent
      if (tcp !== null && tcp !== undefined) sockets.delete(tcp)
      track(socket)
    })
  }
  if (transport.http2) {
    server.on('session', (session: Http2Session) => {
      sessions.add(session)
      session.once('close', () => sessions.delete(session))
    })
  }
  // An HTTP/2 connection is its session's to close (GOAWAY): its socket's bytesRead does not move
  // once the session reads it. Every h2c connection is a session; over TLS, those that chose h2
  // (the others are allowHTTP1's HTTP/1.1 connections).
  const ownedBySession: (socket: Socket) => boolean = !transport.http2 ? () => false
    : transport.secure ? (socket) => (socket as TLSSocket).alpnProtocol === 'h2' : () => true
  return {
    sockets,
    sessions,
    silent: (socket) => handshaking.has(socket) || (!ownedBySession(socket) && socket.bytesRead === 0),
  }
}
