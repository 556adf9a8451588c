import type { Socket } from 'node:net'
import type { RequestListener } from './node-server'
import type { PipelinedCap } from './pipelined-cap'

/** Node's mark on a response whose headers said the connection closes after it (`_storeHeader`). */
interface ClosingResponse { _last?: boolean }

/**
 * HTTP/1.1 pipelining: Node parses every request a client wrote in one go and emits 'request'
 * for each at once, queueing only the answers. A request behind an answer that already closes the
 * connection (`Connection: close` written, a 413 sent before its body was read, the socket ended)
 * would run its handler for an answer nobody receives: it is dropped here, Node discards its queued
 * response when the connection closes. Pipelined requests otherwise run concurrently, as in Node
 * and Fastify: running each only in its turn (one in flight per connection) cost ~8% CPU per
 * request under 10-deep pipelining (session 10, paired), so a handler behind an answer that decides
 * to close only after it awaited something still runs, up to `cap` of them at once per connection
 * (maxPipelinedRequests, server/pipelined-cap.ts; null: no cap). HTTP/2 responses always have
 * their socket; inject() does not come through here.
 */
export function unlessClosing(listener: RequestListener, cap: PipelinedCap | null): RequestListener {
  return (raw, res) => {
    const socket = res.socket
    if (socket !== null) {
      // The answer before this one ended the connection while Node's parser was still reading the
      // same packet (a 413 sent before its body was read).
      if (!socket.writableEnded) listener(raw, res)
      return
    }
    // Queued behind another answer: dropped only when that answer already closes the connection.
    const connection = raw.socket
    if (closingConnection(connection)) return
    if (cap === null) listener(raw, res)
    else cap.queued(raw, res, listener)
  }
}

/** An answer already written or being written on `socket` ends the connection. */
export function closingConnection(socket: Socket): boolean {
  return socket.writableEnded || closingAfterCurrent(socket)
}

function closingAfterCurrent(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: ClosingResponse | null })._httpMessage
  return current !== null && current !== undefined && current._last === true
}
