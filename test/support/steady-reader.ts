// A client that reads a large reply slowly but steadily, for the drainTimeout tests: paced by the
// clock (a byte budget that grows with elapsed time), not by a fixed amount per timer tick, so a
// slow or stalled test process (a GC pause, a loaded CI machine) reads at the same average rate
// instead of a fraction of it. The server sees that reading only in steps as large as its kernel
// send buffer (about 1.5 MB with Linux's default tcp_wmem), so the rate must let one step pass
// well within drainTimeout.
import type { Socket } from 'node:net'
import { setImmediate as yieldToIo, setTimeout as sleep } from 'node:timers/promises'

/** Reads the paused `socket` at about `bytesPerSecond` until `total` bytes or its close; resolves to the bytes read. */
export async function readSteadily(socket: Socket, total: number, bytesPerSecond: number, isClosed: () => boolean): Promise<number> {
  const started = Date.now()
  // Bounded: ten times the nominal duration.
  const deadline = started + 10 * (total / bytesPerSecond) * 1000
  let received = 0
  while (received < total && !isClosed() && Date.now() < deadline) {
    if (received >= ((Date.now() - started) / 1000) * bytesPerSecond) { await sleep(10); continue }
    const chunk = socket.read() as Buffer | null
    // Nothing buffered: let the event loop read more from the kernel (a paused socket refills its
    // buffer only up to its high-water mark per read).
    if (chunk === null) await yieldToIo()
    else received += chunk.length
  }
  return received
}
