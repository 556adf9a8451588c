import type { Socket } from 'node:net'
import type { Readable } from 'node:stream'
import { ownQueuedOutput, releaseQueuedOutput, type QueuedOutput } from '../shared/queued-output'
import type { ReplyImpl } from './reply'
import { replyAt } from './reply-at'
import { isHttp2 } from './http2-request'
import { objectModeBytes } from './object-mode-bytes'

/**
 * Tells the drain watch what a byte stream reply holds that the socket does not show: a producer
 * that ignores backpressure piles its bytes up in the source (and in a length guard between it
 * and the response) while the pipe waits for 'drain'. An object-mode source's own length counts
 * objects, not bytes: its buffered chunks are measured instead (object-mode-bytes.ts). Over HTTP/2 the socket is the session's, shared
 * by every stream: nothing is registered (the session's own timeout watches it).
 */
export function reportStreamQueue(reply: ReplyImpl, source: Readable, guard: Readable | null): void {
  // Only the drain watch's byte cap reads it: nothing to hand over with the cap off.
  if (reply.route.serve.limits.maxQueuedBytes === 0) return
  const res = reply.raw
  const socket: Socket | null = res.socket
  if (socket === null || isHttp2(reply.request.raw)) return
  const objectMode = source.readableObjectMode === true
  const counted = objectMode ? [guard] : [source, guard]
  const owner: QueuedOutput = {
    held: () => {
      let bytes = objectMode ? objectModeBytes(source) : 0
      for (const stream of counted) bytes += bufferedIn(stream)
      return bytes
    },
    describe: () => reply.route.serve.idFields(reply.request.id, { route: replyAt(reply), url: reply.request.url }),
  }
  ownQueuedOutput(socket, owner)
  // 'close' follows 'finish' on every response; only this owner goes, so a next response on the socket is safe.
  res.once('close', () => releaseQueuedOutput(socket, owner))
}

/** Bytes a stream holds on both sides (a PassThrough written to regardless of write()'s answer holds them on its writable side). */
function bufferedIn(stream: Readable | null): number {
  if (stream === null) return 0
  const { readableLength, writableLength } = stream as Readable & { writableLength?: unknown }
  return (typeof readableLength === 'number' ? readableLength : 0) + (typeof writableLength === 'number' ? writableLength : 0)
}
