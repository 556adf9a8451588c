import type { ReplyImpl } from './reply'

/**
 * Whether a line logged for this request goes nowhere: the server's logger is the silent default
 * and no hook gave the request a logger of its own. Work that only feeds such a line is skipped.
 */
export function logsNowhere(reply: ReplyImpl): boolean {
  return reply.route.serve.silent && reply.request.log === reply.route.serve.log
}
