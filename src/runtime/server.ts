import { createServer as createHttpServer, STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { ScopeImpl } from './scope'
import { ServerContext } from './server-context'
import { handleRequest } from './pipeline'
import { errorPayloadSerializer } from './error-payload'
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
  context.server = createHttpServer({
    headersTimeout: options.headersTimeout ?? 30_000,
    requestTimeout: options.requestTimeout ?? 120_000,
    keepAliveTimeout: options.keepAliveTimeout ?? 5_000,
  }, (req, res) => handleRequest(context, req, res))
  context.server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket))
  context.rootScope = new ScopeImpl({ context, parent: null, name: options.name ?? 'root', prefix: '' })
  return context.rootScope as unknown as Scope
}

/** Node's parser error codes to our status and stable code; anything else is a malformed request. */
const clientErrors: Record<string, readonly [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'ENC_ERR_REQUEST_HEADERS_TOO_LARGE'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'ENC_ERR_REQUEST_TIMEOUT'],
  HPE_HEADERS_TIMEOUT: [408, 'ENC_ERR_REQUEST_TIMEOUT'],
}
const malformed = [400, 'ENC_ERR_REQUEST_MALFORMED'] as const

/**
 * Errors Node's HTTP parser raises before a request exists (oversized headers, a malformed
 * request line, smuggling shapes such as Content-Length with Transfer-Encoding): answered with
 * the JSON error shape, then the connection is closed.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy()
    return
  }
  if (error.code === 'ECONNRESET') { socket.destroy(); return }
  const [status, code] = clientErrors[error.code ?? ''] ?? malformed
  const reason = STATUS_CODES[status] as string
  const body = errorPayloadSerializer({ statusCode: status, code, error: reason, message: reason })
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
}
