import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { runtimeError } from '../errors/runtime-codes'
import type { QueuedOutput } from '../shared/queued-output'
import type { Logger } from '../types'

/**
 * The warning for a connection (or an HTTP/2 stream) maxQueuedBytes cuts (server/drain-watch.ts): one
 * line per cut, with what was queued and for which request. A stream reply names itself (its
 * route and request id); otherwise the response Node has on the socket (a handler writing to
 * `reply.raw` regardless of backpressure), or the upgrade request of a websocket.
 */
export function queueLimitLog(log: Logger, limit: number): (socket: Socket | null, queued: number, owner: QueuedOutput | undefined) => void {
  return (socket, queued, owner) => {
    const fields = owner?.describe() ?? (socket === null ? {} : socketRequest(socket))
    const what = typeof fields.route === 'string' ? fields.route : `${String(fields.method ?? 'a request')} ${String(fields.url ?? '')}`.trim()
    // No socket: one HTTP/2 stream was reset, the session goes on serving its other streams.
    const cut = socket === null ? 'its stream was reset' : 'its connection was closed'
    log.warn({ ...fields, queued, limit, err: runtimeError('ENC_ERR_CONNECTION_QUEUE_LIMIT', { queued, limit, what, cut }) },
      `a client that is not reading has more than maxQueuedBytes queued; ${cut}`)
  }
}

/** The request of the response Node is writing on `socket` (Node's `_httpMessage`), if any. */
function socketRequest(socket: Socket): Record<string, unknown> {
  const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
  const req: IncomingMessage | undefined = res?.req
  return req === undefined ? {} : { method: req.method, url: req.url }
}
