import { standardOf } from './standard-schema'
import { plainSchema } from './fluent-schema'
import { placeSchemaClasses } from './schema-class-placer'
import { describeValue, schemaError } from './schema-codes'
import { findAsync } from './schema-walk'
import type { CompilersFactory, JsonSchema, SchemaBucket, SchemaBucketFactory, SchemaControllerOptions, SharedSchema } from './types'

export type CompilerKind = 'validator' | 'serializer'
/** A scope-level builder (setSchemaController's compilersFactory member), bound to its factory. */
export type ScopeBuilder = NonNullable<CompilersFactory['buildValidator']> | NonNullable<CompilersFactory['buildSerializer']>

/** A compiler built for a store's visible set (SchemaCompilers builds them; the store keeps them). */
export interface CachedCompiler {
  /** `visibleCount()` when built: schemas are only added, so equal means same set. */
  readonly count: number
  readonly compiler: Function
  /** True once a route compiled with it: only then is it the scope's active compiler (scope.validatorCompiler). */
  used: boolean
}

export interface SchemaStoreOptions {
  /** The store of the parent scope; null for the root scope. */
  parent: SchemaStore | null
  /** Shown in error messages, e.g. `root > users`. */
  scopePath: string
}

/** Tree-wide, held by the root store: which stores declare each `$id` (siblings may each declare one). */
class SchemaRegistry {
  readonly declarations = new Map<string, SchemaStore[]>()
}

/**
 * The shared schemas of one scope (spec §2.2, §3.3.4), and what Fastify calls its schema controller.
 * A scope sees its own schemas and its ancestors', never its descendants'. A lifted plugin runs in
 * its parent's scope and so simply uses the parent's store.
 *
 * With a `schemaController.bucket` (server option or setSchemaController()), the user's bucket holds
 * the schemas instead: each scope below gets its own bucket from the same factory, seeded with its
 * parent's `getSchemas()`, as in Fastify 3.27.4. Enclave's own checks on shared schemas (duplicate
 * `$id`s across scopes, `$id` required, unknown keywords) are then the bucket's business.
 *
 * The store also keeps the compilers built for its visible set (keyed by the scope-level builder in
 * effect) and the builders setSchemaController() gave this scope.
 *
 * @example
 * const root = new SchemaStore({ parent: null, scopePath: 'root' })
 * const users = new SchemaStore({ parent: root, scopePath: 'root > users' })
 * root.add({ $id: 'user', type: 'object' })
 * users.get('user')            // found in the ancestor
 * root.visible()               // never contains what `users` adds
 */
export class SchemaStore {
  readonly parent: SchemaStore | null
  readonly scopePath: string
  readonly root: SchemaStore
  readonly #own = new Map<string, SharedSchema>()
  readonly #registry: SchemaRegistry
  /** The user's bucket holding this scope's schemas, or null for Enclave's own store (#own). */
  #bucket: SchemaBucket | null = null
  /** Inherited by the children created from now on. */
  #bucketFactory: SchemaBucketFactory | null = null
  /** setSchemaController()'s builders for this scope (null: the nearest ancestor's, else the server's). */
  #builders: Record<CompilerKind, ScopeBuilder | null> = { validator: null, serializer: null }
  readonly #compiled: Record<CompilerKind, Map<ScopeBuilder | null, CachedCompiler>> = { validator: new Map(), serializer: new Map() }

  constructor(options: SchemaStoreOptions) {
    this.parent = options.parent
    this.scopePath = options.scopePath
    this.root = options.parent === null ? this : options.parent.root
    this.#registry = options.parent === null ? new SchemaRegistry() : options.parent.#registry
    const parent = options.parent
    if (parent !== null && parent.#bucketFactory !== null) this.useBucket(parent.#bucketFactory, parent.getSchemas())
  }

  /**
   * Applies a schemaController (already checked: schema-controller-options.ts). A `bucket` replaces
   * this scope's store with a bucket seeded with `initial` (Fastify: nothing at the root, else the
   * schemas visible so far); `compilersFactory` members replace this scope's builders one by one.
   */
  useController(options: SchemaControllerOptions, initial: unknown): void {
    if (options.bucket !== undefined) this.useBucket(options.bucket, initial)
    const factory = options.compilersFactory
    if (factory === undefined) return
    if (factory.buildValidator !== undefined) this.#builders.validator = factory.buildValidator.bind(factory)
    if (factory.buildSerializer !== undefined) this.#builders.serializer = factory.buildSerializer.bind(factory)
  }

  useBucket(factory: SchemaBucketFactory, initial: unknown): void {
    let bucket: unknown
    try {
      bucket = factory(initial)
    } catch (error) {
      // Called from createServer(), register() or setSchemaController(): the user's factory failing is a declaration mistake, so coded.
      throw schemaError('ENC_ERR_SCH_CONTROLLER_INVALID', { case: 'bucket', scopePath: this.scopePath, problem: `factory threw: ${error instanceof Error ? error.message : String(error)}` }, { cause: error })
    }
    if (typeof bucket !== 'object' || bucket === null) {
      throw schemaError('ENC_ERR_SCH_CONTROLLER_INVALID', { case: 'bucket', scopePath: this.scopePath, problem: `factory returned ${describeValue(bucket)}: it must return an object { add, getSchema, getSchemas }` })
    }
    this.#bucket = bucket as SchemaBucket
    this.#bucketFactory = factory
  }

  /** True when the user's bucket holds this scope's schemas. */
  usesBucket(): boolean {
    return this.#bucket !== null
  }

  /** The builder setSchemaController() put in effect here or in the nearest ancestor; null: the server's. */
  builderFor(kind: CompilerKind): ScopeBuilder | null {
    for (let store: SchemaStore | null = this; store !== null; store = store.parent) {
      const builder = store.#builders[kind]
      if (builder !== null) return builder
    }
    return null
  }

  cachedCompiler(kind: CompilerKind, builder: ScopeBuilder | null): CachedCompiler | undefined {
    return this.#compiled[kind].get(builder)
  }

  cacheCompiler(kind: CompilerKind, builder: ScopeBuilder | null, entry: CachedCompiler): void {
    this.#compiled[kind].set(builder, entry)
  }

  /**
   * The compiler a route of this scope got from the builders (scope.validatorCompiler after boot),
   * or undefined when no route here needed one: Fastify builds them only for routes that need them.
   */
  activeCompiler(kind: CompilerKind): Function | undefined {
    const defining = this.definingStore()
    const cached = defining.cachedCompiler(kind, this.builderFor(kind))
    return cached !== undefined && cached.used && cached.count === defining.visibleCount() ? cached.compiler : undefined
  }

  /** Adds a shared schema to this scope. Throws a coded error for anything a route could not use. */
  add(input: unknown): void {
    const given = plainSchema(input)
    if (this.#bucket !== null) {
      const bucket = this.#bucket
      if (typeof bucket.add !== 'function') throw schemaError('ENC_ERR_SCH_CONTROLLER_INVALID', { case: 'bucket', scopePath: this.scopePath, problem: 'has no add(schema) method, so addSchema() cannot store the schema' })
      bucket.add(given)
      return
    }
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw schemaError('ENC_ERR_SCH_NOT_OBJECT', { case: 'shared', scopePath: this.scopePath, got: describeValue(given) })
    }
    // A zod (Standard Schema) object: without an $id it read as a missing $id, with one it was kept
    // and its own keys (`def`, `type`) read as JSON Schema. Named here, with the two fixes.
    const vendor = standardOf(given)?.vendor
    if (vendor !== undefined) throw schemaError('ENC_ERR_SCH_FOREIGN_SCHEMA', { where: `addSchema() in scope ${this.scopePath}`, vendor, pointer: '/', shared: true })
    // `addSchema(Pet.schema)` with `owner: Owner` in it: the nested class placed as a route's is.
    const schema = placeSchemaClasses(given as JsonSchema)
    const id = (schema as Record<string, unknown>).$id
    if (typeof id !== 'string' || id === '') {
      throw schemaError('ENC_ERR_SCH_MISSING_ID', { scopePath: this.scopePath, got: describeValue(id) })
    }
    // The very same schema object again (a lifted shared module and a child both list one class,
    // NestJS's habit): already visible here when an ancestor has it, nothing to add. Twice in one
    // scope stays refused, as Fastify refuses it.
    if (this.declarations(id).some((store) => store.isAncestorOf(this) && store.#own.get(id) === schema)) return
    this.#refuseDuplicate(id, schema)
    const asyncAt = findAsync(schema)
    if (asyncAt !== null) {
      throw schemaError('ENC_ERR_SCH_ASYNC', { case: 'shared', scopePath: this.scopePath, id, at: asyncAt })
    }
    this.#own.set(id, schema as SharedSchema)
    const stores = this.#registry.declarations.get(id)
    if (stores === undefined) this.#registry.declarations.set(id, [this])
    else stores.push(this)
  }

  /** The schema with this `$id` in this scope or the nearest ancestor that has it. */
  get(id: string): SharedSchema | undefined {
    if (this.#bucket !== null) {
      const bucket = this.#bucket
      return (typeof bucket.getSchema === 'function' ? bucket.getSchema(id) : this.visible()[id]) as SharedSchema | undefined
    }
    const owner = this.getOwner(id)
    return owner === null ? undefined : owner.#own.get(id)
  }

  has(id: string): boolean {
    return this.getOwner(id) !== null
  }

  /** The store (this one or an ancestor) whose scope declared `id`, or null when not visible here. */
  getOwner(id: string): SchemaStore | null {
    if (this.#bucket !== null) return this.get(id) === undefined ? null : this
    for (let store: SchemaStore | null = this; store !== null; store = store.parent) {
      if (store.#own.has(id)) return store
    }
    return null
  }

  /** The schemas added in this very scope, keyed by `$id`. */
  own(): Record<string, SharedSchema> {
    return Object.fromEntries(this.#own)
  }

  hasOwnSchemas(): boolean {
    return this.#own.size > 0
  }

  /** scope.getSchemas(): visible() for Enclave's store; with a bucket, what its getSchemas() returns, as it is (a Map stays a Map). */
  getSchemas(): unknown {
    if (this.#bucket === null) return this.visible()
    return typeof this.#bucket.getSchemas === 'function' ? this.#bucket.getSchemas() : {}
  }

  /**
   * What the compilers are built with: own and ancestors' schemas, keyed by `$id`, root's first.
   * Never descendants'. With a bucket: its getSchemas(), a Map turned into an object.
   */
  visible(): Record<string, SharedSchema> {
    if (this.#bucket !== null) return asSchemaRecord(this.getSchemas())
    const chain: SchemaStore[] = []
    for (let store: SchemaStore | null = this; store !== null; store = store.parent) chain.unshift(store)
    const result: Record<string, SharedSchema> = {}
    for (const store of chain) for (const [id, schema] of store.#own) result[id] = schema
    return result
  }

  /**
   * The nearest store in the chain that has schemas of its own (or the root): every store between
   * here and there sees exactly the same set, so compilers are built and cached per defining store.
   */
  definingStore(): SchemaStore {
    let store: SchemaStore = this
    // A bucket is the user's: its contents cannot be compared with the parent's, so each is its own set.
    while (store.#own.size === 0 && store.#bucket === null && store.parent !== null) store = store.parent
    return store
  }

  /** Every store in the whole tree that declares `id` (for "it is declared in ..." hints). */
  declarations(id: string): readonly SchemaStore[] {
    return this.#registry.declarations.get(id) ?? []
  }

  /**
   * The number of visible schemas. Schemas are only ever added, so an unchanged count means an
   * unchanged visible set: compilers cached for this set are still good.
   */
  visibleCount(): number {
    let count = 0
    for (let store: SchemaStore | null = this; store !== null; store = store.parent) count += store.#own.size
    return count
  }

  /** True when `other` is a strict descendant of this store. */
  isAncestorOf(other: SchemaStore): boolean {
    for (let store = other.parent; store !== null; store = store.parent) {
      if (store === this) return true
    }
    return false
  }

  #refuseDuplicate(id: string, schema: object): void {
    for (const store of this.declarations(id)) {
      // A descendant that declared this very object sees one schema either way.
      const same = store.#own.get(id) === schema
      if (same && store !== this) continue
      if (store === this || store.isAncestorOf(this)) {
        throw schemaError('ENC_ERR_SCH_DUPLICATE_ID', { scopePath: this.scopePath, id, in: store === this ? 'this' : 'ancestor', other: store.scopePath, same })
      }
      if (this.isAncestorOf(store)) {
        throw schemaError('ENC_ERR_SCH_DUPLICATE_ID', { scopePath: this.scopePath, id, in: 'descendant', other: store.scopePath, same })
      }
    }
  }
}

/** A bucket's getSchemas() as the builders take it: an object keyed by `$id` (a Map is converted; anything else is empty). */
function asSchemaRecord(value: unknown): Record<string, SharedSchema> {
  if (value instanceof Map) return Object.fromEntries(value) as Record<string, SharedSchema>
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, SharedSchema>
  return {}
}
