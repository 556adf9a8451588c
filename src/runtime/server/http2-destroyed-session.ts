import type { Http2Session } from 'node:http2'
import { Socket } from 'node:net'

/**
 * A destroyed HTTP/2 session whose socket stays open. When nghttp2 ends a TLS session on a protocol
 * error (a bad SETTINGS value, then the client cut the connection: the TLS frame fuzz, seed 335)
 * while a write is queued, Node destroys the session, stops reading its socket, and waits for that
 * write to finish before closing the socket; it never does, so the client's close is never seen:
 * the session never emits 'close' and the descriptor stays open until the process exits (where
 * Node then aborts in its own cleanup, `current_nghttp2_memory_ == 0`). Destroying the socket from
 * here is worse: the session becomes garbage with its write still queued and Node aborts in a
 * later GC. What works is reading the socket again: Node then sees the client's close itself, and
 * its own path ends the write, the session ('close') and the socket. So `graceMs` after a destroy,
 * whoever made it (Node on a protocol error, a handler, the idle timer), a socket still open is read
 * again. One unref'd timer per destroyed session, cleared when its socket closes.
 */
export function readSocketOfDestroyedSession(session: Http2Session, graceMs: number): void {
  const socket = ownSocket(session)
  if (socket === undefined) return
  const destroy = session.destroy
  let timer: NodeJS.Timeout | undefined
  session.destroy = function (this: Http2Session, ...args: Parameters<Http2Session['destroy']>): void {
    destroy.apply(this, args)
    // Node calls destroy more than once, and on every session's end (a client's close too), mostly
    // with the socket still closing: one timer, cleared when the socket closes, so that it does not
    // hold a closed socket and its session for graceMs.
    if (timer !== undefined || socket.destroyed) return
    const pending = timer = setTimeout(() => { readAgain(socket) }, graceMs).unref()
    socket.once('close', () => { clearTimeout(pending) })
  }
}

/** Restarts reading at the native handle: node:http2 stopped it there, under the stream's own state. */
function readAgain(socket: Socket): void {
  if (socket.destroyed) return
  const handle = (socket as Socket & { _handle?: { readStart?: () => number } | null })._handle
  if (typeof handle?.readStart === 'function') handle.readStart()
}

/**
 * The session's own socket: `session.socket` is a proxy that refuses most calls (and, once Node
 * unbinds it, every read), so the socket is taken from node:http2's internal slot, checked to be one.
 */
function ownSocket(session: Http2Session): Socket | undefined {
  for (const key of Object.getOwnPropertySymbols(session)) {
    if (key.description !== 'socket') continue
    const value = (session as unknown as Record<symbol, unknown>)[key]
    if (value instanceof Socket) return value
  }
  return undefined
}
