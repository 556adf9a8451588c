import { STATUS_CODES, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { runtimeErrors } from '../errors/runtime-codes'

/** What Enclave needs of ws's WebSocketServer (the value @fastify/websocket decorates as `websocketServer`). */
interface WsServer {
  handleUpgrade: unknown
  on(event: 'wsClientError', listener: (error: Error, socket: Duplex, req: IncomingMessage) => void): unknown
  listenerCount(event: string): number
}

export function isWsServer(value: unknown): value is WsServer {
  const server = value as Partial<WsServer> | null
  return typeof server === 'object' && server !== null && typeof server.handleUpgrade === 'function' &&
    typeof server.on === 'function' && typeof server.listenerCount === 'function'
}

/**
 * A malformed websocket handshake (no or a bad Sec-WebSocket-Key, an unknown version, an Upgrade
 * that is not websocket) got ws's own answer: a `text/html` 400 whose body is a bare sentence,
 * the one error on the server not in the JSON shape. ws hands such handshakes to a
 * 'wsClientError' listener when there is one (its own `abortHandshake` otherwise): this one
 * answers with the JSON shape, `ENC_ERR_WS_HANDSHAKE_INVALID` and ws's reason as the message, with
 * ws's status (405 for a method other than GET) and its `Sec-WebSocket-Version` hint, then closes
 * the connection as ws does. A listener the application adds itself wins: this one then stays out.
 */
export function answerHandshakeErrorsInJson(server: WsServer): void {
  server.on('wsClientError', (error, socket, req) => {
    if (server.listenerCount('wsClientError') > 1) return
    if (!socket.writable) { socket.destroy(); return }
    const status = req.method !== 'GET' ? 405 : 400
    const body = JSON.stringify({
      statusCode: status,
      code: 'ENC_ERR_WS_HANDSHAKE_INVALID',
      error: STATUS_CODES[status] as string,
      message: runtimeErrors.ENC_ERR_WS_HANDSHAKE_INVALID.message({ reason: error.message }),
    })
    const hint = /version/i.test(error.message) ? 'Sec-WebSocket-Version: 13, 8\r\n' : ''
    socket.once('finish', () => socket.destroy())
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] as string}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${hint}\r\n${body}`)
  })
}
