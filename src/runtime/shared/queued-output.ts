import type { Socket } from 'node:net'

/**
 * What a connection's socket cannot see of the output waiting for its client, and whose it is.
 * A stream reply whose producer ignores backpressure (an SSE hub writing to a PassThrough
 * regardless of `write()`'s answer) piles up in the source while the pipe waits for 'drain': the
 * socket's own buffer stays at its high-water mark, so the drain watch (server/drain-watch.ts)
 * asks the owner for those bytes. `describe` gives the fields of the warning logged when the
 * connection is cut for them (the route, the request id).
 */
export interface QueuedOutput {
  held(): number
  describe(): Record<string, unknown>
  /** Ends what queues (an HTTP/2 stream, whose session serves others); on HTTP/1 the drain watch destroys the socket instead. */
  cut?(): void
}

// Weak: a closed socket leaves by itself; one entry per connection, the reply in progress.
const owners = new WeakMap<Socket, QueuedOutput>()

export function ownQueuedOutput(socket: Socket, owner: QueuedOutput): void {
  owners.set(socket, owner)
}

export function releaseQueuedOutput(socket: Socket, owner: QueuedOutput): void {
  if (owners.get(socket) === owner) owners.delete(socket)
}

export function queuedOutputOf(socket: Socket): QueuedOutput | undefined {
  return owners.get(socket)
}

// HTTP/2: one socket carries every stream of its session, and flow control holds each stream's
// output in that stream, not in the socket: the stream replies of each session, watched one by one.
const streamOwners = new WeakMap<object, Set<QueuedOutput>>()

export function ownStreamOutput(session: object, owner: QueuedOutput): void {
  let set = streamOwners.get(session)
  if (set === undefined) { set = new Set(); streamOwners.set(session, set) }
  set.add(owner)
}

export function releaseStreamOutput(session: object, owner: QueuedOutput): void {
  streamOwners.get(session)?.delete(owner)
}

export function streamOutputsOf(session: object): ReadonlySet<QueuedOutput> | undefined {
  return streamOwners.get(session)
}
