import type { IncomingMessage, ServerResponse } from 'node:http'
import { handleRequest } from '../serve/pipeline'
import type { ServeContext } from '../serve/serve-context'

/**
 * Fastify's `fastify.routing`: the request listener, for a request a plugin received outside the
 * 'request' event. @fastify/websocket hands it the server's 'upgrade' requests, with a
 * ServerResponse on the upgrade socket. Node's HTTP parser has let go of that socket, so nothing
 * would ever close it: when such a request is answered over HTTP (a 404, a 401 from a hook, a
 * route without a websocket handler), the socket is ended once the reply is written, as Node
 * does for an upgrade request it answers itself. A reply the plugin hijacked (the websocket) is
 * left alone.
 */
export function routingOf(serve: ServeContext): (req: IncomingMessage, res: ServerResponse) => void {
  return function routing(req, res) {
    // Node's parser marks the requests it gave to 'upgrade' listeners (absent from @types/node).
    if ((req as IncomingMessage & { upgrade?: boolean }).upgrade === true) {
      const socket = req.socket
      res.shouldKeepAlive = false
      res.once('finish', () => socket.destroySoon())
    }
    handleRequest(serve, req, res)
  }
}
