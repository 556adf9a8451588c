/**
 * Eager boot runs Enclave's own per-route work (normalizing, keyword checks, warnings, routing)
 * for every route first, then every route's ajv 6 validators, then every route's serializers, in
 * declaration order each time. ajv 6 and fast-json-stringify 7 (which runs ajv 8 inside) taking
 * turns route by route cost ~60 ms more per 1,000 distinct-schema routes than each running
 * through all routes at once (boot12, boot13); ajv 6 taking turns with Enclave's own per-route
 * work cost ~20% more per compile (boot14: median 240 against 200 µs a schema, the same
 * schemas, options and code; see its commits).
 *
 * The report stays the one the route-by-route order gives. Every queued build keeps its place in
 * that order (its sequence number): when one fails, the builds of the other phase queued before it
 * run first, in that order, and the earliest failure is the one reported; when the first pass
 * fails, every queued build came before it and runs first. The routes' boot warnings are queued
 * with the serializers, so a boot that fails logs the warnings it logged before.
 */
import { LapClock } from './lap-clock'

/**
 * What a queued item is, for the batch's clock: `lap`, a build timed by `clock.lap()`; `note`, a
 * profile record pushed to an array (nothing to charge anyone for, so the chain of laps goes on);
 * `other` (a warning logged, deferred builds forced), which the next lap must not be charged for.
 */
export type QueuedKind = 'lap' | 'note' | 'other'

interface Queued {
  readonly seq: number
  readonly run: () => void
  readonly owner: number
  readonly kind: QueuedKind
}

export class SerializerBatch {
  readonly #validators: Queued[] = []
  readonly #builds: Queued[] = []
  #seq = 0
  #failedOwner = -1
  /** The route (its index for the caller) whose work the first pass is doing now; what is queued is noted as its. */
  owner = -1
  /** Times the queued builds for bootProfile(), one reading between two builds (lap-clock.ts). */
  readonly clock = new LapClock()

  /** The owner of the failure flush() or failed() reported (ready({ compileAll: true }) marks that route failed). */
  get failedOwner(): number {
    return this.#failedOwner
  }

  /** A part's validator (built-in ajv 6 only), to compile once the first pass is over, before any serializer. */
  addValidator(build: () => void, kind: QueuedKind = 'other'): void {
    this.#validators.push({ seq: this.#seq++, run: build, owner: this.owner, kind })
  }

  /** A route's response serializers, or its boot warnings, to build or log after every validator. */
  add(build: () => void, kind: QueuedKind = 'other'): void {
    this.#builds.push({ seq: this.#seq++, run: build, owner: this.owner, kind })
  }

  /**
   * Runs every queued validator, then every queued build, each in declaration order. A failing
   * validator is reported unless a build queued before it fails first (route-by-route, that build
   * ran before it).
   */
  flush(): void {
    const validators = this.#validators.splice(0)
    const builds = this.#builds.splice(0)
    let running: Queued | null = null
    // The first lap reads its own start: the first pass ran since any earlier reading.
    this.clock.interrupt()
    try {
      for (let i = 0; i < validators.length; i++) {
        running = validators[i]
        try {
          this.#run(running)
        } catch (error) {
          for (let j = 0; j < builds.length && builds[j].seq < validators[i].seq; j++) this.#run(running = builds[j])
          running = validators[i]
          throw error
        }
      }
      for (let i = 0; i < builds.length; i++) this.#run(running = builds[i])
    } catch (error) {
      this.#failedOwner = running?.owner ?? -1
      throw error
    }
  }

  #run(queued: Queued): void {
    try {
      queued.run()
    } finally {
      if (queued.kind === 'other') this.clock.interrupt()
    }
  }

  /**
   * The first pass threw `error`: what the route-by-route order would have thrown. The queued
   * builds came before it in that order, so the first of them that fails wins over it.
   */
  failed(error: unknown): unknown {
    try {
      this.flush()
    } catch (earlier) {
      return earlier
    }
    this.#failedOwner = this.owner
    return error
  }
}
