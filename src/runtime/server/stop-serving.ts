import type { Server } from 'node:http'
import type { ServeContext } from '../serve/serve-context'
import type { Connections } from './connections'

/**
 * How long close() leaves a connection that has not sent a byte: long enough for a request already
 * on its way over loopback or a LAN to be read, short enough not to hold a shutdown.
 */
const silentConnectionGraceMs = 100
const idleSweepMs = 100

/**
 * close()'s middle step: stops accepting at once, closes idle keep-alive sockets and connections
 * that have not sent a byte, lets in-flight requests finish, and force-closes what is still open
 * after `closeTimeout`. Resolves once every connection has closed and the requests that ended
 * meanwhile have run their end hooks.
 */
export async function stopServing(server: Server, connections: Connections, serve: ServeContext): Promise<void> {
  // Not listening with connections open: a preClose hook closed the listener itself (socket.io's
  // io.close() calls server.close()). Its connections still get the same treatment (idle and
  // silent ones closed, the rest cut at closeTimeout); otherwise close() waited for every client
  // to hang up, with no bound at all.
  if (server.listening || connections.sockets.size > 0) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => forceClose(server, connections), serve.limits.closeTimeout)
      timer.unref()
      // A connection busy at close() whose last answer went out before it, with Keep-Alive (an
      // upload answered 401/413/429 before its body was read), goes idle only once that body
      // has arrived: closeIdleConnections() kept it, and close() would wait keepAliveTimeout
      // for it. So idle connections are closed again, every idleSweepMs, until close() is done.
      const sweep = setInterval(() => closeIdleHttp1(server), idleSweepMs)
      sweep.unref()
      const stopped = (): void => { clearTimeout(timer); clearInterval(sweep); resolve() }
      if (server.listening) server.close(stopped)
      else void allClosed(connections).then(stopped)
      closeIdle(server, connections)
      // Connected but silent: Node counts these as busy (its parser waits for a first request),
      // so closeIdleConnections() keeps them and close() would wait for closeTimeout or
      // headersTimeout. They get a short grace instead: a request the client already sent may
      // not have been read yet (a connection accepted just before close()), and destroying it
      // would answer a sent request with ECONNRESET. Still silent after it: destroyed. A
      // connection that has sent part of a request is left to finish it (or to time out).
      // A TCP socket still in its TLS handshake counts as silent.
      const silent = [...connections.sockets].filter((socket) => connections.silent(socket))
      if (silent.length > 0) {
        const grace = setTimeout(() => { for (const socket of silent) if (connections.silent(socket)) socket.destroy() }, silentConnectionGraceMs)
        grace.unref()
      }
    })
  }
  // Requests that ended (or were force-closed) during shutdown finish their end hooks first.
  // server.close() calls back before destroyed sockets have emitted 'close' (which is when a
  // response's abort hooks start), so wait for those events, then for the hooks.
  // (The set loses a socket on its 'close' event: what is still in it has not emitted it.)
  await allClosed(connections)
  for (let round = 0; round < 100 && serve.endingDuringClose.size > 0; round++) await Promise.all([...serve.endingDuringClose])
}

/** Resolves once every connection open now has emitted 'close' (the set loses a socket on that event). */
function allClosed(connections: Connections): Promise<unknown> {
  return Promise.all([...connections.sockets].map((socket) => new Promise<void>((resolve) => { socket.once('close', () => resolve()) })))
}

/**
 * closeTimeout is up: every connection still open is cut. Node's closeAllConnections() knows
 * only the connections its HTTP parser still owns; a socket given to an 'upgrade' listener
 * (a websocket, or an upgrade request routing answers over HTTP) left that list, but
 * server.close() still waits for it, so it is destroyed here too, from the set of every
 * connection the server accepted.
 */
function forceClose(server: Server, connections: Connections): void {
  // node:http2's servers have no closeAllConnections(); their sessions are destroyed instead.
  if (typeof server.closeAllConnections === 'function') server.closeAllConnections()
  for (const session of connections.sessions) session.destroy()
  for (const socket of connections.sockets) socket.destroy()
}

/**
 * Idle keep-alive connections close at once. An HTTP/2 session gets GOAWAY (session.close()):
 * its open streams finish, no new one starts, and it closes when the last one ends.
 * A serverFactory's server may have neither.
 */
function closeIdle(server: Server, connections: Connections): void {
  closeIdleHttp1(server)
  for (const session of connections.sessions) session.close()
}

function closeIdleHttp1(server: Server): void {
  if (typeof server.closeIdleConnections === 'function') server.closeIdleConnections()
}
