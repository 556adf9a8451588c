import type { DependencyContainer, InjectionToken } from 'tsyringe'
import { constructorDependencies, type RequestEnd } from '../decorators/internal'
import type { ProviderLookup } from './dependency-cycle'
import { unaliased } from './aliases'
import { injectionTarget } from './injection-target'
import { describeToken, moduleError } from './module-error'
import { REPLY, REQUEST } from './request-token'
import { callTransientFactory, INQUIRER } from './transient'
import type { ScopeAnalysis } from './request-scope'

/** One argument of a per-request construction: a singleton (resolved at boot), another per-request value, or the request/reply. */
export type RecipeArg =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'recipe'; readonly recipe: Recipe }
  | { readonly kind: 'request' }
  | { readonly kind: 'reply' }

/**
 * How one request-scoped provider (or controller) is built per request, worked out once at boot:
 * its arguments in order and the call that makes it. Aliases (`useExisting`) share their target's
 * recipe, so one request gets one instance whichever token asks.
 */
export interface Recipe {
  readonly what: string
  readonly args: readonly RecipeArg[]
  readonly make: (args: unknown[]) => unknown
  /** A factory's `dispose(value, end)`; 'own': the value's own `dispose(end)`, when it has one. */
  readonly release: ((value: any, end: RequestEnd) => unknown) | 'own'
  /**
   * Whether building it may wait on something that never settles: an async-capable factory in it or
   * below. Classes alone settle within a few microtasks, so their gets need no abort race (whose
   * request.signal costs about a microsecond per request: abort-signal.ts).
   */
  readonly mayWait: boolean
}

const waitsOn = (args: readonly RecipeArg[]): boolean => args.some((arg) => arg.kind === 'recipe' && arg.recipe.mayWait)

/**
 * Methods Enclave calls once, on what it built at boot: a request-scoped instance is never among
 * those, so such a method would silently never run (docs/request-scope.md, "Request-scoped providers").
 */
export const bootOnlyMethods = ['onModuleInit', 'onApplicationBootstrap', 'onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown', 'onClose', 'checkHealth'] as const

export interface RecipeCompiler {
  /** The recipe of a request-scoped class that no module provides (a controller) in `container`. */
  forClass(container: DependencyContainer, target: Function, what: string, path: string): Recipe
  /** The recipe of the request-scoped provider `token` resolves to from `container`. */
  forProvider(container: DependencyContainer, token: unknown): Recipe
  /** The recipe of the transient provider `token` (or an alias of one) resolves to, for a consumer that is no class (resolveProvider(request, ...)); null when it is not transient. */
  forTransient(container: DependencyContainer, token: unknown): Recipe | null
}

/**
 * Compiles recipes after every singleton is built (a recipe holds the singletons it is given).
 * Refuses, at boot, what a per-request build could not do as tsyringe would: `delay()`,
 * `injectAll()` and `injectWithTransform()` parameters, and boot-only methods on a per-request class.
 */
export function recipeCompiler(lookup: ProviderLookup, analysis: ScopeAnalysis): RecipeCompiler {
  const memo = new Map<DependencyContainer, Map<unknown, Recipe>>()

  /** `self`: the class being built (a transient it injects is built for it); `inquirer`: what INQUIRER gives it. */
  const argFor = (container: DependencyContainer, token: unknown, isOptional: boolean, self: Function | undefined, inquirer: Function | undefined): RecipeArg => {
    if (token === REQUEST) return { kind: 'request' }
    if (token === REPLY) return { kind: 'reply' }
    if (token === INQUIRER) return { kind: 'value', value: inquirer }
    // A transient one (or an alias of one) is built with its consumer: per request here, its own recipe for this consumer.
    const target = unaliased(lookup, container, token)
    if (target?.transient === true) return { kind: 'recipe', recipe: forToken(target.container, target.token, self) }
    if (analysis.reasonOf(container, token) === null) {
      if (isOptional && !container.isRegistered(token as InjectionToken, true)) return { kind: 'value', value: undefined }
      return { kind: 'value', value: container.resolve(token as InjectionToken) }
    }
    return { kind: 'recipe', recipe: forToken(container, token, undefined) }
  }

  /** `inquirer`: for a transient provider, its consumer's class (each consumer gets its own recipe, so its own instance). */
  const forToken = (from: DependencyContainer, token: unknown, inquirer: Function | undefined): Recipe => {
    const found = lookup(from, token)!
    const transient = found.spec.scope === 'transient'
    let known = memo.get(found.container)
    if (known === undefined) memo.set(found.container, known = new Map())
    const cached = transient ? undefined : known.get(token)
    if (cached !== undefined) return cached
    const entry = found.spec.entry
    const what = `provider ${describeToken(token)}`
    let recipe: Recipe
    if (typeof entry === 'function' || 'useClass' in entry) {
      recipe = forClass(found.container, found.spec.useClass!, what, found.node.path, inquirer)
    } else if ('useFactory' in entry) {
      const factory = entry.useFactory
      const subject = `${what} in ${found.node.path}`
      const make = transient ? (args: unknown[]) => callTransientFactory(factory, args, subject) : (args: unknown[]) => factory(...args)
      const args = (entry.inject ?? []).map((dep) => argFor(found.container, dep, false, undefined, inquirer))
      // A transient factory is refused when it returns a promise: only its arguments can wait.
      recipe = { what, args, make, release: entry.dispose ?? 'own', mayWait: !transient || waitsOn(args) }
    } else {
      // useExisting: the target's own recipe, so both tokens give the same instance within a request.
      recipe = forToken(found.container, (entry as { useExisting: unknown }).useExisting, inquirer)
    }
    if (!transient) known.set(token, recipe)
    return recipe
  }

  const forClass = (container: DependencyContainer, target: Function, what: string, path: string, inquirer?: Function): Recipe => {
    const prototype = target.prototype as Record<string, unknown>
    const bootOnly = bootOnlyMethods.filter((name) => typeof prototype[name] === 'function')
    if (bootOnly.length > 0) {
      throw moduleError('ENC_ERR_MODULE_REQUEST_SCOPE', { case: 'boot-method', subject: `${what} in ${path}`, methods: bootOnly, reason: reasonForClass(container, target) })
    }
    const deps = constructorDependencies(target) ?? []
    const args: RecipeArg[] = []
    // Two parameters with one token share its recipe: one transient per consumer, as in NestJS 12.
    const byToken = new Map<unknown, RecipeArg>()
    for (let index = 0; index < Math.max(target.length, deps.length); index++) {
      const dep = deps[index]
      const found = injectionTarget(dep)
      const descriptor = dep as { multiple?: unknown } | null
      // `@inject(delay(() => X))` is a descriptor whose token is the delayed constructor.
      const delayed = found.kind === 'delayed' || injectionTarget(found.token).kind === 'delayed'
      if (found.kind === 'delayed' || delayed || found.transform !== undefined || (typeof descriptor === 'object' && descriptor?.multiple === true)) {
        throw moduleError('ENC_ERR_MODULE_REQUEST_SCOPE', { case: 'injection', subject: `${what} in ${path}`, index })
      }
      let arg = byToken.get(found.token)
      if (arg === undefined) byToken.set(found.token, arg = argFor(container, found.token, found.isOptional, target, inquirer))
      args.push(arg)
    }
    const constructor = target as new (...args: unknown[]) => unknown
    return { what, args, make: (values) => new constructor(...values), release: 'own', mayWait: waitsOn(args) }
  }

  const reasonForClass = (container: DependencyContainer, target: Function): string =>
    analysis.classReason(container, target) ?? `${target.name} (scope 'request')`

  const transients = new Map<DependencyContainer, Map<unknown, Recipe | null>>()
  const forTransient = (container: DependencyContainer, token: unknown): Recipe | null => {
    let known = transients.get(container)
    if (known === undefined) transients.set(container, known = new Map())
    let recipe = known.get(token)
    if (recipe === undefined) {
      const target = unaliased(lookup, container, token)
      known.set(token, recipe = target?.transient === true ? forToken(target.container, target.token, undefined) : null)
    }
    return recipe
  }

  return { forClass, forProvider: (container, token) => forToken(container, token, undefined), forTransient }
}
