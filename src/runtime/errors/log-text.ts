import { clipAt } from './client-text'

/**
 * The longest error message (and the message inside its stack) a framework log line repeats
 * whole. A handler that throws `new Error(input)` would otherwise write the client's text three
 * times per line (the message, err.message, the stack that starts with it): a 5 MB body cost a
 * 15 MB line, which a log shipper may refuse, losing the rest of the request's story.
 */
export const LOG_TEXT_LIMIT = 8_192

/** `text` cut to its first LOG_TEXT_LIMIT characters and its length, never inside a surrogate pair. */
export function clipLogText(text: string): string {
  return text.length <= LOG_TEXT_LIMIT ? text : clipAt(text, LOG_TEXT_LIMIT)
}

/**
 * A stack with the error's long message clipped where it appears, so the frames after it (the
 * reason to log a stack) stay; a stack still past twice the limit (a message with no match, a
 * long cause chain) is clipped as a whole.
 */
export function clipLogStack(stack: string, message: unknown): string {
  if (stack.length <= LOG_TEXT_LIMIT) return stack
  let clipped = stack
  if (typeof message === 'string' && message.length > LOG_TEXT_LIMIT) {
    const at = stack.indexOf(message)
    if (at !== -1) clipped = stack.slice(0, at) + clipLogText(message) + stack.slice(at + message.length)
  }
  return clipped.length <= 2 * LOG_TEXT_LIMIT ? clipped : clipLogText(clipped)
}
