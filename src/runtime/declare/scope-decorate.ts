import { runtimeError } from '../errors/runtime-codes'
import type { ScopeImpl } from './scope'
import { toDecoration, applyDecoration, type Decoration, type DecoratorTarget } from './decorations'
import { guardMiddieUse, isMiddieUse, pluginReplaceableMembers } from './missing-middleware'
import { currentOrigin, currentRegistration, registeredPluginName } from './scope-origin'
import { answerHandshakeErrorsInJson, isWsServer } from './websocket-handshake-errors'

/**
 * Which registration declared each decoration (currentRegistration()), for ENC_ERR_DEC_ALREADY_PRESENT.
 * Keyed by the decoration itself: each one is made by one decorate() call in one scope.
 */
const registrations = new WeakMap<Decoration, string>()

/**
 * An ancestor's instance decorator on a descendant scope. A value is read through from the
 * parent, so a value the ancestor reassigns later (in onReady, say) reaches every descendant, as
 * Fastify's prototype chain gives it; assigning on the descendant shadows it there only.
 */
export function inheritDecoration(target: ScopeImpl, parent: ScopeImpl, decoration: Decoration): void {
  if (decoration.kind !== 'value') { applyDecoration(target, decoration); return }
  const name = decoration.name
  Object.defineProperty(target, name, {
    get: () => (parent as unknown as Record<string | symbol, unknown>)[name],
    set: (value: unknown) => { Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false }) },
    configurable: true,
    enumerable: false,
  })
}

/**
 * While a plugin's onRegister hook runs for a new child scope: the scope whose hook it is. Such a
 * hook exists to give each child context its own copy of what the plugin declared (@fastify/express
 * re-decorates `express` with a new Express app in every child, as Fastify's docs show for
 * onRegister), so there an instance decorator declared at or below that scope may be re-declared.
 */
const forming = new WeakMap<ScopeImpl, ScopeImpl>()

/** Runs `hook` (an onRegister hook of `hookScope`) for the child scope `child` being formed. */
export function runOnRegister(child: ScopeImpl, hookScope: ScopeImpl, hook: () => unknown): void {
  forming.set(child, hookScope)
  try {
    hook()
  } finally {
    forming.delete(child)
  }
}

/** Whether `scope`, being formed, may shadow the instance decorator `name`: declared between its parent and the running hook's scope. */
function shadowsInOnRegister(scope: ScopeImpl, name: string | symbol): boolean {
  const hookScope = forming.get(scope)
  if (hookScope === undefined || scope.decorations.instance.has(name)) return false
  for (let s: ScopeImpl | null = scope.parent; s !== null; s = s.parent) {
    if (s.decorations.instance.has(name)) return true
    if (s === hookScope) return false
  }
  return false
}

/** decorate(), decorateRequest() and decorateReply() on `scope`. */
export function declareDecoration(scope: ScopeImpl, target: DecoratorTarget, name: string | symbol, value: unknown, dependencies: readonly (string | symbol)[] | undefined): void {
  const method = target === 'instance' ? 'decorate' : target === 'request' ? 'decorateRequest' : 'decorateReply'
  scope.assertDeclarable(`${method}('${String(name)}')`, target === 'instance')
  if (dependencies !== undefined) {
    if (!Array.isArray(dependencies)) {
      const got = dependencies === null ? 'null' : typeof dependencies
      throw runtimeError('ENC_ERR_DEC_DEPENDENCY_INVALID_TYPE', { call: `${method}('${String(name)}')`, path: scope.path, name: String(name), got })
    }
    const missing = dependencies.filter((d) => !hasDecoration(scope, target, d))
    if (missing.length > 0) {
      throw runtimeError('ENC_ERR_DEC_MISSING_DEPENDENCY', { call: `${method}('${String(name)}')`, path: scope.path, missing: missing.map(String) })
    }
  }
  if ((typeof name !== 'string' && typeof name !== 'symbol') || name === '' || isBuiltInMember(scope, target, name)) {
    const owner = target === 'instance' ? findDecoration(scope, 'instance', name) : undefined
    if (owner === undefined) {
      throw runtimeError('ENC_ERR_DEC_RESERVED', { call: `${method}('${String(name)}')`, path: scope.path, target: target === 'instance' ? 'scope' : target })
    }
  }
  if (target === 'instance' && name === 'use' && typeof value === 'function' && isMiddieUse(value, registeredPluginName(scope))) value = guardMiddieUse(value)
  const existing = findDecoration(scope, target, name)
  // A plugin's onRegister hook may give each child scope the very function its parent has
  // (@fastify/middie does with `use`): Fastify lets a child shadow an instance decorator,
  // Enclave refuses a different value but takes the same function as a no-op.
  if (existing !== undefined && target === 'instance' && typeof value === 'function' && !scope.decorations.instance.has(name) &&
    existing.kind === 'value' && existing.value === value) return
  if (existing !== undefined && !(target === 'instance' && shadowsInOnRegister(scope, name))) {
    // Two registrations of one plugin (or two anonymous ones) read alike: then say which register() call each was.
    const by = currentOrigin(scope)
    const first = originOf(scope, target, name)
    const alike = by === first.origin
    // The same named plugin below itself (per-module options, a NestJS habit): say so, as renaming is no fix.
    const again = alike && by.startsWith('plugin ') && by !== 'plugin anonymous' ? by : undefined
    throw runtimeError('ENC_ERR_DEC_ALREADY_PRESENT', { call: `${method}('${String(name)}')`, path: scope.path, by: alike ? currentRegistration(scope) : by, existing: alike ? { ...first, origin: first.registration } : first, again, pluginName: again === undefined ? undefined : registeredPluginName(scope) })
  }
  // @fastify/websocket's ws server: malformed handshakes answered in the JSON shape (websocket-handshake-errors.ts).
  if (target === 'instance' && name === 'websocketServer' && isWsServer(value)) answerHandshakeErrorsInJson(value)
  const decoration = toDecoration(target, name, value, scope.path)
  scope.decorations[target].set(name, decoration)
  scope.origins.set(decoration, currentOrigin(scope))
  registrations.set(decoration, currentRegistration(scope))
  if (target === 'instance') pushDown(scope, decoration)
}

function pushDown(scope: ScopeImpl, decoration: Decoration, from: ScopeImpl | null = null): void {
  if (from === null) applyDecoration(scope, decoration)
  else inheritDecoration(scope, from, decoration)
  for (const child of scope.children) if (!child.decorations.instance.has(decoration.name)) pushDown(child, decoration, scope)
}

/** Who declared the visible decoration `name` (for the error naming both sides of a clash). */
function originOf(from: ScopeImpl, target: DecoratorTarget, name: string | symbol): { origin: string; registration: string; path: string } {
  for (let scope: ScopeImpl | null = from; scope !== null; scope = scope.parent) {
    const found = scope.decorations[target].get(name)
    if (found !== undefined) {
      const origin = scope.origins.get(found) ?? scope.path
      return { origin, registration: registrations.get(found) ?? origin, path: scope.path }
    }
  }
  return { origin: 'unknown', registration: 'unknown', path: from.path }
}

/** The decoration `name` visible from `from`: its own, else the nearest ancestor's. */
export function findDecoration(from: ScopeImpl, target: DecoratorTarget, name: string | symbol): Decoration | undefined {
  for (let scope: ScopeImpl | null = from; scope !== null; scope = scope.parent) {
    const found = scope.decorations[target].get(name)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Fastify's has*Decorator() and its decorators' `dependencies` check: a decoration visible here,
 * or a built-in member of the scope, request or reply (Fastify 3 and 5 ask `name in instance`, so
 * `hasRequestDecorator('headers')` is true and a decorator may depend on `'log'`). A member
 * plugins replace (`use`, which middleware plugins decorate) counts only once decorated, so a
 * plugin's `if (!hasDecorator('use')) decorate('use', ...)` still declares it.
 */
export function hasDecoration(scope: ScopeImpl, target: DecoratorTarget, name: string | symbol): boolean {
  return findDecoration(scope, target, name) !== undefined || isBuiltInMember(scope, target, name)
}

/**
 * A member the framework defines, which a decoration may not take. `name in scope` covers
 * ScopeImpl.prototype's members too (the scope's prototype chain).
 */
function isBuiltInMember(scope: ScopeImpl, target: DecoratorTarget, name: string | symbol): boolean {
  if (pluginReplaceableMembers.has(name)) return false
  return target === 'instance' ? name in scope : typeof name === 'string' && scope.context.reservedNames[target].has(name)
}
