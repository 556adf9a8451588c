import type { Http2Session, ServerHttp2Stream } from 'node:http2'

/**
 * http2SessionTimeout (Fastify 3): a session with no activity (no byte in or out) for
 * `sessionTimeoutMs` gets GOAWAY: its open streams finish, no new one starts. From then on a check
 * every period, not Node's session timer, decides: once a session is closed that timer cannot be
 * relied on (after nghttp2 ended a session on a protocol error, a 7-byte PING or a frame past the
 * frame size, it never fired again; node:http2 also stops reading that socket, so the client's
 * close is never seen: the socket stayed open until the server closed, found by hostile14's
 * frame fuzz). A closed session with no byte moved is destroyed after `sessionTimeoutMs` when
 * every reply is written, after `drainTimeoutMs` when a reply waits on its client (the HTTP/1
 * drainTimeout's rule; 0: never); a stream whose reply has not ended and has nothing queued (a
 * handler still working, a quiet event stream) keeps its session. Per session and per stream (one
 * Set entry), on HTTP/2 servers only.
 */
export function closeIdleSession(session: Http2Session, sessionTimeoutMs: number, drainTimeoutMs: number): void {
  const streams = new Set<ServerHttp2Stream>()
  session.on('stream', (stream: ServerHttp2Stream) => {
    streams.add(stream)
    stream.once('close', () => streams.delete(stream))
  })
  const waitingOnClient = (): boolean => {
    for (const stream of streams) if (stream.writableLength > 0) return true
    return false
  }
  // A reply still being produced, but not one whose output waits on the client: a stream reply
  // whose source respects backpressure never ends while the client holds its window shut, and
  // counting it as work kept such a session (and each source: a file descriptor) for good.
  const working = (): boolean => {
    for (const stream of streams) if (!stream.writableEnded && stream.writableLength === 0) return true
    return false
  }
  const moved = (): number => (session.socket?.bytesWritten ?? 0) + (session.socket?.bytesRead ?? 0)
  const watchClosed = (): void => {
    let last = moved()
    let quietSince = Date.now()
    const timer = setInterval(() => {
      const now = moved()
      if (now !== last) {
        last = now
        quietSince = Date.now()
        return
      }
      if (session.destroyed || working()) return
      const quiet = Date.now() - quietSince
      if (waitingOnClient() ? drainTimeoutMs > 0 && quiet >= drainTimeoutMs : quiet >= sessionTimeoutMs) session.destroy()
    }, drainTimeoutMs > 0 ? Math.min(sessionTimeoutMs, drainTimeoutMs) : sessionTimeoutMs).unref()
    session.once('close', () => clearInterval(timer))
  }
  // Node's session timer restarts on every byte in or out: firing means no progress at all.
  session.setTimeout(sessionTimeoutMs, () => {
    if (session.destroyed) return
    session.close()
    session.setTimeout(0)
    watchClosed()
  })
}
