import type { JsonSchema } from './types'
import type { KnownKeywords } from './keyword-check'

/**
 * One eager boot's memory of route schema parts by the user's object: many routes often give the
 * very same object (`const user = {...}` as the body of five routes, a response schema every
 * route of a resource returns). Its normalized copy depends on that object alone while the boot
 * runs (nothing user-written runs between two routes' compilation), so it is made once and the
 * routes share it; so are what depends on the copy alone: the keyword check's verdict and the
 * boot warnings' walk. Only a pass is remembered, never an error: a route whose part fails throws
 * its own coded error, naming it, as if nothing had been shared.
 *
 * The user's object is still never mutated: the routes share Enclave's copy of it, which nothing
 * mutates after normalization. Header parts are not shared (normalization rewrites their names in
 * the copy), nor parts holding functions (schema classes, keyword functions).
 */
export class PartReuse {
  #copies: Map<object, JsonSchema> | null = new Map()
  // Copies handed to a second route: only those pay for the memos below (a WeakMap entry each).
  readonly #reused = new WeakSet<object>()
  readonly #passed = new WeakMap<object, KnownKeywords[]>()

  /** The copy an earlier route made of `part`, or undefined. */
  copyOf(part: object): JsonSchema | undefined {
    const copy = this.#copies?.get(part)
    if (copy !== undefined) this.#reused.add(copy)
    return copy
  }

  remember(part: object, copy: JsonSchema): void {
    this.#copies?.set(part, copy)
  }

  /** True when `copy` serves more than one route: a walk over it is worth remembering. */
  isReused(copy: unknown): boolean {
    return typeof copy === 'object' && copy !== null && this.#reused.has(copy)
  }

  /** True when `copy` passed the keyword check against `known` for an earlier route. */
  keywordsPassed(copy: unknown, known: KnownKeywords): boolean {
    return typeof copy === 'object' && copy !== null && (this.#passed.get(copy)?.includes(known) ?? false)
  }

  notePassed(copy: unknown, known: KnownKeywords): void {
    if (!this.isReused(copy)) return
    const list = this.#passed.get(copy as object)
    if (list === undefined) this.#passed.set(copy as object, [known])
    else if (!list.includes(known)) list.push(known)
  }

  /** The boot's routes are compiled: no later normalization (a lazy route's, inspect()) shares a copy. */
  release(): void {
    this.#copies = null
  }
}
