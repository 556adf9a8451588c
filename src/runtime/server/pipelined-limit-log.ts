import type { IncomingMessage } from 'node:http'
import { runtimeError } from '../errors/runtime-codes'
import type { Logger } from '../types'

/**
 * The warning when maxPipelinedRequests first holds a request on a connection (server/pipelined-cap.ts):
 * one line per connection, naming the request held and the client's address. Nothing is refused,
 * so a client that pipelines deeply but reads its answers is served in full; the line says why its
 * requests ran at most `limit` at a time.
 */
export function pipelinedLimitLog(log: Logger, limit: number): (req: IncomingMessage) => void {
  return (req) => {
    log.warn({ method: req.method, url: req.url, remoteAddress: req.socket.remoteAddress, limit, err: runtimeError('ENC_ERR_CONNECTION_PIPELINED_LIMIT', { limit, what: `${String(req.method)} ${String(req.url)}` }) },
      'a client has more than maxPipelinedRequests requests in flight on one connection; reading it is paused until answers go out')
  }
}
