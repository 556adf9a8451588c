import type { Socket } from 'node:net'
import { sweepInterval } from '../shared/server-options'

/**
 * `drainTimeout`: every other timeout is about receiving. A client that pipelines requests and
 * never reads their answers fills the socket's output buffer; Node then pauses the parser and
 * the connection, with every answer queued on it, would stay open for as long as the client
 * likes (neither Node's socket timeout nor Fastify 3's connectionTimeout destroys it). A socket
 * whose output has waited for a 'drain' this long is destroyed. A slow reader that makes
 * progress drains now and then, and is left alone.
 *
 * One sweep per server over its open connections (upgraded ones included), a quarter of the
 * timeout apart (at most 1 s): no timer per socket or per write.
 */
export function watchDrains(sockets: ReadonlySet<Socket>, timeoutMs: number): () => void {
  // When each stalled socket was first seen waiting for 'drain' (weak: a closed socket leaves by itself).
  const stalledSince = new WeakMap<Socket, number>()
  const timer = setInterval(() => {
    const now = Date.now()
    for (const socket of sockets) {
      if (!socket.writableNeedDrain || socket.destroyed) continue
      const since = stalledSince.get(socket)
      if (since === undefined) {
        stalledSince.set(socket, now)
        socket.once('drain', () => stalledSince.delete(socket))
      } else if (now - since >= timeoutMs) {
        socket.destroy()
      }
    }
  }, sweepInterval([timeoutMs], 1000))
  // The sweep alone never keeps the process alive.
  timer.unref()
  return () => clearInterval(timer)
}
