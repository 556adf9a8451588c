import { connect, type Socket } from 'node:net'
import type { Scope } from '../../src/runtime'

/**
 * Listens `app` on loopback and sends one GET for `path` from a client that never reads (its socket
 * paused): what the stream-reply byte-cap tests feed. `serverClosed` settles when the server's side
 * of that connection closes.
 */
export async function nonReader(app: Scope, path: string): Promise<{ socket: Socket; serverClosed: Promise<void> }> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const serverClosed = new Promise<void>((resolve) => app.server.once('connection', (s: Socket) => s.once('close', () => resolve())))
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(address).port) })
  socket.on('error', () => undefined)
  socket.pause()
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
  return { socket, serverClosed }
}
