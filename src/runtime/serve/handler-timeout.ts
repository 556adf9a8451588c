import { runtimeError } from '../errors/runtime-codes'
import { handleError, writeFallback } from './error-reply'
import type { ReplyImpl } from './reply'
import { isOpen, isWritten } from './reply-state'
import { abortRequest } from './abort-signal'
import { replyAt } from './reply-at'
import { responseGone } from './response-gone'
import type { DeadlineList } from './deadlines'
import type { ServeContext } from './serve-context'

/**
 * handlerTimeout: a request not answered in time gets a 503 instead of holding its client (and
 * its socket) for as long as a stuck handler or hook waits. The deadline starts at arrival, is
 * paused while the body arrives (bodyTimeout's business: a slow client is not a slow handler)
 * and ends when the reply is written (write-payload.ts). Deadlines are list entries, not timers
 * (deadlines.ts): starting and ending one allocates nothing.
 */
export function startHandlerDeadline(reply: ReplyImpl): void {
  const route = reply.route
  if (route.handlerDeadline !== null) route.serve.deadlines.enter(route.handlerDeadline, reply)
}

/**
 * The deadline list of a route: the server's handlerTimeout, or the route's own (Fastify 5's
 * route option, an integer > 0 checked at declaration), which overrides it either way.
 */
export function handlerDeadlineOf(serve: ServeContext, own: number | undefined): DeadlineList | null {
  return own === undefined ? serve.handlerDeadline : serve.deadlines.list(own, onHandlerExpired)
}

/** The reply is going out, or nobody is left to answer: no deadline applies any more. */
export function endDeadline(reply: ReplyImpl): void {
  if (reply.deadlineList !== null) reply.route.serve.deadlines.leave(reply)
}

/** The handler deadline expired: answer 503 through the error handlers, or past them. */
export function onHandlerExpired(reply: ReplyImpl): void {
  const res = reply.raw
  // Nobody is left to answer (an HTTP/1.1 client that left, an HTTP/2 stream or session that
  // ended): an aborted request, not one to answer 503 and log.
  if (isWritten(reply) || res.headersSent || responseGone(res)) return
  const context = reply.route.serve
  const request = reply.request
  const error = runtimeError('ENC_ERR_HANDLER_TIMEOUT', { at: replyAt(reply), ms: reply.route.handlerDeadline?.ms ?? context.limits.handlerTimeout })
  if (!reply.timedOut && isOpen(reply)) {
    // First expiry: through onError hooks and the error handlers, like any error. The deadline
    // starts over first, so that an error handler (or an onSend hook) that hangs as well still
    // ends in an answer at the next expiry.
    reply.timedOut = true
    startHandlerDeadline(reply)
    abortRequest(request, error)
    handleError(reply, error)
    return
  }
  // Second expiry, or stuck inside the payload hooks: the 503 is written past every hook.
  writeFallback(reply, error, true)
}
