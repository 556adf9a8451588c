import type { ReplyImpl } from './reply'

/**
 * Where a reply's error happened, as error messages name it: the method and the route's declared
 * path (`GET /users/:id`), or the URL when no route matched.
 */
export function replyAt(reply: ReplyImpl): string {
  return `${reply.request.method} ${reply.route.path ?? reply.request.url}`
}
