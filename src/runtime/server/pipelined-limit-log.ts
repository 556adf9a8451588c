import type { IncomingMessage } from 'node:http'
import { runtimeError } from '../errors/runtime-codes'
import type { Logger } from '../types'

/**
 * The warning when requests held by maxPipelinedRequests wait with no answer going out
 * (server/pipelined-cap.ts): one line per connection, naming the oldest request held and the
 * client's address. Nothing is refused; a client that pipelines deeply but reads its answers is
 * served in full and never logged.
 */
export function pipelinedLimitLog(log: Logger, limit: number): (req: IncomingMessage) => void {
  return (req) => {
    log.warn({ method: req.method, url: req.url, remoteAddress: req.socket.remoteAddress, limit, err: runtimeError('ENC_ERR_CONNECTION_PIPELINED_LIMIT', { limit, what: `${String(req.method)} ${String(req.url)}` }) },
      'a client has more than maxPipelinedRequests requests in flight on one connection; reading it is paused until answers go out')
  }
}
