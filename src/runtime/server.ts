import { createServer as createHttpServer } from 'node:http'
import type { Socket } from 'node:net'
import { ScopeImpl } from './scope'
import { ServerContext } from './server-context'
import { handleRequest, serveNotFound } from './pipeline'
import { answerClientError } from './client-error'
import { connectionsCheckingInterval } from './server-options'
import type { Scope, ServerOptions } from './types'

/**
 * Creates a server and returns its root scope (spec §4.2: every operation is on a scope).
 *
 * @example
 * const app = createServer({ validator: { customOptions: { coerceTypes: 'array' } } })
 * app.get('/hello', { schema: { querystring: { name: { type: 'string' } } } }, (request) => ({ hi: request.query.name }))
 * await app.listen({ port: 3000 })
 */
export function createServer(options: ServerOptions = {}): Scope {
  const context = new ServerContext(options)
  context.serveNotFound = serveNotFound
  const limits = context.limits
  context.server = createHttpServer({
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
    connectionsCheckingInterval: connectionsCheckingInterval(limits),
  }, (req, res) => handleRequest(context, req, res))
  context.server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket))
  // Per connection, not per request: Node's closeIdleConnections() leaves alone a connection that
  // has not sent a request yet, and close() must not wait closeTimeout for those (see close()).
  context.server.on('connection', (socket: Socket) => {
    context.sockets.add(socket)
    socket.once('close', () => context.sockets.delete(socket))
  })
  context.rootScope = new ScopeImpl({ context, parent: null, name: options.name ?? 'root', prefix: '' })
  return context.rootScope as unknown as Scope
}
