import { handleError } from './error-reply'
import type { ReplyImpl } from './reply'
import { isWritten, reopen, uncommit } from './reply-state'
import { warnUnloggedLateFailure } from './unlogged-failure'

/** A failure after send() was accepted: reopen the reply so that the error handlers can answer. */
export function failSend(reply: ReplyImpl, error: unknown): void {
  // The handler timeout already answered while this payload was in the hooks: nothing to reopen.
  if (isWritten(reply)) {
    reply.request.log.error(reply.route.serve.idFields(reply.request.id, { err: error }), 'sending a reply failed after the reply was written')
    warnUnloggedLateFailure(reply, error, 'sending a reply failed after the reply was written')
    return
  }
  reopen(reply)
  handleError(reply, error)
}

/** A failure inside write() itself, after it marked the reply written: the same, reopened. */
export function failWrite(reply: ReplyImpl, error: unknown): void {
  uncommit(reply)
  failSend(reply, error)
}
