import type { PluginOptions } from '../runtime'
import type { Class, DeferredPlugin, ModuleMeta } from '../decorators/internal'
import type { SharedSchema } from '../runtime/schemas/types'

/** One module occurrence in the tree built by scan(): a module class listed twice is two nodes. */
export interface ModuleNode {
  readonly type: Class
  readonly meta: ModuleMeta
  /** `AppModule > PublicModule > lift(GrandchildModule)`: for every boot error. */
  readonly path: string
  readonly parent: ModuleNode | null
  /** Runs in its parent's scope (spec §3.3.5); its providers go in its parent's container. */
  readonly lifted: boolean
  readonly entries: readonly PluginItem[]
  readonly controllers: readonly Class[]
  readonly schemas: readonly SharedSchema[]
}

export type PluginItem =
  | { readonly kind: 'module'; readonly node: ModuleNode }
  | { readonly kind: 'plugin'; readonly plugin: Function; readonly options: PluginOptions | undefined; readonly deferred: DeferredPlugin | null }

/** The tree in pre-order: parents before children, siblings in listing order. */
export function* walk(node: ModuleNode): Generator<ModuleNode> {
  yield node
  for (const entry of node.entries) if (entry.kind === 'module') yield* walk(entry.node)
}

/** The nearest non-lifted node: the one whose scope (and container) `node` uses. */
export function scopeOwner(node: ModuleNode): ModuleNode {
  let owner = node
  while (owner.lifted && owner.parent !== null) owner = owner.parent
  return owner
}

/** The nearest module that is an ancestor of (or equal to) both. */
export function commonAncestor(a: ModuleNode, b: ModuleNode): ModuleNode {
  const ancestors = new Set<ModuleNode>()
  for (let n: ModuleNode | null = a; n !== null; n = n.parent) ancestors.add(n)
  let n: ModuleNode = b
  while (!ancestors.has(n) && n.parent !== null) n = n.parent
  return n
}

/**
 * Joins a controller's prefix and a route path: `(['/users/'], '/:id')` -> `/users/:id`. Prefixes lose
 * a trailing slash; the route path is kept as written (`/a/` and `/a` are different routes), and
 * an empty or `/` route path means the prefix itself.
 */
export function joinPaths(prefixes: readonly string[], path: string): string {
  const prefix = prefixes.map((p) => p.endsWith('/') ? p.slice(0, -1) : p).join('')
  if (prefix === '') return path === '' ? '/' : path
  return path === '' || path === '/' ? prefix : prefix + path
}
