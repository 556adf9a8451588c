/**
 * Fastify 3's custom constraint strategies (`createServer({ constraints: { name: strategy } })`,
 * find-my-way's) and its deprecated `versioning: { storage, deriveVersion }` option, which Fastify
 * 3.27.4 turns into a `version` strategy of its own. Both end up as one map, name -> strategy, that
 * the serving router and the hasRoute()/findRoute() index hand to find-my-way.
 */

/** A store find-my-way keeps per route node: constraint value -> handler bitmap. */
export interface ConstraintStore {
  get(value: unknown): unknown
  set(value: unknown, store: unknown): void
}

/** find-my-way's custom constraint strategy (Fastify 3: synchronous deriveConstraint). */
export interface ConstraintStrategy {
  /** The constraint's key in routes' `constraints` option. */
  name: string
  storage(): ConstraintStore
  /** The request's value; undefined when it has none (routes constrained on it then do not match). */
  deriveConstraint(req: { headers: Record<string, string | string[] | undefined> }, ctx?: unknown): unknown
  /** Throws on a route's constraint value it cannot store (boot fails with the message). */
  validate(value: unknown): unknown
  /** A derived value then matches only routes constrained on it (404 on an unconstrained route), as for Accept-Version. */
  mustMatchWhenDerived?: boolean
}

/** Fastify 3's deprecated option: a `version` strategy from a store and a deriver. */
export interface VersioningOptions {
  storage(): ConstraintStore
  deriveVersion(req: { headers: Record<string, string | string[] | undefined> }, ctx?: unknown): unknown
}

/** As fastify.js 3.27.4 builds it: must match when derived, and a route's version must be a string. */
export function versioningStrategy(versioning: VersioningOptions): ConstraintStrategy {
  return {
    name: 'version',
    mustMatchWhenDerived: true,
    storage: versioning.storage,
    deriveConstraint: versioning.deriveVersion,
    validate(value) {
      if (typeof value !== 'string') throw new Error('Version constraint should be a string.')
    },
  }
}

/**
 * The custom strategies of a server, by name, or null when it has none (the router then keeps its
 * built-in version/host handling untouched). Options are checked before (option-checks.ts).
 */
export function customStrategiesOf(options: { constraints?: Readonly<Record<string, ConstraintStrategy>>; versioning?: VersioningOptions }): Readonly<Record<string, ConstraintStrategy>> | null {
  const { constraints, versioning } = options
  if (versioning === undefined && (constraints === undefined || Object.keys(constraints).length === 0)) return null
  const strategies: Record<string, ConstraintStrategy> = { ...constraints }
  if (versioning !== undefined) strategies.version = versioningStrategy(versioning)
  return strategies
}
