import type { Server } from 'node:http'
import type { ListenTarget } from './listen-target'

/** Binds the server where listen() was asked to; rejects with the server's own error (EADDRINUSE). */
export function bindListener(server: Server, target: ListenTarget): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => { server.removeListener('listening', onListening); reject(error) }
    const onListening = (): void => { server.removeListener('error', onError); resolve() }
    server.once('error', onError)
    server.once('listening', onListening)
    // A socket file left by a process that did not close fails with EADDRINUSE, as in Fastify 3:
    // removing it could take the socket of a server still running.
    if (target.path !== undefined) server.listen({ ...target.node, path: target.path })
    else server.listen({ ...target.node, port: target.port, host: target.host })
  })
}

/** What listen() resolves to once bound: the URL, or for a socket its path, as Fastify 3 does. */
export function listeningUrl(server: Server, target: ListenTarget, secure: boolean): string {
  const address = server.address()
  if (typeof address === 'string' || address === null) return address ?? (target.path ?? '')
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `${secure ? 'https' : 'http'}://${host}:${address.port}`
}
