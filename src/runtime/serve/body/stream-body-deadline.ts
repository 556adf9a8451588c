import type { FrameworkError } from '../../errors/framework-error'
import type { ReplyImpl } from '../reply'
import type { RequestImpl } from '../request'
import { abortRequest } from '../abort-signal'
import { isOpen } from '../reply-state'
import { closeAfterReply } from '../unread-body'

/**
 * bodyTimeout for a body that a stream parser leaves to the handler (@fastify/multipart's
 * `request.file()`, a `(request, payload, done)` parser that pipes it on). Enclave does not read
 * that body, so the list deadline read-body.ts uses does not apply; without this, a client that
 * stops mid-upload held the request until handlerTimeout and got its 503, as if the handler were
 * slow. Here the body must have fully arrived `ms` after the parser got it, or the request is
 * answered 408 (the read-body error) with the connection closed, and `request.signal` aborts so
 * that the handler's read stops. One timer, only on requests whose body is still arriving.
 */
export function watchStreamBody(request: RequestImpl, reply: ReplyImpl, ms: number, tooSlow: () => FrameworkError): void {
  const raw = request.raw
  if (raw.complete || raw.readableEnded) return
  const clear = (): void => { clearTimeout(timer) }
  const timer = setTimeout(() => {
    raw.removeListener('end', clear)
    raw.removeListener('close', clear)
    if (raw.complete || !isOpen(reply) || reply.raw.headersSent || reply.raw.destroyed) return
    const error = tooSlow()
    abortRequest(request, error)
    closeAfterReply(reply)
    reply.send(error)
  }, ms)
  timer.unref()
  raw.once('end', clear)
  raw.once('close', clear)
}
