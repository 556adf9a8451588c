import { runtimeError } from '../errors/runtime-codes'
import { isHttp2 } from './http2-request'
import type { ReplyImpl } from './reply'
import { replyAt } from './reply-at'
import { writeHead } from './reply-state'
import { failWrite } from './send-failure'

/** Node refuses some header values (a newline, say) by throwing: that is an error reply too. */
export function writeHeadOrFail(reply: ReplyImpl): boolean {
  try {
    writeHead(reply)
    return true
  } catch (error) {
    failHead(reply, error)
    return false
  }
}

/** Node refused the head (a header value with a newline, say): that is an error reply too. */
export function failHead(reply: ReplyImpl, error: unknown): void {
  // Node set the refused status's reason phrase before refusing: the error reply needs its own.
  // HTTP/2 has no reason phrase (setting one only prints an UnsupportedWarning).
  if (!isHttp2(reply.request.raw)) reply.raw.statusMessage = ''
  // Node's "Cannot write headers after they are sent" says only what, not why: the message does, once.
  if ((error as { code?: unknown } | null)?.code === 'ERR_HTTP_HEADERS_SENT') {
    failWrite(reply, runtimeError('ENC_ERR_REPLY_INVALID_HEADER', { at: replyAt(reply), started: true }))
    return
  }
  const reason = error instanceof Error ? error.message : String(error)
  failWrite(reply, runtimeError('ENC_ERR_REPLY_INVALID_HEADER',
    { at: replyAt(reply), reason: (error as { code?: unknown } | null)?.code === 'ERR_INVALID_CHAR' ? reason + INVALID_CHAR_HINT : reason }, { cause: error }))
}

// The usual way to get there is a download named after an upload ("日本.pdf"): say how to encode it.
const INVALID_CHAR_HINT = '. A header value takes Latin-1 text without control characters (CR, LF): percent-encode anything else; ' +
  "a file name goes in Content-Disposition as filename*=UTF-8''${encodeURIComponent(name)} (RFC 6266), after an ASCII filename=\"...\" fallback"
