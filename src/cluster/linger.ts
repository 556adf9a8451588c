import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/**
 * Lingering close for a stopping worker (nginx's `lingering_close`). A keep-alive client may
 * already have written its next request when the server closes the connection; destroying the
 * socket then makes the kernel answer those bytes with a reset, which the client reports as a
 * failed request. Instead, from `start()` on, a connection the server closes is only
 * half-closed (FIN after what was already written); requests still arriving on it are read and
 * dropped, unanswered; the socket is destroyed once the client has closed its side, or after
 * `lingerMs`. The client sees a clean end of connection and sends its request again on a new
 * connection, which the primary gives to a live worker.
 */
export class LingeringClose {
  readonly #server: Server
  readonly #open = new Set<Socket>()
  readonly #lingering = new WeakSet<Socket>()
  readonly #lingerMs: number

  constructor(server: Server, lingerMs: number) {
    this.#server = server
    this.#lingerMs = lingerMs
    server.on('connection', (socket: Socket) => {
      this.#open.add(socket)
      socket.once('close', () => this.#open.delete(socket))
    })
  }

  start(): void {
    const server = this.#server
    const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>
    server.removeAllListeners('request')
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.#lingering.has(req.socket)) { req.resume(); return }
      for (const handler of handlers) handler.call(server, req, res)
    })
    for (const socket of this.#open) this.#patch(socket)
    server.on('connection', (socket: Socket) => this.#patch(socket))
  }

  #patch(socket: Socket): void {
    const destroy = socket.destroy.bind(socket)
    const linger = (error?: Error): Socket => {
      if (error !== undefined) return destroy(error)
      if (this.#lingering.has(socket)) return socket
      this.#lingering.add(socket)
      socket.on('error', () => undefined)
      socket.end()
      const timer = setTimeout(() => destroy(), this.#lingerMs)
      timer.unref()
      socket.once('end', () => { clearTimeout(timer); destroy() })
      return socket
    }
    socket.destroy = linger as typeof socket.destroy
    socket.destroySoon = () => { linger() }
  }
}
