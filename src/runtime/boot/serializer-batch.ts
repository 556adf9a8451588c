/**
 * Eager boot compiles every route's validators first, then every route's serializers, in
 * declaration order both times. ajv 6 and fast-json-stringify 7 (which runs ajv 8 inside) taking
 * turns route by route cost ~60 ms more per 1,000 distinct-schema routes than each running through
 * all routes at once (session 12, boot12; measured again by boot13, see its commits).
 *
 * The report stays the one the route-by-route order gives: a build queued here was reached, in
 * that order, before whatever failed later in the first pass, so when the first pass fails the
 * queued builds run first and the earliest failure among them is the one reported. The routes'
 * boot warnings are queued in between, so a boot that fails logs the warnings it logged before.
 */
export class SerializerBatch {
  readonly #builds: Array<() => void> = []

  /** A route's response serializers, or its boot warnings, to build or log once the first pass is over. */
  add(build: () => void): void {
    this.#builds.push(build)
  }

  /** Runs every queued build in declaration order; the first failure is thrown as it is. */
  flush(): void {
    const builds = this.#builds.splice(0)
    for (let i = 0; i < builds.length; i++) builds[i]()
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
    return error
  }
}
