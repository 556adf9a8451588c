import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { runtimeError } from '../errors/runtime-codes'
import type { QueuedOutput } from '../shared/queued-output'
import type { Logger } from '../types'

/**
 * The warning for a connection maxQueuedBytes cuts (server/drain-watch.ts): one line per cut
 * connection, with what was queued and for which request. A stream reply names itself (its
 * route and request id); otherwise the response Node has on the socket (a handler writing to
 * `reply.raw` regardless of backpressure), or the upgrade request of a websocket.
 */
export function queueLimitLog(log: Logger, limit: number): (socket: Socket | null, queued: number, owner: QueuedOutput | undefined) => void {
  return (socket, queued, owner) => {
    const fields = owner?.describe() ?? (socket === null ? {} : socketRequest(socket))
    const what = typeof fields.route === 'string' ? fields.route : `${String(fields.method ?? 'a request')} ${String(fields.url ?? '')}`.trim()
    log.warn({ ...fields, queued, limit, err: runtimeError('ENC_ERR_CONNECTION_QUEUE_LIMIT', { queued, limit, what }) },
      'a client that is not reading has more than maxQueuedBytes queued; its connection is closed')
  }
}

/** The request of the response Node is writing on `socket` (Node's `_httpMessage`), if any. */
function socketRequest(socket: Socket): Record<string, unknown> {
  const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
  const req: IncomingMessage | undefined = res?.req
  return req === undefined ? {} : { method: req.method, url: req.url }
}
