import { finished } from 'node:stream'
import type { ReplyImpl } from '../serve/reply'

/**
 * Fastify 4/5's `reply.then(fulfilled, rejected)`, which makes `await reply` wait for the
 * response: fulfilled (with no value) once it has finished, or at once when it already ended or
 * was hijacked; rejected with a stream error. A connection the client closed first fulfills, as
 * in Fastify (stream.finished()'s ERR_STREAM_PREMATURE_CLOSE is no error of the reply). Without
 * `rejected`, an error is logged as a warning. It returns nothing, as Fastify's: `await` and
 * `Promise.resolve(reply)` work, chaining `.then().then()` does not.
 *
 * `return reply` (and `return reply.send(x)`) from an async handler or hook is unchanged in
 * effect: the promise settles with undefined once the response finished (at once when send()
 * already wrote it), and the pipeline sees a sent reply, as it saw the reply itself before.
 */
export function replyThen(this: ReplyImpl, fulfilled?: (value?: unknown) => unknown, rejected?: (error: unknown) => unknown): void {
  const raw = this.raw
  const done = typeof fulfilled === 'function' ? fulfilled : (): void => {}
  if (raw.writableEnded || this.route.serve.hijacked.has(raw)) { done(); return }
  finished(raw, (error) => {
    if (error !== undefined && error !== null && (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      if (typeof rejected === 'function') rejected(error)
      else this.request.log.warn({ err: error }, 'unhandled rejection on reply.then')
      return
    }
    done()
  })
}
