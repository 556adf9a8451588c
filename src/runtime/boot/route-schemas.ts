import { performance } from 'node:perf_hooks'
import { compileRouteSchemas, normalizeRouteSchema, type CompiledRouteSchemas } from '../schemas'
import type { NormalizedRouteSchema, SerializerCompiler, ValidatorCompiler } from '../schemas/types'
import type { DeferredResponses } from '../schemas/deferred-serializer'
import { LazyRouteSchemas, type LazyTrigger } from '../serve/lazy-route-schemas'
import type { RouteDefinition } from '../declare/route-declaration'
import type { BootContext } from './boot-context'
import type { ScopeResolution } from './scope-resolution'
import { reportInBootOrder } from './boot-warnings'
import { routeSchemaWarnings } from './schema-warnings'
import { SerializerBatch } from './serializer-batch'
import { builtForUseAtOnce } from '../schemas/used-at-once'
import { cpuNowMs } from '../schemas/cpu-clock'

/** A route's schemas at boot: compiled (eager), or a LazyRouteSchemas that builds them later. */
export interface RouteSchemas {
  readonly schemas: CompiledRouteSchemas | null
  readonly lazy: LazyRouteSchemas | null
  /**
   * The normalized schema, for introspection. Eager: normalized at boot. Lazy: normalized when first
   * asked (introspection, or the route's compilation), so that listen() does not copy every schema.
   */
  readonly normalized: () => NormalizedRouteSchema
}

const none: CompiledRouteSchemas = { params: null, body: null, jsonBody: null, querystring: null, headers: null, response: null }
const noSchema: NormalizedRouteSchema = { params: null, body: null, querystring: null, headers: null, response: null }

/**
 * Compiles a route's schemas now, or (schemaCompilation 'lazy' in its scope) defers them to its
 * first request. A route without a `schema` has nothing to defer. Every compilation is timed for
 * app.bootProfile(); a deferred one that fails is logged once, with the route, because the
 * request that met it answers only a generic 500.
 */
export function routeSchemas(boot: BootContext, def: RouteDefinition, resolution: ScopeResolution): RouteSchemas {
  const { scope, options } = def
  if (options.schema === undefined || options.schema === null) return { schemas: none, lazy: null, normalized: () => noSchema }
  const method = def.methods.join(',')
  const eager = resolution.schemaCompilation === 'eager'
  // Eager boot shares the copy of a part object several routes give (part-reuse.ts), with the
  // default compilers only: a custom compiler is user code, and may change the schema it is given.
  const defaultValidator = (options.validatorCompiler ?? resolution.validatorCompiler ?? null) === null
  const reuse = eager && defaultValidator &&
    (options.serializerCompiler ?? resolution.serializerCompiler ?? null) === null &&
    boot.schemaCompilers.usesDefaultValidator(scope.schemas) && boot.schemaCompilers.usesDefaultSerializer(scope.schemas) ? boot.partReuse : undefined
  // Normalized once (eager: here; lazy: when first needed) and reused by compilation and introspection.
  // Normalizing copies the schema: for 1,000 routes that was about 7 MB of a lazy boot's 11 MB, which
  // pushed V8 into a full GC before listen() (boot10). A lazy route whose schema does not normalize
  // is shown without one, and its compilation (first request or compileAll) normalizes again to throw.
  let normalized: NormalizedRouteSchema | undefined
  let normalizing: 'pending' | 'done' = 'pending'
  // Normalized by compileAll's batched pass, whose queued warnings may never be logged (rewind).
  let normalizedInBatch = false
  const normalize = (): NormalizedRouteSchema | undefined => {
    if (normalizing === 'pending') {
      normalizing = 'done'
      normalizedInBatch = !eager && boot.serializerBatch !== null
      try {
        normalized = normalizeRouteSchema(options.schema, { method, url: def.url, scopePath: scope.path }, boot.jsonShorthand, reuse)
      } catch (error) {
        if (eager) throw error
      }
      // Boot warnings read the normalized schema, so a lazy route warns when it is first read (its
      // first request, compileAll, inspect()), not at listen: reading every lazy schema at boot is the
      // cost lazy mode removes. Custom validator compilers have their own costs, which Enclave cannot know.
      if (normalized !== undefined && defaultValidator) {
        const warnings = routeSchemaWarnings(`${method} ${def.url}`, scope.path, normalized, scope.schemas, scope.context.schemaCompilers?.validatorAllErrors === true, boot.sharedSchemaWalks, reuse)
        reportInBootOrder(warnings, boot)
      }
    }
    return normalized
  }
  if (eager) normalize()
  // A first request builds the response serializers one status at a time, as they are sent (default
  // serializer compiler only: another may decline a status, which changes which key answers it).
  let deferred: DeferredResponses | undefined
  const build = (when: 'boot' | LazyTrigger): CompiledRouteSchemas => {
    const start = performance.now()
    const startCpu = cpuNowMs()
    const functions: Function[] = []
    // The compilers are measured, not replaced: the defaults are still looked up only when a part needs one.
    const validator = options.validatorCompiler ?? resolution.validatorCompiler
    const serializer = options.serializerCompiler ?? resolution.serializerCompiler
    const cost = { method, url: def.url, scope: scope.path, ms: 0, cpuMs: 0, functions, when }
    const defaultSerializer = (serializer === null || serializer === undefined) && boot.schemaCompilers.usesDefaultSerializer(scope.schemas)
    const defer = when === 'first request' && defaultSerializer
    // Batched with fast-json-stringify only: a custom compiler is user code, called in route order.
    const batch = when !== 'first request' && defaultSerializer ? boot.serializerBatch : null
    // Likewise the validators, with the built-in ajv 6 only, and only when the serializers are
    // batched too: a custom serializer compiler still sees each route's validators compiled first.
    const validatorBatch = batch !== null && (validator === null || validator === undefined) && boot.schemaCompilers.usesDefaultValidator(scope.schemas)
      ? batch : null
    // A queued build adds its own time to this route's record when it runs, timed by the batch's
    // clock: back to back, one reading ends a build and starts the next (lap-clock.ts).
    const timed = (queue: SerializerBatch, finish: () => void) => (): void => { queue.clock.lap(finish, cost) }
    deferred = defer ? {
      compiled: (ms, cpuMs) => { cost.ms += ms; cost.cpuMs += cpuMs },
      failed: (error) => logFailure(error),
      forcers: [],
    } : undefined
    // A first request runs the validators it builds at once: compiled in one parse (used-at-once.ts).
    const compileNow = when === 'first request' ? builtForUseAtOnce : (compile: () => CompiledRouteSchemas) => compile()
    const schemas = compileNow(() => compileRouteSchemas({
      method,
      url: def.url,
      scopePath: scope.path,
      schema: options.schema,
      normalized: normalize(),
      shorthand: boot.jsonShorthand,
      store: scope.schemas,
      compilers: boot.schemaCompilers,
      validatorCompiler: measured(functions, () => validator ?? boot.schemaCompilers.validatorFor(scope.schemas)) as ValidatorCompiler,
      serializerCompiler: measured(functions, () => serializer ?? boot.schemaCompilers.serializerFor(scope.schemas)) as SerializerCompiler,
      // The unknown-keyword check applies to the default compilers only (not to a custom one).
      checkValidatorKeywords: validator === null || validator === undefined,
      checkSerializerKeywords: serializer === null || serializer === undefined,
      deferResponses: deferred,
      reuse,
      batchResponses: batch === null ? undefined : (finish) => { batch.add(timed(batch, finish), 'lap') },
      batchValidators: validatorBatch === null ? undefined : (finish) => { validatorBatch.addValidator(timed(validatorBatch, finish), 'lap') },
    }))
    // The deferred serializers add their own time to this record when they are built.
    cost.ms += performance.now() - start
    cost.cpuMs += cpuNowMs() - startCpu
    // Recorded in its place among the queued builds: compileAll may leave this route uncompiled (compileAllBatched).
    if (boot.serializerBatch === null) boot.profile.record(cost)
    else boot.serializerBatch.add(() => boot.profile.record(cost), 'note')
    return schemas
  }
  const logFailure = (error: unknown): void => {
    boot.serve.log.error({ err: error, route: `${method} ${def.url}`, scope: scope.path }, `the schemas of route ${method} ${def.url} do not compile`)
  }
  boot.profile.declare(resolution.schemaCompilation)
  if (eager) {
    const schemas = build('boot')
    return { schemas, lazy: null, normalized: () => normalized! }
  }
  const lazy = new LazyRouteSchemas((trigger) => {
    try {
      return build(trigger)
    } catch (error) {
      // compileAll hands the error to its caller; a request answers 500 without the details.
      if (trigger === 'first request') logFailure(error)
      throw error
    }
  }, () => {
    // compileAll after a first request: the statuses not sent yet.
    for (const force of deferred?.forcers ?? []) force()
  }, () => {
    // compileAll stopped at an earlier route: this one normalizes (and warns) again when it compiles.
    if (normalizedInBatch) { normalizing = 'pending'; normalized = undefined; normalizedInBatch = false }
  })
  boot.lazyRoutes.push(lazy)
  return { schemas: null, lazy, normalized: () => normalize() ?? noSchema }
}

/**
 * A compiler that notes each function it returns, for app.bootProfile()'s code size (ajv and
 * fast-json-stringify build their functions from generated source, so a function's text is the
 * code V8 has to parse and keep; a custom compiler's closure counts as its own text).
 */
function measured(functions: Function[], compiler: () => (input: never) => unknown): (input: never) => unknown {
  let resolved: ((input: never) => unknown) | null = null
  return (input) => {
    resolved ??= compiler()
    const fn = resolved(input)
    if (typeof fn === 'function') functions.push(fn)
    return fn
  }
}

/**
 * `ready({ compileAll: true })`: compiles every route still waiting for its first request, and
 * throws the first coded error, the same one an eager boot throws. Routes compiled before (by a
 * request, or an earlier call) cost nothing; one that failed throws again.
 */
export function compileAllPending(boot: BootContext): void {
  const { codeCache } = boot.schemaCompilers
  if (codeCache !== null && codeCache !== undefined) {
    for (const lazy of boot.lazyRoutes) lazy.compile('compileAll')
    return
  }
  compileAllBatched(boot)
}

/**
 * compileAll in eager boot's order (serializer-batch.ts): every pending route's own work, then
 * every validator, then every serializer. What it leaves is what the route-by-route order left:
 * the routes before the reported failure compiled, that route failed (its later requests answer
 * the same error), the routes after it untouched, waiting for their first request.
 */
function compileAllBatched(boot: BootContext): void {
  const routes = boot.lazyRoutes
  const batch = new SerializerBatch()
  const built: Array<CompiledRouteSchemas | null> = []
  let failure: { error: unknown } | null = null
  boot.serializerBatch = batch
  try {
    for (let i = 0; i < routes.length; i++) {
      batch.owner = i
      built.push(routes[i].compileBatched((run) => batch.add(run)))
    }
  } catch (error) {
    failure = { error: batch.failed(error) }
  } finally {
    boot.serializerBatch = null
  }
  if (failure === null) {
    try {
      batch.flush()
    } catch (error) {
      failure = { error }
    }
  }
  // A route that threw in the first pass is routes[built.length] (a failure in flush() leaves every
  // route built, and the bound below stops there); the reported failure is at or before it.
  const reached = failure === null ? built.length : built.length + 1
  const failedAt = failure === null ? reached : batch.failedOwner
  for (let i = 0; i < reached && i < routes.length; i++) {
    if (i < failedAt) routes[i].settle({ installed: built[i] })
    else if (i === failedAt) routes[i].settle({ failed: (failure as { error: unknown }).error })
    else routes[i].settle('untouched')
  }
  if (failure !== null) throw failure.error
}
