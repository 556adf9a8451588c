import type { Readable } from 'node:stream'

/** Chunks measured per sweep at most; past them the rest are taken to be of the measured ones' mean size. */
export const SAMPLE = 4096

type Chunk = { length?: unknown; byteLength?: unknown } | null | undefined
type BufferState = { buffer?: unknown; bufferIndex?: unknown; length?: unknown }

/**
 * The bytes an object-mode stream holds in its readable buffer. Its `readableLength` counts
 * chunks, so a producer that pushes regardless of push()'s answer (an event hub over
 * `new Readable({ objectMode: true, read() {} })`) grew past maxQueuedBytes unseen: Readable.from()
 * over a generator and web streams are pulled only as the socket drains, but a push-based source
 * is not. Strings count their length (UTF-16 units: near enough for a limit), bytes their
 * byteLength; anything else (an object the reply will refuse) counts nothing. Node 20 keeps the
 * buffer as a linked list (`head`), later versions as an array from `bufferIndex`; -a shape
 * neither counts 0, as before. The walk is cut at SAMPLE chunks and the rest estimated, so a sweep
 * over a million buffered one-byte strings stays cheap.
 */
export function objectModeBytes(stream: Readable): number {
  const state = (stream as unknown as { _readableState?: BufferState })._readableState
  const count = typeof state?.length === 'number' ? state.length : 0
  if (state === undefined || count === 0) return 0
  const buffer = state.buffer as { head?: { data: Chunk; next: unknown } | null } | Chunk[] | undefined
  let seen = 0
  let bytes = 0
  if (Array.isArray(buffer)) {
    const from = typeof state.bufferIndex === 'number' ? state.bufferIndex : 0
    for (let i = from; i < buffer.length && seen < SAMPLE; i++, seen++) bytes += sizeOf(buffer[i])
  } else if (buffer !== null && typeof buffer === 'object' && 'head' in buffer) {
    for (let node = buffer.head; node !== null && node !== undefined && seen < SAMPLE; node = node.next as typeof node, seen++) bytes += sizeOf(node.data)
  }
  if (seen === 0) return 0
  return seen < count ? Math.round((bytes / seen) * count) : bytes
}

function sizeOf(chunk: Chunk): number {
  if (typeof chunk === 'string') return (chunk as string).length
  if (chunk instanceof Uint8Array) return chunk.byteLength
  return 0
}
