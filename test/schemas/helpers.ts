import {
  SchemaCompilers, SchemaStore, compileRouteSchemas, defaultSchemaErrorFormatter, toValidationError,
} from '../../src/runtime/schemas'
import type {
  CompiledRouteSchemas, HttpPart, PartValidator, SchemaCompilersOptions, SerializerCompiler, ValidatorCompiler,
} from '../../src/runtime/schemas'

/** root, root > a, root > a > a1, root > b: enough for every visibility case. */
export function storeTree(): { root: SchemaStore; a: SchemaStore; a1: SchemaStore; b: SchemaStore } {
  const root = new SchemaStore({ parent: null, scopePath: 'root' })
  const a = new SchemaStore({ parent: root, scopePath: 'root > a' })
  const a1 = new SchemaStore({ parent: a, scopePath: 'root > a > a1' })
  const b = new SchemaStore({ parent: root, scopePath: 'root > b' })
  return { root, a, a1, b }
}

export interface CompileOptions {
  store?: SchemaStore
  compilers?: SchemaCompilers
  compilersOptions?: SchemaCompilersOptions
  method?: string
  url?: string
  validatorCompiler?: ValidatorCompiler | null
  serializerCompiler?: SerializerCompiler | null
}

/** Compiles a route schema the way the runtime does at boot. */
export function compile(schema: unknown, options: CompileOptions = {}): CompiledRouteSchemas {
  const store = options.store ?? new SchemaStore({ parent: null, scopePath: 'root' })
  return compileRouteSchemas({
    method: options.method ?? 'POST',
    url: options.url ?? '/test',
    scopePath: store.scopePath,
    schema,
    store,
    compilers: options.compilers ?? new SchemaCompilers(options.compilersOptions),
    validatorCompiler: options.validatorCompiler ?? null,
    serializerCompiler: options.serializerCompiler ?? null,
  })
}

/** Runs a part validator as the runtime does: returns the message of the validation error, or null when valid. */
export function messageOf(validator: PartValidator | null, part: HttpPart, data: unknown): string | null {
  if (validator === null) throw new Error(`no ${part} validator was compiled`)
  const outcome = validator(data)
  if (outcome === undefined || 'value' in outcome) return null
  return toValidationError(outcome, part, defaultSchemaErrorFormatter, null).message
}

/** Runs `fn` and returns what it threw (fails the test when it does not throw). */
export function thrown(fn: () => unknown): Error & { code?: string; cause?: unknown } {
  try {
    fn()
  } catch (error) {
    return error as Error & { code?: string }
  }
  throw new Error('expected the call to throw')
}
