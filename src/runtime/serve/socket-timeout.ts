import type { Socket } from 'node:net'
import { runObserverHooks, type ObserverFailure } from './hook-runner'
import type { ReplyImpl } from './reply'

/** The reply in flight on each socket whose route has onTimeout hooks (weak: a closed socket leaves by itself). */
const inFlight = new WeakMap<Socket, ReplyImpl>()

/**
 * Fastify 3's onTimeout: when the server's `connectionTimeout` expires on a socket (Node then
 * destroys it), the onTimeout hooks of the request still being answered on it run. One listener
 * per socket, however many keep-alive requests it carries; the latest request replaces the last.
 * A request already answered does not see the idle timeout that follows it.
 */
export function watchSocketTimeout(socket: Socket | null, reply: ReplyImpl): void {
  // inject() requests have a fake socket with nothing to time out.
  if (socket === null || typeof socket.on !== 'function') return
  if (!inFlight.has(socket)) socket.on('timeout', () => onSocketTimeout(socket))
  inFlight.set(socket, reply)
}

function onSocketTimeout(socket: Socket): void {
  const reply = inFlight.get(socket)
  if (reply === undefined) return
  inFlight.delete(socket)
  const hooks = reply.route.onTimeout
  if (hooks === null || reply.raw.writableEnded) return
  runObserverHooks(hooks, reply.request, reply, undefined, false, noop, onTimeoutFailure)
}

function noop(): void {}

const onTimeoutFailure: ObserverFailure = { logLine: 'an onTimeout hook failed', warning: 'an onTimeout hook failed' }
