import type { Http2Session, ServerHttp2Stream } from 'node:http2'

/**
 * http2SessionTimeout (Fastify 3): a session with no activity (no byte in or out) for
 * `sessionTimeoutMs` gets GOAWAY: its open streams finish, no new one starts. GOAWAY alone never
 * ends a session whose client stopped reading: HTTP/2 flow control holds the reply in the stream,
 * nothing moves, and Node's session timer fires once. So the timer is armed again after each
 * GOAWAY, and a session with a reply waiting on its client and no activity for `drainTimeoutMs`
 * (the HTTP/1 drainTimeout's rule; 0: never) is destroyed. A stream with nothing to send (a
 * handler still working, a quiet event stream) keeps its session.
 * Per session and per stream (one Set entry), on HTTP/2 servers only.
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
  // Node's session timer restarts on every byte in or out: firing means no progress at all.
  const onStalled = (): void => {
    if (session.destroyed) return
    if (waitingOnClient()) session.destroy()
    else onIdle()
  }
  const onIdle = (): void => {
    if (session.destroyed) return
    session.close()
    if (drainTimeoutMs > 0 && waitingOnClient()) session.setTimeout(drainTimeoutMs, onStalled)
    else session.setTimeout(sessionTimeoutMs, onIdle)
  }
  session.setTimeout(sessionTimeoutMs, onIdle)
}
