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

  /** `completeDeferred`: after a first request, builds what it left for later (serializers of statuses not sent yet). */
  constructor(build: (trigger: LazyTrigger) => CompiledRouteSchemas, completeDeferred: () => void = () => {}) {
    this.#build = build
    this.#completeDeferred = completeDeferred
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
}
