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
 * The warning (once per connection) speaks only for a connection that is stuck, not merely deep:
 * held requests that waited half a second with no answer going out (a client not reading, or
 * behind an answer that does not come). A polite client pipelining past the limit, served as fast
 * as its handlers answer, logs nothing (session 19 logged it too).
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
  /** Answers gone out on this connection (requests in flight that closed): the stall watch's measure of progress. */
  answered: number
  /** While requests are held and not yet warned about: the stall watch (watchStall below). */
  watch: ReturnType<typeof setInterval> | null
}

/**
 * How often, and how many checks in a row without an answer going out, before a connection with
 * held requests is logged. A polite client pipelining deeper than the limit (it reads its answers)
 * has its held requests released as fast as the handlers answer: it is served, not logged. A client
 * that reads nothing fills the socket and its answers stop going out; behind an answer that does not
 * come, nothing goes out either: that connection is logged, ~0.5 s after the cap first held it. Two
 * checks, not one: a process starved of CPU for a moment (timers run before the I/O that waited)
 * must not read its own stall as the client's.
 */
const STALL_CHECK_MS = 250
const STALL_CHECKS = 2

type NodeSocket = Socket & { _paused?: boolean; parser?: { pause(): void; resume(): void } | null }

export function pipelinedCap(limit: number, onLimit: (req: IncomingMessage) => void, closing: (socket: Socket) => boolean): PipelinedCap {
  const lines = new WeakMap<Socket, Line>()
  const lineOf = (socket: Socket): Line => {
    let line = lines.get(socket)
    if (line === undefined) {
      const made: Line = { inFlight: 0, held: [], paused: false, warned: false, answered: 0, watch: null }
      line = made
      lines.set(socket, made)
      // Node restarts reading when its own queued output falls (socketOnDrain): not while requests are held.
      socket.on('resume', () => { if (made.paused) { stopReading(socket); (socket as NodeSocket).parser?.pause() } })
      socket.once('close', () => { made.held.length = 0; made.paused = false; stopWatch(made) })
    }
    return line
  }
  const run = (line: Line, socket: Socket, req: IncomingMessage, res: ServerResponse, listener: RequestListener): void => {
    line.inFlight++
    res.once('close', () => {
      line.inFlight--
      line.answered++
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
      if (!line.warned && line.watch === null) watchStall(line)
    },
  }
  /** Logs the connection once if its held requests wait STALL_CHECKS checks in a row with no answer going out. */
  function watchStall(line: Line): void {
    let seen = line.answered
    let still = 0
    line.watch = setInterval(() => {
      const waiting = line.held[0]
      if (waiting === undefined) { stopWatch(line); return }
      if (line.answered !== seen) { seen = line.answered; still = 0; return }
      if (++still < STALL_CHECKS) return
      stopWatch(line)
      line.warned = true
      onLimit(waiting.req)
    }, STALL_CHECK_MS)
    // Never keeps the process alive by itself.
    line.watch.unref()
  }
}

function stopWatch(line: Line): void {
  if (line.watch === null) return
  clearInterval(line.watch)
  line.watch = null
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
