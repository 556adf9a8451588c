import type { FrameworkError } from '../../errors/framework-error'
import type { ReplyImpl } from '../reply'
import type { RequestImpl } from '../request'
import { abortRequest } from '../abort-signal'
import { startHandlerDeadline } from '../handler-timeout'
import { responseGone } from '../response-gone'
import { isOpen, isWritten } from '../reply-state'
import { closeAfterReply } from '../unread-body'

/**
 * The deadlines of a body that a stream parser leaves to the handler (@fastify/multipart's
 * `request.file()`, a tus `application/offset+octet-stream` parser that hands the stream on).
 * Enclave does not read that body, but the route's bodyTimeout list watches it as it watches a
 * body Enclave reads (read-body.ts): entering it leaves the handler deadline's list, and the
 * body's end enters that one again.
 *
 * bodyTimeout (the route's or the server's; none: nothing here): the body must have fully
 * arrived within it, or the request is answered 408 (the read-body error) with the connection
 * closed, and `request.signal` aborts so that the handler's read stops. Without it, a client that
 * stops mid-upload held the request until handlerTimeout and got its 503.
 *
 * handlerTimeout waits meanwhile ("a slow client is not a slow handler") and runs again from the
 * body's end, or from bodyTimeout when every byte arrived but the handler has not read them all:
 * a 200 MB upload on a slow link took longer than handlerTimeout and was answered 503 while it
 * was still arriving, within bodyTimeout. With no bodyTimeout the handler deadline keeps running,
 * so that a handler that never reads the body is still bounded.
 */
export function watchStreamBody(request: RequestImpl, reply: ReplyImpl, tooSlow: (ms: number) => FrameworkError): void {
  const raw = request.raw
  const route = reply.route
  const list = route.bodyDeadline
  if (list === null || raw.complete || raw.readableEnded) return
  const onEnd = (): void => {
    reply.onBodyTimeout = null
    // Answered meanwhile (an early 413, a refused type): its deadline is over.
    if (!isWritten(reply) && !reply.raw.headersSent) startHandlerDeadline(reply)
  }
  reply.onBodyTimeout = () => {
    reply.onBodyTimeout = null
    raw.removeListener('end', onEnd)
    if (isWritten(reply) || reply.raw.headersSent || responseGone(reply.raw)) return
    // Every byte arrived, but the handler has not read to the end (or is answering): its own deadline runs from here.
    if (raw.complete || !isOpen(reply)) { startHandlerDeadline(reply); return }
    const error = tooSlow(list.ms)
    abortRequest(request, error)
    closeAfterReply(reply)
    reply.send(error)
  }
  route.serve.deadlines.enter(list, reply)
  raw.once('end', onEnd)
}
