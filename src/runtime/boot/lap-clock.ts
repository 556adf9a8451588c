import { performance } from 'node:perf_hooks'
import { cpuNowMs } from '../schemas/cpu-clock'

/** Where a lap adds its time: a route's bootProfile() record. */
export interface LapTotals {
  ms: number
  cpuMs: number
}

/**
 * Times the queued builds of eager boot's batch (serializer-batch.ts) for bootProfile(). They run
 * back to back, so the reading that ends one build also starts the next: one wall and one CPU
 * read per build instead of two (a CPU read is a getrusage call, ~0.5–1 µs, with an object per
 * call). Anything else the batch runs between two builds (a warning logged) breaks the chain, so
 * that a build is never charged for it; what is left in a lap besides its build is the batch's own
 * loop step and a profile record pushed to an array.
 */
export class LapClock {
  #chained = false
  #ms = 0
  #cpuMs = 0

  /** Runs `run`, adding its wall and CPU time to `into`. */
  lap(run: () => void, into: LapTotals): void {
    const ms = this.#chained ? this.#ms : performance.now()
    const cpuMs = this.#chained ? this.#cpuMs : cpuNowMs()
    // Whatever runs inside `run` is not a lap that may start from our reading.
    this.#chained = false
    try {
      run()
    } finally {
      this.#ms = performance.now()
      this.#cpuMs = cpuNowMs()
      this.#chained = true
      into.ms += this.#ms - ms
      into.cpuMs += this.#cpuMs - cpuMs
    }
  }

  /** Something untimed ran since the last lap ended: the next lap reads its own start. */
  interrupt(): void {
    this.#chained = false
  }
}
