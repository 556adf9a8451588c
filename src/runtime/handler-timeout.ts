import { FrameworkError } from './errors/framework-error'
import { handleError, writeFallback } from './error-reply'
import { ReplyState, type ReplyImpl } from './reply'

/**
 * handlerTimeout: a request not answered in time gets a 503 instead of holding its client (and
 * its socket) for as long as a stuck handler or hook waits. One timer per request, armed at
 * arrival only when the option is on, cleared when the reply is written (send.ts), so the cost
 * on the request path is one setTimeout and one clearTimeout. The timer is refreshed, not
 * replaced, when the deadline moves: no second allocation.
 */
export function armHandlerTimeout(reply: ReplyImpl, ms: number): void {
  reply.timer = setTimeout(onHandlerTimeout, ms, reply)
}

/** The reply is going out (or nobody is left to answer): the deadline no longer applies. */
export function disarmHandlerTimeout(reply: ReplyImpl): void {
  if (reply.timer !== null) {
    clearTimeout(reply.timer)
    reply.timer = null
  }
}

/**
 * The body has fully arrived: the handler's time starts again from here, so a client that was
 * slow to send (within bodyTimeout) does not turn into a 503 blamed on the server.
 */
export function restartHandlerTimeout(reply: ReplyImpl): void {
  if (reply.timer !== null) reply.timer.refresh()
}

function onHandlerTimeout(reply: ReplyImpl): void {
  const timer = reply.timer
  if (timer === null) return
  const res = reply.raw
  if (reply.state === ReplyState.Written || res.headersSent || res.destroyed) {
    reply.timer = null
    return
  }
  // Still waiting for the body: bodyTimeout answers for that phase, not this one.
  if (reply.receivingBody) {
    timer.refresh()
    return
  }
  const ms = reply.route.scope.context.handlerTimeout
  const request = reply.request
  const error = new FrameworkError('ENC_ERR_HANDLER_TIMEOUT',
    `${request.method} ${reply.route.path ?? request.url}: no reply within handlerTimeout (${ms} ms); answered 503. ` +
    'The handler or a hook is still running and whatever it sends later is ignored: find what it waits for, or raise handlerTimeout.',
    { statusCode: 503 })
  if (!reply.timedOut && reply.state === ReplyState.Open) {
    // First expiry: through onError hooks and the error handlers, like any error. The timer is
    // re-armed first so that an error handler (or an onSend hook) that hangs as well still
    // ends in an answer at the next expiry.
    reply.timedOut = true
    timer.refresh()
    handleError(reply, error)
    return
  }
  // Second expiry, or stuck inside the payload hooks: the 503 is written past every hook.
  reply.timer = null
  writeFallback(reply, error)
}
