import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestListener } from './node-server'

/**
 * HTTP/1.1 pipelining: Node parses every request a client wrote in one go and emits 'request'
 * for each at once, queueing only the answers (a queued ServerResponse has no socket yet). So
 * one write of 500 pipelined requests ran 500 handlers concurrently on one connection (Node 20,
 * Fastify 3 and 5 alike), and a request behind an answer that closes the connection
 * (`Connection: close`, an error that cannot keep the framing) ran its handler for an answer
 * nobody would receive. Here a pipelined request waits for its turn: its handler runs when the
 * answer before it has gone out and the connection passes to it (Node emits 'socket' on the
 * response), and never when the connection closes (or is closing) first. One in flight per connection, as a
 * client without pipelining would have; a request that is not queued costs one comparison.
 * HTTP/2 responses always have a socket (streams are concurrent by design, bounded by
 * maxConcurrentStreams); inject() does not come through here.
 */
export function inTurn(listener: RequestListener): RequestListener {
  return (raw, res) => {
    const socket = res.socket
    if (socket === null) waitForTurn(raw, res, listener)
    // The answer before this one ended the connection while Node's parser was still reading the
    // same packet (a 413 sent before its body was read): nobody can receive this one's answer.
    else if (!socket.writableEnded) listener(raw, res)
  }
}

function waitForTurn(raw: IncomingMessage, res: ServerResponse, listener: RequestListener): void {
  const turn = (): void => { raw.off('close', gone); listener(raw, res) }
  // Node destroys a queued request when its connection closes: nobody is left to answer.
  const gone = (): void => { res.off('socket', turn) }
  res.once('socket', turn)
  raw.once('close', gone)
}
