import type { Reply } from '../types'
import type { HandOver, ReplyImpl } from './reply'

/**
 * For the layer above (src/modules): `hook` runs if this reply hands its response to the not-found
 * route (reply.callNotFound()), with the calling route's request and reply. Its route's end hooks
 * no longer run then, so what they would have done (a request-scoped release) goes here instead.
 * A field the runtime tests on the hand-over only: nothing is wrapped per request, and a reply
 * that never hands over pays one null field.
 */
export function onHandOver(reply: Reply, hook: HandOver): void {
  (reply as unknown as ReplyImpl).handOver = hook
}
