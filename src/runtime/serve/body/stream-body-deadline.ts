import type { FrameworkError } from '../../errors/framework-error'
import type { ReplyImpl } from '../reply'
import type { RequestImpl } from '../request'
import { abortRequest } from '../abort-signal'
import { endDeadline, startHandlerDeadline } from '../handler-timeout'
import { isOpen, isWritten } from '../reply-state'
import { closeAfterReply } from '../unread-body'

/**
 * The deadlines of a body that a stream parser leaves to the handler (@fastify/multipart's
 * `request.file()`, a tus `application/offset+octet-stream` parser that hands the stream on).
 * Enclave does not read that body, so the list deadline read-body.ts uses does not apply.
 *
 * bodyTimeout (`ms`, the route's or the server's; 0: none, and nothing here): the body must have fully arrived
 * `ms` after the parser got it, or the request is answered 408 (the read-body error) with the
 * connection closed, and `request.signal` aborts so that the handler's read stops. Without it, a
 * client that stops mid-upload held the request until handlerTimeout and got its 503.
 *
 * handlerTimeout waits while bodyTimeout watches the body, as it does for a body Enclave reads
 * ("a slow client is not a slow handler"), and runs again from the body's end (or from
 * bodyTimeout, when every byte arrived but the handler has not read them all): a 200 MB upload on
 * a slow link took longer than handlerTimeout and was answered 503 while it was still arriving,
 * within bodyTimeout. With no bodyTimeout the handler deadline keeps running, so that a handler
 * that never reads the body is still bounded. One timer, only on requests whose body is still arriving.
 */
export function watchStreamBody(request: RequestImpl, reply: ReplyImpl, ms: number, tooSlow: (ms: number) => FrameworkError): void {
  const raw = request.raw
  if (ms <= 0 || raw.complete || raw.readableEnded) return
  endDeadline(reply)
  const timer = setTimeout(() => {
    raw.removeListener('end', onEnd)
    raw.removeListener('close', onClose)
    if (isWritten(reply) || reply.raw.headersSent || reply.raw.destroyed) return
    // Every byte arrived, but the handler has not read to the end: its own deadline runs from here.
    if (raw.complete) { startHandlerDeadline(reply); return }
    if (!isOpen(reply)) { startHandlerDeadline(reply); return }
    const error = tooSlow(ms)
    abortRequest(request, error)
    closeAfterReply(reply)
    reply.send(error)
  }, ms)
  timer.unref()
  function onEnd(): void {
    clearTimeout(timer)
    raw.removeListener('close', onClose)
    // Answered meanwhile (an early 413, a refused type): its deadline is over.
    if (!isWritten(reply) && !reply.raw.headersSent) startHandlerDeadline(reply)
  }
  // The client went away before the body's end: the aborted request ends the rest.
  function onClose(): void {
    clearTimeout(timer)
    raw.removeListener('end', onEnd)
  }
  raw.once('end', onEnd)
  raw.once('close', onClose)
}
