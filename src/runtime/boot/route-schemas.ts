import { performance } from 'node:perf_hooks'
import { compileRouteSchemas, type CompiledRouteSchemas } from '../schemas'
import type { SerializerCompiler, ValidatorCompiler } from '../schemas/types'
import { LazyRouteSchemas, type LazyTrigger } from '../serve/lazy-route-schemas'
import type { RouteDefinition } from '../declare/route-declaration'
import type { BootContext } from './boot-context'
import type { ScopeResolution } from './scope-resolution'

/** A route's schemas at boot: compiled (eager), or a LazyRouteSchemas that builds them later. */
export interface RouteSchemas {
  readonly schemas: CompiledRouteSchemas | null
  readonly lazy: LazyRouteSchemas | null
}

const none: CompiledRouteSchemas = { params: null, body: null, querystring: null, headers: null, response: null }

/**
 * Compiles a route's schemas now, or (schemaCompilation 'lazy' in its scope) defers them to its
 * first request. A route without a `schema` has nothing to defer. Every compilation is timed for
 * app.bootProfile(); a deferred one that fails is logged once, with the route, because the
 * request that met it answers only a generic 500.
 */
export function routeSchemas(boot: BootContext, def: RouteDefinition, resolution: ScopeResolution): RouteSchemas {
  const { scope, options } = def
  if (options.schema === undefined || options.schema === null) return { schemas: none, lazy: null }
  const method = def.methods.join(',')
  const build = (when: 'boot' | LazyTrigger): CompiledRouteSchemas => {
    const start = performance.now()
    const code = { bytes: 0 }
    // The compilers are measured, not replaced: the defaults are still looked up only when a part needs one.
    const validator = options.validatorCompiler ?? resolution.validatorCompiler
    const serializer = options.serializerCompiler ?? resolution.serializerCompiler
    const schemas = compileRouteSchemas({
      method,
      url: def.url,
      scopePath: scope.path,
      schema: options.schema,
      store: scope.schemas,
      compilers: boot.schemaCompilers,
      validatorCompiler: measured(code, () => validator ?? boot.schemaCompilers.validatorFor(scope.schemas)) as ValidatorCompiler,
      serializerCompiler: measured(code, () => serializer ?? boot.schemaCompilers.serializerFor(scope.schemas)) as SerializerCompiler,
    })
    boot.profile.record({ method, url: def.url, scope: scope.path, ms: performance.now() - start, codeBytes: code.bytes, when })
    return schemas
  }
  boot.profile.declare(resolution.schemaCompilation)
  if (resolution.schemaCompilation === 'eager') return { schemas: build('boot'), lazy: null }
  const lazy = new LazyRouteSchemas((trigger) => {
    try {
      return build(trigger)
    } catch (error) {
      // compileAll hands the error to its caller; a request answers 500 without the details.
      if (trigger === 'first request') boot.serve.log.error({ err: error, route: `${method} ${def.url}`, scope: scope.path }, `the schemas of route ${method} ${def.url} do not compile`)
      throw error
    }
  })
  boot.lazyRoutes.push(lazy)
  return { schemas: null, lazy }
}

/**
 * A compiler that adds the length of each function it returns to `code.bytes`. ajv and
 * fast-json-stringify build their functions from generated source, so a function's text is the
 * code V8 has to parse and keep (a custom compiler's closure counts as its own text).
 */
function measured(code: { bytes: number }, compiler: () => (input: never) => unknown): (input: never) => unknown {
  let resolved: ((input: never) => unknown) | null = null
  return (input) => {
    resolved ??= compiler()
    const fn = resolved(input)
    if (typeof fn === 'function') code.bytes += Function.prototype.toString.call(fn).length
    return fn
  }
}

/**
 * `ready({ compileAll: true })`: compiles every route still waiting for its first request, and
 * throws the first coded error, the same one an eager boot throws. Routes compiled before (by a
 * request, or an earlier call) cost nothing; one that failed throws again.
 */
export function compileAllPending(boot: BootContext): void {
  for (const lazy of boot.lazyRoutes) lazy.compile('compileAll')
}
