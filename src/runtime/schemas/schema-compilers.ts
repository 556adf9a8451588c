import { buildDefaultSerializer, buildDefaultValidator } from './default-compilers'
import { describeValue, isSchemaError, schemaError } from './schema-codes'
import { checkKeywords, knownKeywordsOf } from './keyword-check'
import type { PartReuse } from './part-reuse'
import type { CompilerKind, SchemaStore } from './schema-store'
import type { SchemaCodeCache } from './code-cache/schema-code-cache'
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
  /** The `schemaCache` option's store: the default compilers take generated code from it (never a custom compiler). */
  codeCache?: SchemaCodeCache | null
}

type ValidatorBuilder = (schemas: Record<string, SharedSchema>, options: ValidatorOptions) => ValidatorCompiler
type SerializerBuilder = (schemas: Record<string, SharedSchema>, options: SerializerOptions) => SerializerCompiler

/**
 * The default validator and serializer compilers of one server, built once per distinct visible set
 * of shared schemas and builder. Scopes that add no schemas see exactly their nearest defining
 * ancestor's set and share its compilers; a scope that adds schemas gets its own. The builders are
 * the server's (`schemaController.compilersFactory`, else ajv 6 / fast-json-stringify 7) unless a
 * scope's setSchemaController() gave its own (SchemaStore.builderFor). The compilers are kept in the
 * defining store, so that a scope can name its active one (scope.validatorCompiler).
 *
 * @example
 * const compilers = new SchemaCompilers({ validator: { customOptions: { allErrors: true } } })
 * const validate = compilers.validatorFor(scope.schemas)({ schema, method: 'POST', url: '/u', httpPart: 'body' })
 */
export class SchemaCompilers {
  readonly #validatorOptions: ValidatorOptions
  readonly #buildValidator: ValidatorBuilder
  readonly #serializerOptions: SerializerOptions
  readonly #buildSerializer: SerializerBuilder
  /** validator.customKeywords: names accepted on top of the validator's; null when the check is off. */
  readonly #customKeywords: ReadonlySet<string> | null
  /** The schemaCache option's store, or null: only the built-in builders are handed it. */
  readonly codeCache: SchemaCodeCache | null

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
    this.codeCache = options.codeCache ?? null
  }

  /**
   * Refuses unknown keywords in a schema the default ajv 6 validator of `store` would compile
   * (keyword-check.ts). A compilersFactory's validator is left alone: ajv 8 is strict about
   * keywords itself, and other libraries' schemas are not JSON Schema.
   */
  /** validator.customOptions.allErrors: ajv then checks every keyword, so a maxLength failure no longer keeps a string from the pattern. */
  get validatorAllErrors(): boolean {
    return this.#validatorOptions.customOptions?.allErrors === true
  }

  checkKeywords(schema: unknown, store: SchemaStore, where: string, reuse?: PartReuse): void {
    if (this.#customKeywords === null) return
    // Only the built-in ajv 6 validator tells its keywords: another builder is not even run for the check.
    if (store.builderFor('validator') !== null || this.#buildValidator !== buildDefaultValidator) return
    let compiler: ValidatorCompiler
    // A set of shared schemas that does not compile fails the first route that needs it, with
    // its own code; the keyword check does not bring that forward to boot. Nor does the check make
    // the compiler the scope's active one: only a route does (scope.validatorCompiler).
    try { compiler = this.#compilerFor(store, 'validator', false) as ValidatorCompiler } catch { return }
    const known = knownKeywordsOf(compiler)
    if (known === null || reuse?.keywordsPassed(schema, known) === true) return
    checkKeywords(schema, known, this.#customKeywords, where)
    reuse?.notePassed(schema, known)
  }

  /** The validator compiler the builders give for the shared schemas visible from `store`. */
  validatorFor(store: SchemaStore): ValidatorCompiler {
    return this.#compilerFor(store, 'validator', true) as ValidatorCompiler
  }

  /**
   * True when `store`'s serializers come from fast-json-stringify (no compilersFactory builder,
   * no scope's setSchemaController() one): its compiler never declines a status, so a lazy
   * route may build each status's serializer when it is first sent (deferred-serializer.ts).
   */
  usesDefaultSerializer(store: SchemaStore): boolean {
    return store.builderFor('serializer') === null && this.#buildSerializer === buildDefaultSerializer
  }

  /** True when `store`'s validators come from the built-in ajv 6 (no compilersFactory builder, no scope's setSchemaController() one). */
  usesDefaultValidator(store: SchemaStore): boolean {
    return store.builderFor('validator') === null && this.#buildValidator === buildDefaultValidator
  }

  /** The serializer compiler the builders give for the shared schemas visible from `store`. */
  serializerFor(store: SchemaStore): SerializerCompiler {
    return this.#compilerFor(store, 'serializer', true) as SerializerCompiler
  }

  #compilerFor(store: SchemaStore, kind: CompilerKind, use: boolean): Function {
    const builder = store.builderFor(kind)
    const defining = store.definingStore()
    const count = defining.visibleCount()
    const cached = defining.cachedCompiler(kind, builder)
    if (cached !== undefined && cached.count === count) {
      if (use) cached.used = true
      return cached.compiler
    }
    const code = kind === 'validator' ? 'ENC_ERR_SCH_VALIDATION_BUILD' : 'ENC_ERR_SCH_SERIALIZATION_BUILD'
    let compiler: unknown
    try {
      const schemas = defining.visible()
      if (kind === 'validator') {
        const build = (builder ?? this.#buildValidator) as ValidatorBuilder
        compiler = build === buildDefaultValidator ? buildDefaultValidator(schemas, this.#validatorOptions, this.codeCache) : build(schemas, this.#validatorOptions)
      } else {
        const build = (builder ?? this.#buildSerializer) as SerializerBuilder
        compiler = build === buildDefaultSerializer ? buildDefaultSerializer(schemas, this.#serializerOptions, this.codeCache) : build(schemas, this.#serializerOptions)
      }
    } catch (error) {
      if (isSchemaError(error)) throw error
      throw schemaError(code, {
        case: 'shared', kind, scopePath: store.scopePath, ids: Object.keys(defining.visible()).join(', ') || 'none', reason: (error as Error)?.message ?? String(error),
      }, { cause: error })
    }
    if (typeof compiler !== 'function') {
      throw schemaError(code, { case: 'factory', kind, got: describeValue(compiler), scopePath: store.scopePath })
    }
    defining.cacheCompiler(kind, builder, { count, compiler, used: use })
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
