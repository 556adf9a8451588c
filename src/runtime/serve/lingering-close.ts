import type { Socket } from 'node:net'

/** How long a closing connection keeps reading (and discarding) what the client still sends. */
export const LINGER_MS = 2_000
/** And how much of it, at most: past this the client gets its reset. */
export const LINGER_BYTES = 16 * 1024 * 1024

/** Node's http server keeps its parser on the socket; absent from @types/node. */
type ParsedSocket = Socket & {
  parser?: { _consumed?: boolean; unconsume?: () => void } | null
  _handle?: { reading?: boolean; readStart?: () => number } | null
}

/**
 * Closes a connection whose client may still be sending (an error answered before the request's
 * body arrived: a 413 on its Content-Length, a malformed head, a 408 mid-body). Destroying it at
 * once, as Node's destroySoon() does once the answer is flushed, makes the kernel answer the
 * bytes still arriving with a TCP reset, and a reset can reach the client before it has read
 * the answer: it sees ECONNRESET/EPIPE and never the 4xx (half the 413s for a 4 MiB upload did).
 * RFC 9112 §9.6's "lingering close": send the answer, close our side (FIN), read and discard
 * what still comes for at most LINGER_MS and LINGER_BYTES, then destroy. Node's parser is taken
 * off first, so nothing read here can become a request of its own.
 */
export function lingeringClose(socket: Socket): void {
  if (socket.destroyed) return
  detachParser(socket as ParsedSocket)
  let discarded = 0
  const stop = (): void => { clearTimeout(timer); socket.destroy() }
  const timer = setTimeout(stop, LINGER_MS)
  timer.unref()
  socket.on('data', (chunk: Buffer) => {
    discarded += chunk.length
    if (discarded > LINGER_BYTES) stop()
  })
  // The client closed its side: it has stopped sending and had every chance to read.
  socket.once('end', stop)
  socket.once('close', () => clearTimeout(timer))
  socket.end()
  socket.resume()
  restartReads(socket as ParsedSocket)
}

/**
 * Makes Node's own close of this socket (destroySoon(), called once a `Connection: close`
 * answer is flushed) a lingering one. Own property on this socket only: other connections keep
 * Node's method.
 */
export function lingerWhenClosed(socket: Socket): void {
  socket.destroySoon = function destroySoon(this: Socket): void { lingeringClose(this) }
}

/**
 * While the parser read the handle itself it may have stopped the handle's reads (backpressure:
 * Node pauses a connection whose answers are not being read). The stream still believes a read
 * is pending, so resume() alone would never start them again.
 */
function restartReads(socket: ParsedSocket): void {
  const handle = socket._handle
  if (handle === null || handle === undefined || handle.reading === true || typeof handle.readStart !== 'function') return
  handle.reading = true
  handle.readStart()
}

function detachParser(socket: ParsedSocket): void {
  // Node's 'data' listener feeds its parser (or the parser reads the handle itself, "consumed").
  socket.removeAllListeners('data')
  const parser = socket.parser
  if (parser !== null && parser !== undefined && parser._consumed === true && typeof parser.unconsume === 'function') {
    parser.unconsume()
    parser._consumed = false
  }
}
