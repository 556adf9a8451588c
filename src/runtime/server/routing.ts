import type { IncomingMessage, ServerResponse } from 'node:http'
import { handleRequest } from '../serve/pipeline'
import type { ServeContext } from '../serve/serve-context'
import { ownQueuedOutput } from '../shared/queued-output'

/**
 * Fastify's `fastify.routing`: the request listener, for a request a plugin received outside the
 * 'request' event. @fastify/websocket and @fastify/http-proxy hand it the server's 'upgrade'
 * requests, with a ServerResponse on the upgrade socket. Node's HTTP parser has let go of that
 * socket: none of Node's timeouts (headersTimeout, requestTimeout, the idle socket timeout) watch
 * it any more, and closeAllConnections() does not know it. So routing takes over what Node did:
 * when such a request is answered over HTTP (a 404, a 401 from a hook, a route without a
 * websocket handler), the socket is ended once the reply is written, as Node does for an
 * upgrade request it answers itself, and destroyed if that has not happened within
 * requestTimeout, the deadline a request on an ordinary connection has. A reply the plugin
 * hijacked (the websocket) is left alone: the connection is the plugin's. close() force-closes
 * whatever is left of either at closeTimeout (stop-serving.ts).
 */
export function routingOf(serve: ServeContext): (req: IncomingMessage, res: ServerResponse) => void {
  return function routing(req, res) {
    // Node's parser marks the requests it gave to 'upgrade' listeners (absent from @types/node).
    if ((req as IncomingMessage & { upgrade?: boolean }).upgrade === true) watchUpgradeSocket(serve, req, res)
    handleRequest(serve, req, res)
  }
}

function watchUpgradeSocket(serve: ServeContext, req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket
  res.shouldKeepAlive = false
  res.once('finish', () => socket.destroySoon())
  // A websocket's output is ws's writes on this socket: maxQueuedBytes's warning names its upgrade request.
  ownQueuedOutput(socket, { held: () => 0, describe: () => ({ method: req.method, url: req.url, websocket: true }) })
  const limit = serve.limits.requestTimeout
  if (limit === 0) return
  // One timer per upgrade request (one per websocket connection, not per message): rare enough
  // that the sweep of serve/deadlines.ts, which is per reply, is not worth bending to sockets.
  const timer = setTimeout(() => {
    if (!serve.hijacked.has(res) && !socket.destroyed) {
      serve.log.warn({ url: req.url, ms: limit }, 'upgrade request answered over HTTP took longer than requestTimeout; its connection is closed')
      socket.destroy()
    }
  }, limit)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
}
