import { scopeOwner, type ModuleNode } from './module-tree'

/** What the lifecycle order needs of one instance: where it was built and from which tokens. */
export interface OrderedInstance {
  readonly node: ModuleNode
  readonly value: object
  readonly token?: unknown
  readonly deps?: readonly unknown[]
  readonly kind: 'provider' | 'controller' | 'module'
}

/**
 * NestJS orders modules by import distance, so the modules a module imports (where what it injects
 * lives) are initialised before it and shut down after it. Enclave's shared providers live in an
 * ancestor instead (the root, a lifted or global module), which the deepest-first module order would
 * initialise last: a feature service's onModuleInit() ran before the pool it queries had connected,
 * and the pool closed before the services that flush to it. These reorder one module order so that
 * an instance comes after (at boot) or before (at close) the instances of other modules it injects;
 * everything else keeps its place.
 */
export function dependenciesBefore<T extends { readonly value: object }>(order: readonly T[], instances: readonly OrderedInstance[]): T[] {
  const depsOf = dependencyGraph(instances)
  return reorder(order, (value) => depsOf.get(value))
}

export function dependentsBefore<T extends { readonly value: object }>(order: readonly T[], instances: readonly OrderedInstance[]): T[] {
  const dependents = new Map<object, Set<object>>()
  for (const [value, deps] of dependencyGraph(instances)) {
    for (const dep of deps) {
      let set = dependents.get(dep)
      if (set === undefined) dependents.set(dep, set = new Set())
      set.add(value)
    }
  }
  return reorder(order, (value) => dependents.get(value))
}

/** A stable reordering: each entry is preceded by what `before` names (a delay()ed circle stays finite). */
function reorder<T extends { readonly value: object }>(order: readonly T[], before: (value: object) => Iterable<object> | undefined): T[] {
  const entryOf = new Map<object, T>()
  for (const entry of order) if (!entryOf.has(entry.value)) entryOf.set(entry.value, entry)
  const placed = new Set<object>()
  const visiting = new Set<object>()
  const out: T[] = []
  const place = (entry: T): void => {
    if (placed.has(entry.value) || visiting.has(entry.value)) return
    visiting.add(entry.value)
    for (const other of before(entry.value) ?? []) {
      const first = entryOf.get(other)
      if (first !== undefined) place(first)
    }
    visiting.delete(entry.value)
    placed.add(entry.value)
    out.push(entry)
  }
  for (const entry of order) place(entry)
  return out
}

/** Each instance -> the instances its tokens resolve to, looked up from its module's scope upward. */
function dependencyGraph(instances: readonly OrderedInstance[]): Map<object, Set<object>> {
  // A lifted module provides into its scope owner's container: providers are keyed by that owner.
  const provided = new Map<ModuleNode, Map<unknown, object>>()
  for (const instance of instances) {
    if (instance.kind !== 'provider' || instance.token === undefined) continue
    const owner = scopeOwner(instance.node)
    let tokens = provided.get(owner)
    if (tokens === undefined) provided.set(owner, tokens = new Map())
    if (!tokens.has(instance.token)) tokens.set(instance.token, instance.value)
  }
  const resolve = (token: unknown, node: ModuleNode): object | undefined => {
    for (let owner: ModuleNode | null = scopeOwner(node); owner !== null; owner = owner.parent === null ? null : scopeOwner(owner.parent)) {
      const value = provided.get(owner)?.get(token)
      if (value !== undefined) return value
    }
    return undefined
  }
  const graph = new Map<object, Set<object>>()
  for (const instance of instances) {
    let deps = graph.get(instance.value)
    if (deps === undefined) graph.set(instance.value, deps = new Set())
    for (const token of instance.deps ?? []) {
      const dep = resolve(token, instance.node)
      if (dep !== undefined && dep !== instance.value) deps.add(dep)
    }
  }
  return graph
}
