import type { Socket } from 'node:net'
import type { Readable } from 'node:stream'
import type { Http2Stream } from 'node:http2'
import { ownQueuedOutput, ownStreamOutput, releaseQueuedOutput, releaseStreamOutput, type QueuedOutput } from '../shared/queued-output'
import { closeSource } from './stream-source'
import type { ReplyImpl } from './reply'
import { replyAt } from './reply-at'
import { isHttp2 } from './http2-request'
import { objectModeBytes } from './object-mode-bytes'
import { webQueueBytes } from './web-stream-queue'

/**
 * Tells the drain watch what a byte stream reply holds that the socket does not show: a producer
 * that ignores backpressure piles its bytes up in the source (and in a length guard between it
 * and the response) while the pipe waits for 'drain'. An object-mode source's own length counts
 * objects, not bytes: its buffered chunks are measured instead (object-mode-bytes.ts), and a web
 * stream's (always object mode here) own queue with them (web-stream-queue.ts).
 * Over HTTP/2 the socket is the session's, shared by every stream, and flow control holds a
 * stream's output in the stream: the owner is registered with the session, counts the stream's
 * own buffer too, and a cut ends that stream only (RST_STREAM), not the session.
 */
export function reportStreamQueue(reply: ReplyImpl, source: Readable, guard: Readable | null): void {
  // Only the drain watch's byte cap reads it: nothing to hand over with the cap off.
  if (reply.route.serve.limits.maxQueuedBytes === 0) return
  const res = reply.raw
  const socket: Socket | null = res.socket
  if (socket === null) return
  const http2 = isHttp2(reply.request.raw) ? (res as unknown as { stream?: Http2Stream }).stream : undefined
  const objectMode = source.readableObjectMode === true
  const counted = objectMode ? [guard] : [source, guard]
  const owner: QueuedOutput = {
    held: () => {
      let bytes = objectMode ? objectModeBytes(source) + webQueueBytes(source) : 0
      for (const stream of counted) bytes += bufferedIn(stream)
      return http2 === undefined ? bytes : bytes + http2.writableLength
    },
    describe: () => reply.route.serve.idFields(reply.request.id, { route: replyAt(reply), url: reply.request.url }),
  }
  if (http2 !== undefined) {
    const session = http2.session
    if (session === undefined) return
    owner.cut = () => { closeSource(source); http2.close(NGHTTP2_ENHANCE_YOUR_CALM) }
    ownStreamOutput(session, owner)
    res.once('close', () => releaseStreamOutput(session, owner))
    return
  }
  ownQueuedOutput(socket, owner)
  // 'close' follows 'finish' on every response; only this owner goes, so a next response on the socket is safe.
  res.once('close', () => releaseQueuedOutput(socket, owner))
}

/** RST_STREAM's code for a peer that makes the server do too much (RFC 9113 §7), as Node's own flood limits answer. */
const NGHTTP2_ENHANCE_YOUR_CALM = 0xb

/** Bytes a stream holds on both sides (a PassThrough written to regardless of write()'s answer holds them on its writable side). */
function bufferedIn(stream: Readable | null): number {
  if (stream === null) return 0
  const { readableLength, writableLength } = stream as Readable & { writableLength?: unknown }
  return (typeof readableLength === 'number' ? readableLength : 0) + (typeof writableLength === 'number' ? writableLength : 0)
}
