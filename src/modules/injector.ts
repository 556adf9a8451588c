import 'reflect-metadata' // before tsyringe, which refuses to load without it
import { container as globalContainer, type DependencyContainer, type InjectionToken } from 'tsyringe'
import { checkClassDependencies, checkFactoryDependencies, checkGuardDependencies, checkInterceptorDependencies, type Requester } from './dependency-check'
import { describeToken, moduleError } from './module-error'
import { walk, type ModuleNode, type PluginItem } from './module-tree'
import { buildPluginOptions } from './plugin-options'
import { registerProviders, toProviderSpec } from './providers'
import { getClassInterceptors, Reflector, type Class, type ProviderEntry } from '../decorators/internal'
import type { Disposer } from './disposal'
import type { BuiltInstance } from './lifecycle-hooks'
import type { OverrideTable } from './overrides'
import type { FactoryLookup, FactoryProvider } from './factory-provider'
import { Logger, moduleLogger } from './logger-token'
import { ModuleRef, moduleRefOf } from './module-ref'
import { guardClassesOf, moduleGuardClassesOf } from './route-guards'
import { setPerRequestClass } from './per-request-classes'
import { registerRequestRecipes } from './request-resolve'
import { interceptorClassesOf } from './interceptors'
import type { PluginOptions, ServerLogger } from '../runtime'
import { dependenciesOf, findDependencyCycle, type ProviderLookup } from './dependency-cycle'
import { unaliased } from './aliases'
import { currentInquirer, INQUIRER, takeTransientRefusal, trackInquirers } from './transient'
import { overriddenInputs } from './overridden-inputs'
import { analyseScopes, type ScopeAnalysis } from './request-scope'
import { bootOnlyMethods, recipeCompiler } from './request-recipes'
import { PerRequestController } from './request-instances'
import { isRequestToken, REPLY, REQUEST } from './request-token'

export interface ModuleWiring {
  readonly container: DependencyContainer
  /** The module class instance: `this` of its @Hook and @ErrorHandler methods. */
  readonly instance: object
  /** Each controller's instance, or, for one built per request (it injects a request-scoped provider), its PerRequestController. */
  readonly controllers: ReadonlyMap<Class, object>
  /** The options of the module's usePlugin() entries, built and awaited at boot. */
  readonly pluginOptions: ReadonlyMap<PluginItem, PluginOptions>
  /** Per usePlugin() entry, the tokens a test override replaced among those its options were built from, directly or through providers: a plugin that fails while loading may have been given a stub. */
  readonly overriddenPluginInputs: ReadonlyMap<PluginItem, readonly string[]>
  /** What the module lists and builds, for its lifecycle methods: providers (overrides applied), controllers, the module class. */
  readonly built: readonly BuiltInstance[]
}

export interface InjectOptions {
  /** Receives the containers created (root first): the caller releases them. */
  readonly containers: DependencyContainer[]
  /** Records the instances built, in creation order, for close(). */
  readonly disposer: Disposer
  /** Test overrides: each replaces every declaration of its token. */
  readonly overrides: OverrideTable
  /** The app's logger: each module container provides a child of it as `Logger`. */
  readonly log: ServerLogger
  /** How long an async factory provider may take to settle (the app's pluginTimeout; 0: no limit). */
  readonly asyncTimeout: number
}

/**
 * DI for one app, in four passes so the order of declarations never matters: (1) one child
 * container per non-lifted module, every provider registered; (2) every constructor dependency
 * checked against its module's container chain; (3) every factory provider built and, when it
 * returns a promise, awaited (its injected factories first), so no class ever receives a Promise;
 * (4) construction, parents first, so each provider is built from its own module's container.
 * Controllers are constructed here, once; then every usePlugin() entry's options are built
 * (an async useFactory awaited, bounded like an async factory), so a module's registration never waits.
 * The global container is never resolved from: the app's root container is a child of it.
 * Every instance built (providers, modules, controllers) is tracked by `disposer`, oldest first.
 */
export async function inject(root: ModuleNode, options: InjectOptions): Promise<ReadonlyMap<ModuleNode, ModuleWiring>> {
  const { containers, disposer, overrides, log, asyncTimeout } = options
  // A refusal left by a transient factory resolved after an earlier boot (resolveProvider) reached
  // its caller already: it must not become this boot's answer to an unrelated construct failure.
  takeTransientRefusal()
  // A test's override(Logger, ...) replaces the framework's Logger everywhere: provided once by
  // the root (every module sees it), instead of each module's child logger.
  const loggerOverride = overrides.get(Logger)
  // A module sharing the root's container (the root, or lifted into it) that declares Logger gets
  // the override in its own entry: the root then adds none, or that container would have two.
  const rootContainerDeclaresLogger = [...walk(root)].some((n) => sharesRootContainer(n) && n.meta.providers.some((p) => toProviderSpec(p).token === Logger))
  const entriesOf = (node: ModuleNode): ProviderEntry[] => {
    const entries = node.meta.providers.map((entry) => overrides.get(toProviderSpec(entry).token) ?? entry)
    return node === root && loggerOverride !== undefined && !rootContainerDeclaresLogger ? [...entries, loggerOverride] : entries
  }
  const containerOf = new Map<ModuleNode, DependencyContainer>()
  const ownersByContainer = new Map<DependencyContainer, Map<InjectionToken, ModuleNode>>()
  const factoriesByContainer = new Map<DependencyContainer, Map<InjectionToken, FactoryProvider>>()
  const parentOf = new Map<DependencyContainer, DependencyContainer>()
  for (const node of walk(root)) {
    let container = node.lifted && node.parent !== null ? containerOf.get(node.parent) : undefined
    if (container === undefined) {
      const parent = node.parent === null ? undefined : containerOf.get(node.parent)!
      container = (parent ?? globalContainer).createChildContainer()
      trackInquirers(container)
      if (parent !== undefined) parentOf.set(container, parent)
      containers.push(container)
      ownersByContainer.set(container, new Map())
      factoriesByContainer.set(container, new Map())
      // Registered first, so a module that declares its own Logger provider replaces it.
      if (loggerOverride === undefined) container.register(Logger, { useValue: moduleLogger(log, node.path) })
      // Visible everywhere; given per request only (request-instances.ts), so resolving them at boot is refused.
      if (parent === undefined) for (const token of [REQUEST, REPLY]) container.register(token, { useFactory: () => { throw requestScopedResolved(token, node) } })
      if (parent === undefined) container.register(INQUIRER, { useFactory: () => currentInquirer() })
      // NestJS's Reflector, which NestJS provides everywhere: one stateless instance, seen by every module.
      if (parent === undefined) container.register(Reflector, { useValue: new Reflector() })
      // NestJS's ModuleRef, per module container: lookups from what that module sees.
      const own = container
      const source = { container: own, module: node.type.name, anywhere: (token: unknown) => anywhere(token), checkClass: (type: Function) => checkCreated(type, node, own), isTransient: (from: DependencyContainer, token: unknown) => transientForModuleRef(from, token) }
      container.register(ModuleRef as unknown as InjectionToken<ModuleRef>, { useValue: moduleRefOf(source) })
    }
    containerOf.set(node, container)
    const target = { container, owners: ownersByContainer.get(container)!, factories: factoriesByContainer.get(container)!, disposer }
    registerProviders(node, entriesOf(node), target)
  }

  const providersOf = (token: unknown): ModuleNode[] =>
    [...walk(root)].filter((n) => n.meta.providers.some((p) => toProviderSpec(p).token === token))
  // moduleRef.get(T, { strict: false }) may run per request; the tree is fixed after boot.
  const found = new Map<unknown, DependencyContainer | undefined>()
  const anywhere = (token: unknown): DependencyContainer | undefined => {
    if (found.has(token)) return found.get(token)
    const node = [...walk(root)].find((n) => n.meta.providers.some((p) => toProviderSpec(p).token === token))
    const container = node === undefined ? undefined : containerOf.get(node)
    // A module whose container is not built yet (a lookup during boot) is asked again next time.
    if (node === undefined || container !== undefined) found.set(token, container)
    return container
  }
  const checkCreated = (type: Function, node: ModuleNode, container: DependencyContainer): void =>
    checkClassDependencies(type, { node, container, providersOf, namedTokens, what: `moduleRef.create(${type.name})` })
  const namedTokens = (): unknown[] => [...new Set([...walk(root)].flatMap((n) => n.meta.providers.map((p) => toProviderSpec(p).token)))]
    .filter((token) => typeof token === 'symbol' || typeof token === 'string')
  // The guard, hook and interceptor classes each module class and controller names, collected once.
  const enhancers = new Map([...walk(root)].map((node) => [node, enhancerClassesOf(node)] as const))
  for (const node of walk(root)) {
    const base = { node, container: containerOf.get(node)!, providersOf, namedTokens }
    const requester = (what: string): Requester => ({ ...base, what })
    checkClassDependencies(node.type, requester(`module ${node.type.name}`))
    // A module's hook classes are resolved from its own container, as a controller's are from its module's;
    // a controller's guard class from the controller's module: it must be one of its visible providers.
    for (const { what, guards, interceptors } of enhancers.get(node)!) {
      checkGuardDependencies(guards, requester(what))
      checkInterceptorDependencies(interceptors, requester(what))
    }
    for (const entry of entriesOf(node)) {
      const spec = toProviderSpec(entry)
      if (spec.useClass !== null) checkClassDependencies(spec.useClass, requester(`provider ${describeToken(spec.token)}`))
      checkFactoryDependencies(spec.inject, requester(`factory provider ${describeToken(spec.token)}`), typeof entry === 'object' && 'useFactory' in entry ? entry.useFactory : undefined)
    }
    for (const controller of node.controllers) checkClassDependencies(controller, requester(`controller ${controller.name}`))
    for (const entry of node.entries) {
      if (entry.kind === 'plugin' && entry.deferred !== null) checkFactoryDependencies(entry.deferred.inject, requester(`usePlugin(${entry.plugin.name || 'anonymous plugin'})`), entry.deferred.useFactory)
    }
  }

  const providerOf: ProviderLookup = (from, token) => {
    for (let c: DependencyContainer | undefined = from; c !== undefined; c = parentOf.get(c)) {
      const node = ownersByContainer.get(c)?.get(token as InjectionToken)
      if (node === undefined) continue
      const spec = entriesOf(node).map(toProviderSpec).find((s) => s.token === token)
      return spec === undefined ? undefined : { node, container: c, spec }
    }
    return undefined
  }
  const starts = [...walk(root)].flatMap((node) => entriesOf(node).map((entry) => ({ container: containerOf.get(node)!, token: toProviderSpec(entry).token })))
  const cycle = findDependencyCycle(starts, providerOf)
  if (cycle !== null) {
    throw moduleError('ENC_ERR_MODULE_DEPENDENCY_CYCLE', { what: `provider ${describeToken(cycle.token)}`, path: cycle.node.path, cycle: cycle.cycle })
  }

  for (const node of walk(root)) checkTransients(node, entriesOf(node))

  // Which providers live per request (declared, or bubbled up from what they inject): never built here.
  const scopes = analyseScopes(providerOf)
  const perRequest = new Map<DependencyContainer, Set<unknown>>()
  for (const node of walk(root)) {
    const container = containerOf.get(node)!
    checkBuiltAtBoot(node, container, scopes)
    for (const spec of entriesOf(node).map(toProviderSpec)) {
      if (scopes.reasonOf(container, spec.token) === null) continue
      let tokens = perRequest.get(container)
      if (tokens === undefined) perRequest.set(container, tokens = new Set())
      tokens.add(spec.token)
      // Still registered (visibility checks pass), but anything resolving it outside a request gets the coded refusal.
      container.register(spec.token as InjectionToken, { useFactory: () => { throw requestScopedResolved(spec.token, node) } })
    }
  }
  const isPerRequest = (container: DependencyContainer, token: unknown): boolean => perRequest.get(container)?.has(token) === true
  // moduleRef.get() asks on every call (it may run per request); a provider, once found, keeps its scope.
  // Boot asks the same question through the same cache: the providers are all registered by now.
  const transientFound = new Map<DependencyContainer, Map<unknown, boolean>>()
  const transientForModuleRef = (from: DependencyContainer, token: unknown): boolean => {
    const known = transientFound.get(from)?.get(token)
    if (known !== undefined) return known
    const found = unaliased(providerOf, from, token)
    if (found === undefined) return false
    let byToken = transientFound.get(from)
    if (byToken === undefined) transientFound.set(from, byToken = new Map())
    byToken.set(token, found.transient)
    return found.transient
  }
  const isTransient = transientForModuleRef

  const lookup: FactoryLookup = (from, token) => {
    for (let c: DependencyContainer | undefined = from; c !== undefined; c = parentOf.get(c)) {
      if (ownersByContainer.get(c)?.has(token) === true) return factoriesByContainer.get(c)!.get(token)
    }
    return undefined
  }
  for (const node of walk(root)) {
    for (const spec of entriesOf(node).map(toProviderSpec)) {
      const factory = factoriesByContainer.get(containerOf.get(node)!)!.get(spec.token)
      if (factory === undefined || isPerRequest(containerOf.get(node)!, spec.token)) continue
      try {
        await factory.settle(lookup, asyncTimeout)
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ENC_ERR_MODULE_ASYNC_PROVIDER_TIMEOUT') throw error
        // The real cause when a class this factory injects resolved an async factory too early.
        const refusal = [...factoriesByContainer.values()].flatMap((m) => [...m.values()]).find((f) => f.refusal !== null)?.refusal
        throw refusal ?? instantiationError(`provider ${describeToken(spec.token)}`, node, error)
      }
    }
  }

  const wiring = new Map<ModuleNode, ModuleWiring>()
  for (const node of walk(root)) {
    const container = containerOf.get(node)!
    const built: BuiltInstance[] = []
    for (const spec of entriesOf(node).map(toProviderSpec)) {
      // A transient one (or an alias of one) is built for each consumer, when that consumer is: none of its own here.
      if (isPerRequest(container, spec.token) || isTransient(container, spec.token)) continue
      const what = `provider ${describeToken(spec.token)}`
      built.push({ value: construct(container, spec.token, what, node), what, kind: 'provider', token: spec.token, deps: dependenciesOf(spec).map((dep) => dep.token) })
    }
    const instance = construct(container, node.type as never, `module ${node.type.name}`, node)
    disposer.track(instance)
    // A controller that injects a request-scoped provider is built per request too (its recipe is compiled below).
    const singletonControllers = node.controllers.filter((c) => scopes.classReason(container, c) === null)
    const controllers = new Map<Class, object>(singletonControllers.map((c) => {
      const controller = construct(container, c as never, `controller ${c.name}`, node)
      disposer.track(controller)
      return [c, controller] as const
    }))
    const pluginOptions = new Map<PluginItem, PluginOptions>()
    const overriddenPluginInputs = new Map<PluginItem, readonly string[]>()
    for (const entry of node.entries) {
      if (entry.kind !== 'plugin' || entry.deferred === null) continue
      pluginOptions.set(entry, await buildPluginOptions(entry.deferred, container, node.path, asyncTimeout))
      const overridden = overriddenInputs(entry.deferred.inject, container, providerOf, (token) => overrides.has(token as InjectionToken))
      if (overridden.length > 0) overriddenPluginInputs.set(entry, overridden)
    }
    built.push(...[...controllers].map(([c, value]) => ({ value, what: `controller ${c.name}`, kind: 'controller' as const, token: c, deps: dependenciesOf({ useClass: c, inject: [] }).map((dep) => dep.token) })),
      { value: instance, what: `module ${node.type.name}`, kind: 'module' })
    wiring.set(node, { container, instance, controllers, pluginOptions, overriddenPluginInputs, built })
  }

  // Every singleton exists now: the per-request recipes take the ones they need as they are.
  const recipes = recipeCompiler(providerOf, scopes)
  for (const node of walk(root)) {
    const container = containerOf.get(node)!
    // Compiled even when no controller uses it yet: an unsupported injection fails boot, not a request.
    for (const token of perRequest.get(container) ?? []) recipes.forProvider(container, token)
    registerRequestRecipes(container, {
      scoped: (token) => isRequestToken(token) || scopes.reasonOf(container, token) === null ? null : recipes.forProvider(container, token),
      transient: (token) => isRequestToken(token) ? null : recipes.forTransient(container, token),
    })
    // Guard, hook and interceptor classes that need one are built per request by their resolvers.
    for (const { guards, interceptors } of enhancers.get(node)!) {
      for (const type of [...guards, ...interceptors]) {
        if (scopes.reasonOf(container, type) !== null) setPerRequestClass(container, type, recipes.forProvider(container, type))
      }
    }
    const controllers = wiring.get(node)!.controllers as Map<Class, object>
    for (const c of node.controllers) {
      if (!controllers.has(c)) controllers.set(c, new PerRequestController(recipes.forClass(container, c, `controller ${c.name}`, node.path)))
    }
  }
  return wiring
}

/** The hook (guard) and interceptor classes the module class names, then each of its controllers (with their methods and base classes). */
function enhancerClassesOf(node: ModuleNode): Array<{ readonly what: string; readonly guards: readonly Function[]; readonly interceptors: readonly Function[] }> {
  return [
    { what: `module ${node.type.name}`, guards: moduleGuardClassesOf(node.type), interceptors: getClassInterceptors(node.type) },
    ...node.controllers.map((c) => ({ what: `controller ${c.name}`, guards: guardClassesOf(c), interceptors: interceptorClassesOf(c) })),
  ]
}

/**
 * What is built once, at boot, cannot hold a per-request instance: the module class, usePlugin()
 * options. A guard or hook class may, at any stage (it is then built per request). Named with the
 * path that makes the dependency request-scoped, and the fix.
 */
function checkBuiltAtBoot(node: ModuleNode, container: DependencyContainer, scopes: ScopeAnalysis): void {
  const refuse = (subject: string, reason: string, kind: 'module' | 'plugin'): never => {
    throw moduleError('ENC_ERR_MODULE_REQUEST_SCOPE', { case: 'built-at-boot', subject: `${subject} in ${node.path}`, reason, kind })
  }
  const moduleReason = scopes.classReason(container, node.type)
  if (moduleReason !== null) refuse(`module ${node.type.name}`, moduleReason, 'module')
  for (const entry of node.entries) {
    if (entry.kind !== 'plugin' || entry.deferred === null) continue
    for (const token of entry.deferred.inject) {
      const reason = scopes.reasonOf(container, token)
      if (reason !== null) refuse(`usePlugin(${entry.plugin.name || 'anonymous plugin'})`, reason, 'plugin')
    }
  }
}

/**
 * Transient providers: refused at boot when a boot-only method would never run on them, and
 * INQUIRER anywhere but in a transient provider (it names a transient provider's consumer).
 */
function checkTransients(node: ModuleNode, entries: readonly ProviderEntry[]): void {
  const injectsInquirer = (spec: { useClass: Function | null; inject: readonly unknown[] }): boolean =>
    dependenciesOf(spec as never).some((dep) => dep.token === INQUIRER)
  for (const spec of entries.map(toProviderSpec)) {
    const subject = `provider ${describeToken(spec.token)} in ${node.path}`
    if (spec.scope === 'transient') {
      const prototype = (spec.useClass?.prototype ?? {}) as Record<string, unknown>
      const methods = bootOnlyMethods.filter((name) => typeof prototype[name] === 'function')
      if (methods.length > 0) throw moduleError('ENC_ERR_MODULE_TRANSIENT', { case: 'boot-method', subject, methods })
    } else if (injectsInquirer(spec)) throw moduleError('ENC_ERR_MODULE_TRANSIENT', { case: 'inquirer', subject })
  }
  const classes: Array<[string, Function]> = [[`module ${node.type.name}`, node.type], ...node.controllers.map((c) => [`controller ${c.name}`, c] as [string, Function])]
  for (const [what, type] of classes) {
    if (injectsInquirer({ useClass: type, inject: [] })) throw moduleError('ENC_ERR_MODULE_TRANSIENT', { case: 'inquirer', subject: `${what} in ${node.path}` })
  }
}

function requestScopedResolved(token: unknown, node: ModuleNode): Error {
  return moduleError('ENC_ERR_MODULE_REQUEST_SCOPE', { case: 'resolved', subject: `provider ${describeToken(token)} in ${node.path}`, reason: describeToken(token) })
}

function construct(container: DependencyContainer, token: InjectionToken, what: string, node: ModuleNode): object {
  try {
    return container.resolve(token) as object
  } catch (error) {
    throw instantiationError(what, node, error)
  }
}

function instantiationError(what: string, node: ModuleNode, error: unknown): Error {
  const transient = takeTransientRefusal()
  if (transient !== null) return transient
  return moduleError('ENC_ERR_MODULE_INSTANTIATION', { what, path: node.path, reason: error instanceof Error ? error.message : String(error) }, { cause: error })
}

/** The root, or a module lifted into it (directly or through lifted modules): one container with it. */
function sharesRootContainer(node: ModuleNode): boolean {
  let n = node
  while (n.parent !== null && n.lifted) n = n.parent
  return n.parent === null
}
