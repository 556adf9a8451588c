import type { DeclareContext } from '../declare/declare-context'
import type { ScopeImpl } from '../declare/scope'
import type { ServeContext } from '../serve/serve-context'
import type { SchemaCompilers } from '../schemas'
import type { SchemaErrorFormatter } from '../schemas/types'
import type { ScopeResolution } from './scope-resolution'
import type { RouteRecord } from './route-record'
import type { SchemaCompilation } from '../shared/schema-compilation'
import type { LazyRouteSchemas } from '../serve/lazy-route-schemas'
import type { CompileProfile } from './compile-profile'
import type { SerializerBatch } from './serializer-batch'
import type { SharedSchemaWalks } from './schema-warnings'
import type { PartReuse } from '../schemas/part-reuse'

/**
 * What boot reads and writes: the declarations (in), the serve context it fills (out: router,
 * fallback routes), and the boot-only state (schema compilers, each scope's resolution).
 */
export interface BootContext {
  readonly declared: DeclareContext
  readonly rootScope: ScopeImpl
  readonly serve: ServeContext
  readonly schemaCompilers: SchemaCompilers
  /** The server option, used by the root when no scope sets its own. */
  readonly schemaErrorFormatter: SchemaErrorFormatter | undefined
  readonly pluginTimeout: number
  /** Router options: Fastify's defaults are false (trailing slash) and, here, true (HEAD). */
  readonly routing: { readonly ignoreTrailingSlash: boolean; readonly exposeHeadRoutes: boolean }
  /** The server option, used by the root when no scope sets its own. */
  readonly schemaCompilation: SchemaCompilation
  /** createServer({ jsonShorthand }): false (Fastify 3's meaning) reads every route schema part as a complete schema. */
  readonly jsonShorthand: boolean
  /** What compiling each route cost (app.bootProfile()). */
  readonly profile: CompileProfile
  /** The boot warnings' walks of shared schemas, one per schema however many routes reach it (schema-warnings.ts). */
  readonly sharedSchemaWalks: SharedSchemaWalks
  /** Eager boot's copies of route schema parts given by several routes, shared (part-reuse.ts); released once every route is compiled. */
  readonly partReuse: PartReuse
  /** Every route whose schemas wait for a first request (ready({ compileAll: true })). */
  readonly lazyRoutes: LazyRouteSchemas[]
  /** While eager boot's first pass runs: where routes queue their serializers (serializer-batch.ts); else null. */
  serializerBatch: SerializerBatch | null
  /** Each scope's resolved view (scope-resolution.ts), made once, ancestors first. */
  readonly resolutions: Map<ScopeImpl, ScopeResolution>
  /** What compile resolved for each route, kept for introspection (boot/introspection.ts); never read when serving. */
  readonly routeRecords: RouteRecord[]
  /** A plugin's failure not handled yet by an after() step: the plugins after it are skipped (avvio). */
  failure: { readonly error: unknown } | null
  /** Set once every route is compiled: introspection is available from then on (onReady hooks included). */
  compiled: boolean
}
