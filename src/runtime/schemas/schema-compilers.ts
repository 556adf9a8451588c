import { buildDefaultSerializer, buildDefaultValidator } from './default-compilers'
import { describeValue, isSchemaError, schemaError } from './schema-codes'
import { checkKeywords, knownKeywordsOf } from './keyword-check'
import type { SchemaStore } from './schema-store'
import type {
  CompilersFactory, SchemaControllerOptions, SerializerCompiler, SerializerOptions, SharedSchema, ValidatorCompiler, ValidatorOptions,
} from './types'

export interface SchemaCompilersOptions {
  /** The server factory's `validator` option: `customOptions` and `plugins` (spec §2.7). */
  validator?: ValidatorOptions
  /** `schemaController.compilersFactory` replaces the default builders (spec §9: ajv 8 plugs in here). */
  schemaController?: SchemaControllerOptions
  /** The server's `serializerOpts`, handed to the serializer builder (fast-json-stringify's options). */
  serializerOpts?: SerializerOptions
}

interface Cached<C> {
  /** `visibleCount()` of the defining store when built: schemas are only added, so equal means same set. */
  count: number
  compiler: C
}

/**
 * The default validator and serializer compilers of one server, built once per distinct visible set
 * of shared schemas. Scopes that add no schemas see exactly their nearest defining ancestor's set and
 * share its compilers; a scope that adds schemas gets its own.
 *
 * @example
 * const compilers = new SchemaCompilers({ validator: { customOptions: { allErrors: true } } })
 * const validate = compilers.validatorFor(scope.schemas)({ schema, method: 'POST', url: '/u', httpPart: 'body' })
 */
export class SchemaCompilers {
  readonly #validatorOptions: ValidatorOptions
  readonly #buildValidator: (schemas: Record<string, SharedSchema>, options: ValidatorOptions) => ValidatorCompiler
  readonly #serializerOptions: SerializerOptions
  readonly #buildSerializer: (schemas: Record<string, SharedSchema>, options: SerializerOptions) => SerializerCompiler
  readonly #validators = new WeakMap<SchemaStore, Cached<ValidatorCompiler>>()
  readonly #serializers = new WeakMap<SchemaStore, Cached<SerializerCompiler>>()
  /** validator.customKeywords: names accepted on top of the validator's; null when the check is off. */
  readonly #customKeywords: ReadonlySet<string> | null

  constructor(options: SchemaCompilersOptions = {}) {
    this.#validatorOptions = {
      customOptions: { ...options.validator?.customOptions },
      plugins: checkPlugins(options.validator?.plugins),
    }
    this.#serializerOptions = { ...options.serializerOpts }
    const factory: CompilersFactory = options.schemaController?.compilersFactory ?? {}
    const custom = options.validator?.customKeywords
    this.#customKeywords = custom === true ? null : new Set(custom ?? [])
    this.#buildValidator = factory.buildValidator?.bind(factory) ?? buildDefaultValidator
    this.#buildSerializer = factory.buildSerializer?.bind(factory) ?? buildDefaultSerializer
  }

  /**
   * Refuses unknown keywords in a schema the default ajv 6 validator of `store` would compile
   * (keyword-check.ts). A compilersFactory's validator is left alone: ajv 8 is strict about
   * keywords itself, and other libraries' schemas are not JSON Schema.
   */
  checkKeywords(schema: unknown, store: SchemaStore, where: string): void {
    if (this.#customKeywords === null) return
    let compiler: ValidatorCompiler
    // A set of shared schemas that does not compile fails the first route that needs it, with
    // its own code; the keyword check does not bring that forward to boot.
    try { compiler = this.validatorFor(store) } catch { return }
    const known = knownKeywordsOf(compiler)
    if (known !== null) checkKeywords(schema, known, this.#customKeywords, where)
  }

  /** The default validator compiler for the shared schemas visible from `store`. */
  validatorFor(store: SchemaStore): ValidatorCompiler {
    return this.#compilerFor(store, this.#validators, 'validator', (schemas) => this.#buildValidator(schemas, this.#validatorOptions))
  }

  /** The default serializer compiler for the shared schemas visible from `store`. */
  serializerFor(store: SchemaStore): SerializerCompiler {
    return this.#compilerFor(store, this.#serializers, 'serializer', (schemas) => this.#buildSerializer(schemas, this.#serializerOptions))
  }

  #compilerFor<C>(
    store: SchemaStore,
    cache: WeakMap<SchemaStore, Cached<C>>,
    kind: 'validator' | 'serializer',
    build: (schemas: Record<string, SharedSchema>) => C,
  ): C {
    const defining = store.definingStore()
    const count = defining.visibleCount()
    const cached = cache.get(defining)
    if (cached !== undefined && cached.count === count) return cached.compiler
    const code = kind === 'validator' ? 'ENC_ERR_SCH_VALIDATION_BUILD' : 'ENC_ERR_SCH_SERIALIZATION_BUILD'
    let compiler: C
    try {
      compiler = build(defining.visible())
    } catch (error) {
      if (isSchemaError(error)) throw error
      throw schemaError(code, {
        case: 'shared', kind, scopePath: store.scopePath, ids: Object.keys(defining.visible()).join(', ') || 'none', reason: (error as Error)?.message ?? String(error),
      }, { cause: error })
    }
    if (typeof compiler !== 'function') {
      throw schemaError(code, { case: 'factory', kind, got: describeValue(compiler), scopePath: store.scopePath })
    }
    cache.set(defining, { count, compiler })
    return compiler
  }
}

function checkPlugins(plugins: ValidatorOptions['plugins']): NonNullable<ValidatorOptions['plugins']> {
  if (plugins === undefined) return []
  if (!Array.isArray(plugins)) {
    throw schemaError('ENC_ERR_SCH_PLUGIN_INVALID', { got: describeValue(plugins) })
  }
  plugins.forEach((entry, index) => {
    const fn = Array.isArray(entry) ? entry[0] : entry
    if (typeof fn !== 'function') {
      throw schemaError('ENC_ERR_SCH_PLUGIN_INVALID', { got: describeValue(entry), index })
    }
  })
  return [...plugins]
}
