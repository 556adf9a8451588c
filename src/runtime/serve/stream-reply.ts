import type { Readable } from 'node:stream'
import { runtimeError } from '../errors/runtime-codes'
import { describeValue } from '../schemas/schema-codes'
import { isEventStream, trackEventStream } from './event-streams'
import type { ReplyImpl } from './reply'
import { replyAt } from './reply-at'
import { stageHead } from './reply-state'
import { responseGone } from './response-gone'
import { failWrite } from './send-failure'
import { pumpCheckedChunks } from './stream-chunks'
import { declaredLengthGuard } from './stream-length'
import { reportStreamQueue } from './stream-queued-output'
import { closeSource } from './stream-source'
import { cutResponse } from './cut-response'
import { failHead, writeHeadOrFail } from './write-head'
import { warnUnloggedLateFailure } from './unlogged-failure'

/** A stream reply: piped to the response, held to a declared length, failed before or after its first byte. */
export function writeStream(reply: ReplyImpl, stream: Readable): void {
  const res = reply.raw
  if (reply.request.method === 'HEAD') { writeHeadStream(reply, stream); return }
  let staged: string[] = []
  // An object-mode stream may give what a response cannot take: its chunks are checked on the way.
  const objectMode = stream.readableObjectMode === true
  // Once headers are out a failure can no longer become an error reply: the honest signal to
  // the client is a connection closed before the end of the body. Before the first byte (the
  // head is only staged until then) it is an error reply, as in Fastify 3.
  let settled = false
  // Set once the source is piped: a source failing before that has written nothing.
  let detach: (() => void) | null = null
  const fail = (error: unknown): void => {
    settled = true
    // Logged here only when no error reply will log it (Fastify 3's line and level).
    if (res.headersSent) {
      // The client left first: its leaving is logged (the 'request aborted' line) and the source
      // was closed for it, which some sources answer with an error of their own (undici's body,
      // so a proxied or fetched stream: RequestAbortedError). That is no server failure, and a
      // warn line (or the silent logger's process warning) per browser tab closed mid-stream
      // buried the real ones. Fastify 3 and 5 log only the premature close, at info.
      if (responseGone(res)) return
      reply.request.log.warn(reply.route.serve.idFields(reply.request.id, { err: error }), 'response terminated with an error with headers already sent')
      warnUnloggedLateFailure(reply, error, 'failed after the response had started (the client got a cut-off response)')
      cutResponse(res)
      return
    }
    // The error reply answers: whatever the source still gives must not reach the response (under
    // the staged head, or after the error reply's end). Under a length guard the source feeds the
    // guard, not the response: both hops are cut.
    detach?.()
    for (const name of staged) res.removeHeader(name)
    failWrite(reply, error)
  }
  stream.once('error', fail)
  stream.once('end', () => { settled = true })
  try {
    staged = stageHead(reply)
  } catch (error) {
    closeSource(stream)
    // A head the handler already wrote on reply.raw (`writeHead()`, then a send) cannot lose its
    // headers: Node throws, from an onSend hook's callback that throw escaped every promise.
    if (!res.headersSent) for (const name of Object.keys(reply.headerMap)) res.removeHeader(name)
    failHead(reply, error)
    return
  }
  res.once('close', () => { if (stream.destroyed !== true) closeSource(stream) })
  // An event stream's head goes out now, not with its first event (which may be minutes away):
  // the client's EventSource fires 'open' and a test sees the 200 at once. A failure of the
  // stream before its first event then closes the connection instead of answering an error.
  // Read from the staged head: a length set on reply.raw (a middleware's setHeader) goes out too.
  const declared = res.getHeader('content-length')
  const eventStream = declared === undefined && isEventStream(res.getHeader('content-type'))
  if (eventStream) res.flushHeaders()
  // Node would write whatever the stream gives under a length it does not check (stream-length.ts).
  const guard = declared === undefined ? null : declaredLengthGuard(Number(declared), (streamed) => {
    const mismatch = runtimeError('ENC_ERR_REPLY_STREAM_LENGTH', { at: replyAt(reply), declared: String(declared), streamed })
    reply.request.log.error(reply.route.serve.idFields(reply.request.id, { err: mismatch }), 'the response stream did not match its Content-Length')
    warnUnloggedLateFailure(reply, mismatch, 'the response stream did not match its Content-Length (the connection was cut)')
    cutResponse(res)
    closeSource(stream)
  })
  const dest = guard ?? res
  let stopPiping: () => void
  if (objectMode) {
    stopPiping = pumpCheckedChunks(stream, dest, (chunk) => stream.destroy(runtimeError('ENC_ERR_REPLY_STREAM_CHUNK', { at: replyAt(reply), got: describeValue(chunk) })))
  } else {
    stream.pipe(dest)
    // A legacy stream (the `send` module's SendStream) has pipe() but no unpipe().
    stopPiping = () => { if (typeof stream.unpipe === 'function') stream.unpipe(dest) }
  }
  reportStreamQueue(reply, stream, guard)
  if (guard === null) detach = stopPiping
  else {
    guard.pipe(res)
    detach = () => { stopPiping(); guard.unpipe(res) }
  }
  // A source destroyed before its end (a hub dropping a slow client, a producer giving up) gives
  // the response nothing more, not even its end: without this the client waited for ever. As
  // Fastify 3 and 5 (pump's premature close): an error reply before the first byte, else the
  // connection is cut, so the client sees an incomplete body, not a complete one.
  // The client leaving closes the source too (closeSource above): no failure then, over HTTP/2
  // either, whose response has no `destroyed` (responseGone reads its stream).
  // Not stream.finished(): it takes a 'close' without 'end' from a source that is not a
  // stream.Readable (a hand-made one with its own pipe()) for a clean finish, and it adds its
  // end/error/close/finish listeners to every stream reply for nothing this one line misses.
  const onSourceClose = (): void => {
    if (settled || dest.writableEnded || dest.destroyed || responseGone(res)) return
    fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }))
  }
  if (stream.destroyed === true) process.nextTick(onSourceClose); else stream.once('close', onSourceClose)
  // An event stream has no end of its own: close() ends it (a length declared for one is held to instead).
  if (eventStream && dest === res) trackEventStream(reply.route.serve, res, stopPiping, () => closeSource(stream))
}

/**
 * A HEAD reply computed by a GET handler that answers with a stream: the headers go out, the
 * stream is closed unread. An error it still emits (its source failed while opening) is logged,
 * as Fastify 3 does, and touches neither the reply already written nor the connection.
 */
export function writeHeadStream(reply: ReplyImpl, stream: Readable): void {
  stream.on('error', (error) => {
    reply.request.log.error(reply.route.serve.idFields(reply.request.id, { err: error }), 'Error on Stream found for HEAD route')
  })
  if (writeHeadOrFail(reply)) reply.raw.end()
  closeSource(stream)
}
