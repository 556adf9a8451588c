import type { Socket } from 'node:net'
import { sweepInterval } from '../shared/server-options'

/**
 * `drainTimeout`: every other timeout is about receiving. A client that pipelines requests and
 * never reads their answers fills the socket's output buffer; Node then pauses the parser and
 * the connection, with every answer queued on it, would stay open for as long as the client
 * likes (neither Node's socket timeout nor Fastify 3's connectionTimeout destroys it). A socket
 * whose output has waited this long without progress is destroyed. Progress is a 'drain', or a
 * fall of the handle's write queue since the last sweep: one large write (`reply.send(buffer)`)
 * drains only at its end, and `writableLength`/`bytesWritten` do not move while the kernel takes
 * it, so a slow reader that reads steadily is left alone. Without that internal (a socket with no
 * libuv handle), only 'drain' counts.
 *
 * One sweep per server over its open connections (upgraded ones included), a quarter of the
 * timeout apart (at most 1 s): no timer per socket or per write.
 */
export function watchDrains(sockets: ReadonlySet<Socket>, timeoutMs: number): () => void {
  // Each stalled socket: since when it has made no progress, and its write queue then (weak: a closed socket leaves by itself).
  const stalls = new WeakMap<Socket, { since: number, queued: number }>()
  const timer = setInterval(() => {
    const now = Date.now()
    for (const socket of sockets) {
      if (!socket.writableNeedDrain || socket.destroyed) continue
      const queued = queuedBytes(socket)
      const stall = stalls.get(socket)
      if (stall === undefined) {
        stalls.set(socket, { since: now, queued })
        socket.once('drain', () => stalls.delete(socket))
      } else if (queued >= 0 && stall.queued >= 0 && queued < stall.queued) {
        stall.since = now
        stall.queued = queued
      } else if (now - stall.since >= timeoutMs) {
        socket.destroy()
      } else {
        stall.queued = queued
      }
    }
  }, sweepInterval([timeoutMs], 1000))
  // The sweep alone never keeps the process alive.
  timer.unref()
  return () => clearInterval(timer)
}

type Internals = { _handle?: { writeQueueSize?: unknown } | null, _parent?: Socket | null }

/**
 * The bytes libuv still has to write for `socket` (Node internal `_handle.writeQueueSize`); -1 when unknown.
 * A TLS socket's own handle counts the whole encrypted reply until its last byte is taken: its TCP
 * socket's (`_parent`) falls as the client reads, as a plain socket's does.
 */
function queuedBytes(socket: Socket): number {
  const tcp = (socket as unknown as Internals)._parent
  const handle = ((tcp ?? socket) as unknown as Internals)._handle
  const size = handle?.writeQueueSize
  return typeof size === 'number' ? size : -1
}
