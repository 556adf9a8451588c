import { plainSchema } from './fluent-schema'
import { describeValue, schemaError } from './schema-codes'
import { findAsync } from './schema-walk'
import type { SharedSchema } from './types'

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
 * The shared schemas of one scope (spec §2.2, §3.3.4). A scope sees its own schemas and its
 * ancestors', never its descendants'. A lifted plugin runs in its parent's scope and so simply uses
 * the parent's store.
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

  constructor(options: SchemaStoreOptions) {
    this.parent = options.parent
    this.scopePath = options.scopePath
    this.root = options.parent === null ? this : options.parent.root
    this.#registry = options.parent === null ? new SchemaRegistry() : options.parent.#registry
  }

  /** Adds a shared schema to this scope. Throws a coded error for anything a route could not use. */
  add(input: unknown): void {
    const schema = plainSchema(input)
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw schemaError('ENC_ERR_SCH_NOT_OBJECT', { case: 'shared', scopePath: this.scopePath, got: describeValue(schema) })
    }
    const id = (schema as Record<string, unknown>).$id
    if (typeof id !== 'string' || id === '') {
      throw schemaError('ENC_ERR_SCH_MISSING_ID', { scopePath: this.scopePath, got: describeValue(id) })
    }
    this.#refuseDuplicate(id)
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
    const owner = this.getOwner(id)
    return owner === null ? undefined : owner.#own.get(id)
  }

  has(id: string): boolean {
    return this.getOwner(id) !== null
  }

  /** The store (this one or an ancestor) whose scope declared `id`, or null when not visible here. */
  getOwner(id: string): SchemaStore | null {
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

  /** `getSchemas()`: own and ancestors' schemas, keyed by `$id`, root's first. Never descendants'. */
  visible(): Record<string, SharedSchema> {
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
    while (store.#own.size === 0 && store.parent !== null) store = store.parent
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

  #refuseDuplicate(id: string): void {
    for (const store of this.declarations(id)) {
      if (store === this || store.isAncestorOf(this)) {
        throw schemaError('ENC_ERR_SCH_DUPLICATE_ID', { scopePath: this.scopePath, id, in: store === this ? 'this' : 'ancestor', other: store.scopePath })
      }
      if (this.isAncestorOf(store)) {
        throw schemaError('ENC_ERR_SCH_DUPLICATE_ID', { scopePath: this.scopePath, id, in: 'descendant', other: store.scopePath })
      }
    }
  }
}
