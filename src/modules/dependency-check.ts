import type { DependencyContainer } from 'tsyringe'
import { constructorDependencies, hasConstructorTypes, injectedParameterIndexes } from '../decorators/internal'
import { paramNames } from '../runtime/shared/param-names'
import { closestTokens, describeToken, moduleError } from './module-error'
import { testHostExample } from './module-codes'
import { commonAncestor, scopeOwner, type ModuleNode } from './module-tree'
import { typeInfoStatus } from './tsyringe-copies'
import { injectionTarget } from './injection-target'

/** Types TypeScript emits for interfaces, primitives and unions: no provider can stand for them. */
const untypedTokens: ReadonlySet<unknown> = new Set([Object, String, Number, Boolean, Symbol, BigInt, Array, Function, Promise])

export interface Requester {
  readonly node: ModuleNode
  readonly container: DependencyContainer
  /** `controller UserController`, `provider UserService`, `module AppModule`. */
  readonly what: string
  /** Where to look for the providers of a token that is not visible, for the hint. */
  readonly providersOf: (token: unknown) => readonly ModuleNode[]
  /** The tokens some module provides that are not classes (symbols, strings): the candidates for an interface's @inject(). */
  readonly namedTokens?: () => readonly unknown[]
}

/**
 * tsyringe's resolve() constructs any @injectable class even where no module provides it
 * (checked with tsyringe 4.10), which would silently break provider visibility. So every
 * constructor dependency is checked against the module's container chain before anything is
 * constructed.
 */
export function checkClassDependencies(target: Function, requester: Requester): void {
  const deps = constructorDependencies(target) ?? []
  const count = Math.max(target.length, deps.length)
  if (count === 0) return
  if (!hasConstructorTypes(target)) checkWithoutTypes(target, count, requester)
  checkTypeInfo(target, count, requester)
  // Every index, holes included: tsyringe skips a hole and passes undefined for it.
  for (let index = 0; index < count; index++) checkToken(deps[index], `constructor parameter ${index}`, requester)
}

/**
 * A class without `design:paramtypes` has injection tokens only where `@inject()` names them.
 * A parameter without one would be passed `undefined` by tsyringe (the class was decorated, so
 * it is built with the tokens it has), found at request time: refuse it at boot, naming it.
 * A decorated class reaches here when the build tool emits no decorator metadata (esbuild, tsx,
 * vitest on vite 7 or older); an undecorated one when its @injectable() is missing.
 */
function checkWithoutTypes(target: Function, count: number, requester: Requester): void {
  const injected = injectedParameterIndexes(target)
  let index = 0
  while (index < count && injected.has(index)) index++
  if (index === count) return
  const param = paramNames(target)[index] ?? null
  throw moduleError('ENC_ERR_MODULE_DEPENDENCY_UNTYPED', {
    case: 'no-metadata', subject: `${requester.what} in ${requester.node.path}`, index, param,
    decorated: typeInfoStatus(target, count).known,
  })
}

/**
 * tsyringe fails such a class with a bare "TypeInfo not known" (or, when the constructor declares
 * no formal parameters, builds it with none): say which decorator is missing or which copy made it.
 */
function checkTypeInfo(target: Function, parameterCount: number, requester: Requester): void {
  const status = typeInfoStatus(target, parameterCount)
  if (status.known) return
  const subject = `${requester.what} in ${requester.node.path}`
  if (status.decoratedBy !== null) {
    throw moduleError('ENC_ERR_MODULE_TSYRINGE_COPIES', { subject, decoratedBy: status.decoratedBy, ownCopy: status.ownCopy })
  }
  throw moduleError('ENC_ERR_MODULE_DEPENDENCY_UNTYPED', { case: 'not-injectable', subject, ownCopy: status.ownCopy })
}

export function checkFactoryDependencies(tokens: readonly unknown[], requester: Requester, factory?: Function): void {
  tokens.forEach((token, index) => checkToken(token, `inject[${index}]`, requester))
  // NestJS fills useFactory's parameters from inject only, as tsyringe does: a parameter past the
  // list would be undefined at boot, found as a TypeError inside the factory. length counts the
  // parameters before the first default or rest one, so an optional one opts out with a default.
  if (factory !== undefined && factory.length > tokens.length) {
    throw moduleError('ENC_ERR_MODULE_DEPENDENCY_UNTYPED', { case: 'factory-arity', subject: `${requester.what} in ${requester.node.path}`, params: paramNames(factory).slice(0, factory.length), injected: tokens.length })
  }
}

/** Guard classes named by a controller's route hooks (`@OnRequest(Guard)`): each is resolved from the module. */
export function checkGuardDependencies(guards: readonly Function[], requester: Requester): void {
  for (const guard of guards) checkToken(guard, 'a guard class in its route hooks', requester)
}

/** Interceptor classes (`@UseInterceptors(Timing)`): each is resolved from the module that names it. */
export function checkInterceptorDependencies(interceptors: readonly Function[], requester: Requester): void {
  for (const interceptor of interceptors) checkToken(interceptor, 'an interceptor class in its @UseInterceptors()', requester)
}

function checkToken(dep: unknown, where: string, requester: Requester): void {
  const target = injectionTarget(dep)
  if (target.kind === 'delayed' || target.isOptional) return
  // A descriptor: its token is checked, and its transform's class too.
  if (target.token !== dep) {
    checkToken(target.token, where, requester)
    if (target.transform !== undefined) checkToken(target.transform, `${where} (transform)`, requester)
    return
  }
  const subject = `${requester.what} in ${requester.node.path} needs`
  if (dep === undefined || untypedTokens.has(dep)) {
    // An interface-typed parameter usually means a repository behind a symbol token (NestJS's
    // @Inject(TOKEN)): name the tokens this module could inject, so the fix reads off the message.
    const candidates = dep === Object ? (requester.namedTokens?.() ?? []).filter((token) => requester.container.isRegistered(token as never, true)) : []
    throw moduleError('ENC_ERR_MODULE_DEPENDENCY_UNTYPED', {
      case: 'no-token', subject, where, candidates: candidates.map(describeToken),
      type: dep === undefined ? 'is undefined at runtime (a circular import between files, or a type-only import)' : `is ${describeToken(dep)} (an interface, primitive or union type)`,
    })
  }
  if (requester.container.isRegistered(dep as never, true)) return
  const providers = requester.providersOf(dep)
  const hint = providers.length === 0
    ? misspelt(dep, requester) + `No module provides it: add it to the providers of ${requester.node.path} or of one of its ancestors.` + aloneHint(requester.node, describeToken(dep))
    : `It is provided by ${providers.map((p) => p.path).join(' and ')}, which ${requester.node.path} cannot see (providers are visible in ` +
      `their module and its descendants only). Move the provider to a common ancestor (${commonAncestor(requester.node, providers[0]).path}), ` +
      liftHint(providers[0])
  throw moduleError('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE', { subject, token: describeToken(dep), where, hint })
}

/**
 * A feature module booted as the root (a test of one module, NestJS's Test.createTestingModule
 * habit) lacks what its real parent provides: say how a test gives it one.
 */
function aloneHint(node: ModuleNode, token: string): string {
  let root = node
  while (root.parent !== null) root = root.parent
  const name = root.type.name
  return ` If ${name} gets it from a module above it in the real app (booted alone here, as in a test), boot it under a host module that provides it: ` +
    testHostExample(token, name)
}

/**
 * A string or symbol token nothing provides is most often misspelt ('FEATURE_FLAGS_CLENT'): the closest
 * provided name of the same kind, and where it is provided. In an app of hundreds of tokens, that is the fix.
 */
function misspelt(dep: unknown, requester: Requester): string {
  if ((typeof dep !== 'string' && typeof dep !== 'symbol') || requester.namedTokens === undefined) return ''
  const match = closestTokens(dep, requester.namedTokens())[0]
  if (match === undefined) return ''
  const where = requester.providersOf(match).map((node) => node.path).join(' and ')
  return `Did you mean ${describeToken(match)} (provided by ${where})? `
}

/** A module already lifted provides into the module it is lifted into: that one is what to lift next. */
function liftHint(provider: ModuleNode): string {
  if (!provider.lifted) return `or lift() ${provider.type.name} so it provides into its parent.`
  const owner = scopeOwner(provider)
  return `or lift() ${owner.type.name}, which ${provider.type.name} is lifted into, so they provide into its parent.`
}
