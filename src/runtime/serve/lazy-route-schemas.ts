import type { CompiledRouteSchemas } from '../schemas'

/** Why a route's schemas are being built: its first request, or `ready({ compileAll: true })`. */
export type LazyTrigger = 'first request' | 'compileAll'

/** What receives the built schemas: the route's CompiledRoute for each of its methods. */
export interface SchemaTarget { installSchemas(schemas: CompiledRouteSchemas): void }

/**
 * A route's schemas under `schemaCompilation: 'lazy'`, built on first use and only once. The
 * build is synchronous and JavaScript runs on one thread, so concurrent first requests cannot
 * race: the first one builds and installs, the ones after it find the route compiled. A failed
 * build is kept and rethrown to every later caller: the same schema would fail the same way on
 * a second try, and retrying would make every request to the route pay for it.
 */
export class LazyRouteSchemas {
  readonly #targets: SchemaTarget[] = []
  #build: ((trigger: LazyTrigger) => CompiledRouteSchemas) | null
  #failure: { error: unknown } | null = null
  readonly #completeDeferred: () => void
  readonly #rewind: () => void

  /**
   * `completeDeferred`: after a first request, builds what it left for later (serializers of statuses not sent yet).
   * `rewind`: undoes what a batched build did that the route's later build must do again (compileBatched).
   */
  constructor(build: (trigger: LazyTrigger) => CompiledRouteSchemas, completeDeferred: () => void = () => {}, rewind: () => void = () => {}) {
    this.#build = build
    this.#completeDeferred = completeDeferred
    this.#rewind = rewind
  }

  /** Adds a route (one per method) that shares these schemas. */
  addTarget(target: SchemaTarget): void {
    this.#targets.push(target)
  }

  /**
   * Builds and installs into every target, once; throws the coded build error every time it
   * failed. compileAll also builds what a first request deferred, and throws its coded error.
   */
  compile(trigger: LazyTrigger): void {
    const build = this.#build
    if (build !== null) {
      this.#build = null
      let schemas: CompiledRouteSchemas
      try {
        schemas = build(trigger)
      } catch (error) {
        this.#failure = { error }
        throw error
      }
      for (const target of this.#targets) target.installSchemas(schemas)
      return
    }
    if (this.#failure !== null) throw this.#failure.error
    if (trigger === 'compileAll') this.#completeDeferred()
  }

  /**
   * compileAll's batched order (compileAllBatched in boot/route-schemas.ts): builds now, with part of the work queued
   * (`queue` takes what a compiled route still owes), and installs nothing yet: settle() does,
   * once the batch has said whether this route comes before, at or after the reported failure.
   * Null: the route was built before (its deferred serializers are queued).
   */
  compileBatched(queue: (run: () => void) => void): CompiledRouteSchemas | null {
    const build = this.#build
    if (build === null) {
      if (this.#failure !== null) throw this.#failure.error
      queue(() => this.#completeDeferred())
      return null
    }
    return build('compileAll')
  }

  /**
   * What compileBatched left open: `installed` (its queued work all ran) installs the schemas;
   * `failed` keeps the error, as compile() does; `untouched` (after the reported failure, which
   * the route-by-route order would not have passed) leaves the route waiting for its first request.
   */
  settle(outcome: { installed: CompiledRouteSchemas | null } | { failed: unknown } | 'untouched'): void {
    if (this.#build === null) return
    if (outcome === 'untouched') { this.#rewind(); return }
    this.#build = null
    if ('failed' in outcome) { this.#failure = { error: outcome.failed }; return }
    if (outcome.installed !== null) for (const target of this.#targets) target.installSchemas(outcome.installed)
  }
}
