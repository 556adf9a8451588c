import type { Socket } from 'node:net'
import { queuedOutputOf, streamOutputsOf, type QueuedOutput } from '../shared/queued-output'
import { sweepInterval } from '../shared/server-options'

/** The two bounds on output a client does not read (0 turns one off). */
export interface DrainLimits {
  readonly drainTimeout: number
  readonly maxQueuedBytes: number
}

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
 * `maxQueuedBytes`: drainTimeout alone bounds what such a client holds by time, not by size: a
 * websocket handler or an event-stream producer that ignores backpressure queued its whole send
 * rate times drainTimeout (~2 GB at 32 MB/s and 60 s). A connection whose queued output (the
 * socket's buffer, plus what a stream reply's source holds: shared/queued-output.ts) is over the
 * limit and grew since the previous sweep is destroyed, and the cut logged once at warn. Growth,
 * not size alone: one large write (`reply.send()` of a 100 MB buffer) queues its size at once and
 * then only shrinks, and cutting it would break a download the application chose to hold in
 * memory. A cut lands within two sweeps of crossing the limit, so the bound is the limit plus
 * about half a second of the send rate.
 *
 * One sweep per server over its open connections (upgraded ones included), a quarter of the
 * timeout apart (at most 1 s; 250 ms when maxQueuedBytes is on): no timer per socket or per write.
 */
export function watchDrains(
  sockets: ReadonlySet<Socket>,
  limits: DrainLimits,
  onQueueLimit: (socket: Socket | null, queued: number, owner: QueuedOutput | undefined) => void,
  sessions: ReadonlySet<object>,
): () => void {
  const { drainTimeout, maxQueuedBytes } = limits
  // Each stalled socket: since when it has made no progress, and its write queue then (weak: a closed socket leaves by itself).
  const stalls = new WeakMap<Socket, { since: number, queued: number }>()
  // Each socket's (or HTTP/2 stream reply's) queued output at the sweep that last saw some: a
  // 'drain' between two sweeps does not reset it (a source can keep growing while the socket
  // drains a chunk at a time).
  const held = new WeakMap<object, { bytes: number, sweep: number }>()
  let sweep = 0
  const timer = setInterval(() => {
    const now = Date.now()
    sweep++
    if (maxQueuedBytes > 0) for (const session of sessions) {
      const owners = streamOutputsOf(session)
      if (owners !== undefined) for (const owner of owners) streamOverLimit(owner)
    }
    for (const socket of sockets) {
      if (socket.destroyed) continue
      if (maxQueuedBytes > 0 && overLimit(socket)) continue
      if (drainTimeout === 0 || !socket.writableNeedDrain) continue
      const queued = queuedBytes(socket)
      const stall = stalls.get(socket)
      if (stall === undefined) {
        stalls.set(socket, { since: now, queued })
        socket.once('drain', () => stalls.delete(socket))
      } else if (queued >= 0 && stall.queued >= 0 && queued < stall.queued) {
        stall.since = now
        stall.queued = queued
      } else if (now - stall.since >= drainTimeout) {
        socket.destroy()
      } else {
        stall.queued = queued
      }
    }
  }, sweepInterval([drainTimeout, maxQueuedBytes > 0 ? 1000 : 0], 1000))
  /** Cuts `socket` when its queued output is over maxQueuedBytes and grew since the previous sweep. */
  function overLimit(socket: Socket): boolean {
    const owner = queuedOutputOf(socket)
    if (owner === undefined && !socket.writableNeedDrain) return false
    const bytes = socket.writableLength + (owner?.held() ?? 0)
    if (!grewOverLimit(socket, bytes)) return false
    onQueueLimit(socket, bytes, owner)
    socket.destroy()
    return true
  }
  /** The same rule for one HTTP/2 stream reply (its source and the stream's own buffer): that stream is cut. */
  function streamOverLimit(owner: QueuedOutput): void {
    const bytes = owner.held()
    if (!grewOverLimit(owner, bytes)) return
    onQueueLimit(null, bytes, owner)
    owner.cut?.()
  }
  /** Over the limit, seen at the previous sweep and grown since; else records this sweep's figure. */
  function grewOverLimit(key: object, bytes: number): boolean {
    const before = held.get(key)
    if (bytes > maxQueuedBytes && before !== undefined && before.sweep === sweep - 1 && bytes > before.bytes) {
      held.delete(key)
      return true
    }
    if (before === undefined) held.set(key, { bytes, sweep })
    else { before.bytes = bytes; before.sweep = sweep }
    return false
  }
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
