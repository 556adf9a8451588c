/*
 * What lift() leaves on its wrapper, readable by every layer (boot reads the target, plugin-meta
 * the metadata) without importing the declaring side.
 */

import type { ProvidesMeta } from './provided'

export const kLifted = Symbol('enclave.lifted')
export const kLiftMeta = Symbol('enclave.liftMeta')

/** What `lift(plugin, meta)` records: fastify-plugin's `plugin-meta`, less the `fastify` range (an Enclave plugin targets Enclave). */
export interface LiftMeta<M extends ProvidesMeta = ProvidesMeta> {
  /** The name `hasPlugin()` and other plugins' `dependencies` know it by. */
  readonly name?: string
  /**
   * Plugins (by name) that must be registered in the scope or an ancestor before this one. lift()
   * also takes a typed lifted plugin itself here (LiftDependency), recorded by its name.
   */
  readonly dependencies?: readonly string[]
  /** Decorators that must be visible where it is registered. */
  readonly decorators?: {
    readonly fastify?: readonly (string | symbol)[]
    readonly request?: readonly (string | symbol)[]
    readonly reply?: readonly (string | symbol)[]
  }
  /**
   * The request, reply and scope decorations the plugin promises to make (`{ request: { workspace:
   * type<Workspace>() }, scope: { db: type<Db>() } }`): typed on the scope `register()` returns,
   * checked once it has loaded.
   */
  readonly provides?: M
}

type Marked = Record<symbol, unknown>

export function isLifted(value: unknown): boolean {
  return typeof value === 'function' && (value as unknown as Marked)[kLifted] !== undefined
}

/** The function or class that `lift()` wrapped, or `value` itself when it is not lifted. */
export function liftedTarget<T>(value: T): T {
  return isLifted(value) ? (value as unknown as Marked)[kLifted] as T : value
}

/** The metadata given to `lift(plugin, meta)`, null for any other value. */
export function liftMetaOf(value: unknown): LiftMeta | null {
  return typeof value === 'function' ? (value as unknown as Marked)[kLiftMeta] as LiftMeta | undefined ?? null : null
}
