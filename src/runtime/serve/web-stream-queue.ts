import type { Readable } from 'node:stream'
import { SAMPLE } from './object-mode-bytes'

type Entry = { value?: unknown; byteLength?: unknown } | null | undefined
type ControllerState = { queue?: unknown; queueTotalSize?: unknown }

// The web stream a Node stream reply was made from (web-reply.ts), for the drain watch (weak: a finished reply leaves by itself).
const sources = new WeakMap<Readable, object>()

export function markWebSource(node: Readable, web: object): void {
  sources.set(node, web)
}

/**
 * The bytes waiting in the queue of the web stream `node` was made from. Readable.fromWeb() reads
 * the web stream only as the response drains, so a source that calls `controller.enqueue()`
 * regardless of `desiredSize` (an event hub's `start(controller)` that keeps the controller)
 * piles its chunks up in the web stream's own queue: neither the socket nor the Node stream shows
 * them, and a client that reads nothing held its producer's rate × drainTimeout. The queue is not
 * public (a ReadableStream has no desiredSize; only its controller has, and the source keeps
 * that): it is read from Node's internal state (`kState`: the stream's controller, the
 * controller's queue), as the drain watch reads libuv's write queue. A byte stream's
 * `queueTotalSize` is bytes; a default stream's counts its strategy's sizes (chunks, by default),
 * so its entries are measured: bytes by byteLength, strings by length, the walk cut at SAMPLE.
 * A shape that is not Node's (another version, a look-alike) counts 0, as before.
 */
export function webQueueBytes(node: Readable): number {
  const web = sources.get(node)
  if (web === undefined) return 0
  try {
    const controller = (stateOf(web) as { controller?: unknown } | undefined)?.controller
    const state = stateOf(controller) as ControllerState | undefined
    const queue = state?.queue
    if (!Array.isArray(queue) || queue.length === 0) return 0
    const first = queue[0] as Entry
    // ReadableByteStreamController's entries are { buffer, byteOffset, byteLength }: its total is in bytes.
    if (typeof first?.byteLength === 'number' && typeof state?.queueTotalSize === 'number') return state.queueTotalSize
    let bytes = 0
    const seen = Math.min(queue.length, SAMPLE)
    for (let i = 0; i < seen; i++) bytes += sizeOf((queue[i] as Entry)?.value)
    return seen < queue.length ? Math.round((bytes / seen) * queue.length) : bytes
  } catch {
    return 0
  }
}

/** Node's `kState` slot of a web stream object (a symbol-keyed own property), or undefined. */
function stateOf(target: unknown): unknown {
  if (typeof target !== 'object' || target === null) return undefined
  for (const key of Object.getOwnPropertySymbols(target)) {
    if (key.description === 'kState') return (target as Record<symbol, unknown>)[key]
  }
  return undefined
}

function sizeOf(chunk: unknown): number {
  if (typeof chunk === 'string') return chunk.length
  if (ArrayBuffer.isView(chunk)) return chunk.byteLength
  if (chunk instanceof ArrayBuffer) return chunk.byteLength
  return 0
}
