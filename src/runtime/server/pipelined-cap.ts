import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { RequestListener } from './node-server'

/**
 * maxPipelinedRequests: how many requests one HTTP/1.1 connection may have in flight behind the
 * answer being written. Node parses every request a client pipelines and runs each at once; it
 * stops reading the socket only once the queued answers pass the socket's high-water mark, after
 * the packet in hand, and reads again as soon as any of them moves. A client that writes
 * thousands of tiny requests and reads nothing so had every one of them in flight, each with its
 * request, reply and queued answer (~14 MB of heap per 128 KB of input, session 18).
 *
 * A request that arrives with `limit` already in flight is held (its handler not run; only Node's
 * request and response objects exist for it) and reading stops: Node's own `_paused` flag is set,
 * so Node pauses its parser after the packet in hand and a body read does not restart the socket.
 * Node restarts reading whenever queued output moves; a 'resume' listener stops it again while
 * requests are held. Each answer that goes out lets one held request run; once none is held,
 * reading goes on. A well-behaved pipelining client is answered in full and in order (Node keeps
 * the answers in arrival order), at most `limit` of its requests running at once.
 *
 * Only requests queued behind another answer are counted: a request Node hands its socket at once
 * (every request of a client that does not pipeline) never comes here.
 */
export interface PipelinedCap {
  /** Runs `listener` for a request queued behind another answer, or holds it while `limit` are in flight. */
  queued(req: IncomingMessage, res: ServerResponse, listener: RequestListener): void
}

interface Line {
  inFlight: number
  readonly held: Array<{ req: IncomingMessage; res: ServerResponse; listener: RequestListener }>
  paused: boolean
  warned: boolean
}

type NodeSocket = Socket & { _paused?: boolean; parser?: { pause(): void; resume(): void } | null }

export function pipelinedCap(limit: number, onLimit: (req: IncomingMessage) => void, closing: (socket: Socket) => boolean): PipelinedCap {
  const lines = new WeakMap<Socket, Line>()
  const lineOf = (socket: Socket): Line => {
    let line = lines.get(socket)
    if (line === undefined) {
      const made: Line = { inFlight: 0, held: [], paused: false, warned: false }
      line = made
      lines.set(socket, made)
      // Node restarts reading when its own queued output falls (socketOnDrain): not while requests are held.
      socket.on('resume', () => { if (made.paused) { stopReading(socket); (socket as NodeSocket).parser?.pause() } })
      socket.once('close', () => { made.held.length = 0; made.paused = false })
    }
    return line
  }
  const run = (line: Line, socket: Socket, req: IncomingMessage, res: ServerResponse, listener: RequestListener): void => {
    line.inFlight++
    res.once('close', () => {
      line.inFlight--
      release(line, socket)
    })
    listener(req, res)
  }
  const release = (line: Line, socket: Socket): void => {
    while (line.inFlight < limit && line.held.length > 0) {
      const next = line.held.shift() as Line['held'][number]
      // The connection is ending (an earlier answer closes it): Node drops the queued answers with it.
      if (socket.destroyed || closing(socket)) { line.held.length = 0; break }
      run(line, socket, next.req, next.res, next.listener)
    }
    if (line.held.length === 0 && line.paused) {
      line.paused = false
      startReading(socket)
    }
  }
  return {
    queued(req, res, listener) {
      const socket = req.socket
      const line = lineOf(socket)
      if (line.inFlight < limit && line.held.length === 0) {
        run(line, socket, req, res, listener)
        return
      }
      line.held.push({ req, res, listener })
      if (!line.paused) {
        line.paused = true
        // Node's parser is running (this is its 'request' event): Node pauses it once the packet in hand is parsed.
        stopReading(socket)
      }
      if (!line.warned) {
        line.warned = true
        onLimit(req)
      }
    },
  }
}

/**
 * Node's own pause for a client not reading its answers (`parserOnIncoming`). The parser itself is
 * paused by Node after the packet in hand, never here while it runs: llhttp paused inside its
 * execute would report the rest of the packet as a parse error.
 */
function stopReading(socket: Socket): void {
  (socket as NodeSocket)._paused = true
  socket.pause()
}

function startReading(socket: Socket): void {
  const node = socket as NodeSocket
  if (socket.destroyed) return
  node._paused = false
  node.parser?.resume()
  socket.resume()
}
