import type { Logger } from '../runtime'
import { moduleError } from './module-error'
import { dependenciesBefore, dependentsBefore, type OrderedInstance } from './cross-module-order'
import { walk, type ModuleNode } from './module-tree'
import { settleWithin } from './settle-within'

/** NestJS's lifecycle method names, in the order Enclave calls them (docs/migrating-from-nestjs.md, "Coming from NestJS"). */
type BootHook = 'onModuleInit' | 'onApplicationBootstrap'
type ShutdownHook = 'onModuleDestroy' | 'beforeApplicationShutdown' | 'onApplicationShutdown'

/** One instance a module built or was given, and how messages name it (`provider 'config'`, `controller BooksController`). */
export interface BuiltInstance {
  readonly value: unknown
  readonly what: string
  readonly kind: 'provider' | 'controller' | 'module'
  /** The provider's token or the controller's class: what the module's other instances name in `deps`. */
  readonly token?: unknown
  /** The tokens it is built from (constructor parameters, a factory's inject list, an alias's target). */
  readonly deps?: readonly unknown[]
}

interface Owned {
  readonly node: ModuleNode
  readonly value: object
  readonly what: string
}

type Item = BuiltInstance & { readonly value: object }

/**
 * NestJS 12's order within one module (checked against @nestjs/core 12.5.1): its controllers and
 * providers by dependency level within the module (what injects nothing of the module first at
 * boot, last at close; a repository's onModuleDestroy() before its pool's), ties in the order
 * controllers, then providers as listed; then the module class. `items` may name one instance
 * twice (an alias and its target): it counts once, with both tokens' dependencies.
 */
function moduleOrder(items: readonly Item[], dependenciesFirst: boolean): Item[] {
  const base = [...items.filter((i) => i.kind === 'controller'), ...items.filter((i) => i.kind === 'provider')]
  const valueOf = new Map<unknown, object>()
  for (const item of base) if (item.token !== undefined) valueOf.set(item.token, item.value)
  const depsOf = new Map<object, Set<object>>()
  const first: Item[] = []
  for (const item of base) {
    let deps = depsOf.get(item.value)
    if (deps === undefined) { depsOf.set(item.value, deps = new Set()); first.push(item) }
    for (const token of item.deps ?? []) {
      const dep = valueOf.get(token)
      if (dep !== undefined && dep !== item.value) deps.add(dep)
    }
  }
  const levels = new Map<object, number>()
  const levelOf = (value: object): number => {
    const known = levels.get(value)
    if (known !== undefined) return known
    levels.set(value, 0) // a delay()ed circle stays finite
    let level = 0
    for (const dep of depsOf.get(value) ?? []) level = Math.max(level, levelOf(dep) + 1)
    levels.set(value, level)
    return level
  }
  // Array.prototype.sort is stable: equal levels keep the base order.
  const sorted = [...first].sort((a, b) => dependenciesFirst ? levelOf(a.value) - levelOf(b.value) : levelOf(b.value) - levelOf(a.value))
  return [...sorted, ...items.filter((i) => i.kind === 'module')]
}

/**
 * Calls NestJS's lifecycle methods on what one app built (providers of every kind, useValue and
 * overrides included, controllers and module classes), in NestJS 12's order: at boot, modules
 * deepest first (by distance from the root), within a module as moduleOrder() says; at close,
 * modules root first, each module's instances dependents first. One instance at a time (NestJS
 * starts a module's calls together). An instance reachable from several modules (lifted, or one
 * useValue object listed twice) is called once, for the first module that lists it at boot.
 */
export class LifecycleHooks {
  readonly #owned: readonly Owned[]
  readonly #closing: readonly Owned[]
  #signal: string | undefined
  #beforeDone: Promise<void> | null = null

  constructor(root: ModuleNode, instancesOf: (node: ModuleNode) => readonly BuiltInstance[]) {
    const depth = (node: ModuleNode): number => node.parent === null ? 0 : depth(node.parent) + 1
    // Array.prototype.sort is stable: same-depth modules keep the tree's pre-order.
    const nodes = [...walk(root)].sort((a, b) => depth(b) - depth(a))
    // Each module's list, asked once: the groups and the cross-module order below both read it.
    const listed = new Map(nodes.map((node) => [node, instancesOf(node)] as const))
    const seen = new Set<object>()
    const groups: Array<{ readonly boot: Owned[]; readonly close: Owned[] }> = []
    for (const node of nodes) {
      // Instances an earlier module called already are left out; one listed twice here stays (moduleOrder counts it once).
      const own = new Set<object>()
      const items: Item[] = []
      for (const item of listed.get(node)!) {
        const value = item.value
        if ((typeof value !== 'object' && typeof value !== 'function') || value === null || (seen.has(value) && !own.has(value))) continue
        seen.add(value)
        own.add(value)
        items.push(item as Item)
      }
      const owned = (list: Item[]): Owned[] => list.map(({ value, what }) => ({ node, value, what }))
      groups.push({ boot: owned(moduleOrder(items, true)), close: owned(moduleOrder(items, false)) })
    }
    // What an instance injects from another module (an ancestor's, a lifted or global module's) goes first.
    const instances: OrderedInstance[] = nodes.flatMap((node) => listed.get(node)!.flatMap((item) =>
      (typeof item.value === 'object' || typeof item.value === 'function') && item.value !== null ? [{ ...item, value: item.value as object, node }] : []))
    this.#owned = dependenciesBefore(groups.flatMap((group) => group.boot), instances)
    this.#closing = dependentsBefore([...groups].reverse().flatMap((group) => group.close), instances)
  }

  /** The signal closeOnSignals received: what the shutdown hooks are given. */
  signalled(signal: string): void {
    this.#signal = signal
  }

  /** onModuleInit() of every instance; a throw (or a call outliving `timeoutMs`) fails boot with a coded error. */
  init(timeoutMs: number): Promise<void> {
    return this.#boot('onModuleInit', timeoutMs)
  }

  /** onApplicationBootstrap(), once every module is initialised and the server booted. */
  bootstrap(timeoutMs: number): Promise<void> {
    return this.#boot('onApplicationBootstrap', timeoutMs)
  }

  /**
   * onModuleDestroy() then beforeApplicationShutdown(signal): the first of close()'s work. Runs
   * once, whichever calls it first (the root's preClose hook, or the onClose release when a failed
   * boot runs no preClose hook).
   */
  beforeShutdown(log: Logger, timeoutMs: number): Promise<void> {
    this.#beforeDone ??= (async () => {
      await this.#shutdown('onModuleDestroy', log, timeoutMs)
      await this.#shutdown('beforeApplicationShutdown', log, timeoutMs)
    })()
    return this.#beforeDone
  }

  /** onApplicationShutdown(signal): after every provider was released. */
  afterShutdown(log: Logger, timeoutMs: number): Promise<void> {
    return this.#shutdown('onApplicationShutdown', log, timeoutMs)
  }

  async #boot(hook: BootHook, timeoutMs: number): Promise<void> {
    for (const { node, value, what: instance } of this.#owned) {
      const method = methodOf(value, hook)
      if (method === undefined) continue
      const what = `${hook}() of ${instance}`
      try {
        await settleWithin(Promise.resolve().then(() => method.call(value)), timeoutMs,
          () => new Error(`it did not finish within ${timeoutMs} ms (pluginTimeout)`))
      } catch (error) {
        throw moduleError('ENC_ERR_MODULE_LIFECYCLE_HOOK', { what, path: node.path, reason: error instanceof Error ? error.message : String(error) }, { cause: error })
      }
    }
  }

  // A failing or hanging shutdown hook is logged and the next one still runs, as a failing dispose() is.
  async #shutdown(hook: ShutdownHook, log: Logger, timeoutMs: number): Promise<void> {
    const args = hook === 'onModuleDestroy' ? [] : [this.#signal]
    for (const { node, value, what: instance } of this.#closing) {
      const method = methodOf(value, hook)
      if (method === undefined) continue
      const what = `${hook}() of ${instance} (${node.path})`
      await settleWithin(Promise.resolve().then(() => method.apply(value, args)), timeoutMs,
        () => new Error(`${what} did not finish within ${timeoutMs} ms (pluginTimeout); moving on`), { unref: true })
        .catch((error: unknown) => log.error({ err: error }, `${what} failed while the app was closing`))
    }
  }
}


/**
 * The instance's lifecycle method, if it has one. Reading it may throw (a strict mock given as
 * useValue, a Proxy refusing unknown keys): that counts as the method failing, so boot fails with
 * the coded error and close() logs it and goes on, instead of a bare error or a skipped release.
 */
function methodOf(value: object, hook: BootHook | ShutdownHook): ((...args: unknown[]) => unknown) | undefined {
  try {
    const method = (value as Record<string, unknown>)[hook]
    return typeof method === 'function' ? method as (...args: unknown[]) => unknown : undefined
  } catch (error) {
    return () => { throw error }
  }
}
