import type { BoundHook } from '../shared/bound-hook'
import type { NormalizedRouteSchema } from '../schemas/types'
import type { ErrorHandlerEntry } from '../serve/error-reply'
import type { RouteDefinition } from '../declare/route-declaration'
import type { ScopeResolution } from './scope-resolution'

/**
 * What compile resolved for one route definition, as compile used it: the introspection model
 * (boot/introspection.ts) is built from these, so what it shows is what the server serves.
 */
export interface RouteRecord {
  readonly def: RouteDefinition
  readonly resolution: ScopeResolution
  readonly schema: NormalizedRouteSchema
  /** The hook lists the CompiledRoute got: the scope's resolved hooks, then the route's own options. */
  readonly hooks: Readonly<Record<string, readonly BoundHook[]>>
  readonly errorHandlers: readonly ErrorHandlerEntry[]
  /** Methods the framework added (HEAD for a GET route). */
  readonly implicitHead: string[]
}
