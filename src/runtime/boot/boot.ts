import { isLifted, liftedTarget } from '../declare/lift'
import { joinRoutePrefix, trimPrefix } from '../declare/route-declaration'
import { prefixedView } from '../declare/prefixed-view'
import { runOnRegister } from '../declare/scope-decorate'
import { liftedRoutePrefix } from './registration-prefix'
import type { PluginNode } from '../declare/plugin-tree'
import type { ScopeImpl } from '../declare/scope'
import { checkRegisterOptions, isSerializerMap } from '../declare/route-option-checks'
import type { LogSerializers } from '../types'
import { compileServer } from './compile'
import { scopesDepthFirst } from './all-scopes'
import { callLifecycleHook } from './lifecycle-hook'
import { runtimeError } from '../errors/runtime-codes'
import type { BootContext } from './boot-context'
import { checkPluginMeta, checkProvided, encapsulatedPluginName, readPluginMeta } from '../shared/plugin-meta'
import { isThenable } from '../shared/thenable'

/**
 * Boot, in order: run the plugins (each registration in the order users read it), close
 * declarations, compile every route into the serve context, then run onReady hooks.
 * Called once per server by server/lifecycle.ts, whoever asks first.
 */
export async function bootServer(boot: BootContext, milestones: BootMilestones): Promise<void> {
  const started = performance.now()
  await loadChildren(boot, boot.declared.plugins.root)
  boot.declared.plugins.root.loadMs = performance.now() - started
  boot.declared.booted = true
  compileServer(boot)
  boot.compiled = true
  // The schema cache (schemaCache option) keeps what this boot compiled; with every route compiled,
  // only what this app uses (entries of changed schemas are dropped).
  const complete = boot.profile.pending === 0
  boot.schemaCompilers.codeCache?.flush(complete)
  if (complete) boot.schemaCompilers.codeCache?.release()
  await milestones.loaded()
  await milestones.runOnReadyHooks(async () => {
    // Depth first, each scope before its children, as Fastify 3's hookRunnerApplication walks the
    // plugin tree (a child's hooks before its parent's next sibling's).
    for (const scope of scopesDepthFirst(boot.rootScope)) {
      for (const hook of scope.hooks.own('onReady')) await callLifecycleHook(hook.fn, hook.scope, [], hook.callback, boot.pluginTimeout, `onReady hook in ${scope.path}`)
    }
  })
  // Instance decorators stay declarable until here (an onReady hook may add one, as in Fastify).
  boot.declared.started = true
}

export interface BootMilestones {
  /** Every plugin loaded and every route compiled; the onReady hooks run once it resolves. */
  loaded(): Promise<void>
  /** Runs the onReady hooks, so that a ready() they call can tell it is called from inside them. */
  runOnReadyHooks(run: () => Promise<void>): Promise<void>
}

/**
 * Loads the registrations of `node` that have not started yet, in order. Also what an awaited
 * register() or scope runs (avvio's incremental loading): a node loads once, whoever asks.
 * A plugin that fails does not stop the walk at once (avvio's model): the plugins after it are
 * skipped, and the next after() step gets the error and may handle it. What is left unhandled
 * rejects ready() (and the awaited register()).
 */
export async function loadChildren(boot: BootContext, node: PluginNode): Promise<void> {
  await loadQueued(boot, node)
  throwPendingFailure(boot)
}

async function loadQueued(boot: BootContext, node: PluginNode): Promise<void> {
  // Indexed loop: a plugin may register more plugins on an already-loaded scope while we iterate.
  for (let i = 0; i < node.children.length; i++) {
    const child = node.children[i]
    if (child.loading === undefined) {
      const failure = boot.failure
      const started = performance.now()
      const timed = (): void => { child.loadMs = performance.now() - started }
      if (child.after !== null) {
        boot.failure = null
        child.loading = runAfter(boot, child, failure).catch((error: unknown) => { boot.failure = { error } }).finally(timed)
      } else if (failure !== null) {
        child.loading = Promise.resolve()
      } else {
        child.loading = loadPlugin(boot, child).catch((error: unknown) => { boot.failure = { error } }).finally(timed)
      }
    }
    await child.loading
  }
}

function throwPendingFailure(boot: BootContext): void {
  if (boot.failure !== null) throw boot.failure.error
}

/**
 * An after() step, in avvio's forms: `()` leaves a pending error to the next step, `(error)`
 * handles it, `(error, done)` and `(error, scope, done)` pass on what they give `done`.
 */
async function runAfter(boot: BootContext, node: PluginNode, failure: BootContext['failure']): Promise<void> {
  const fn = node.after as Function
  const scope = node.owner as ScopeImpl
  const error = failure === null ? null : failure.error
  const plugins = boot.declared.plugins
  const previous = plugins.current
  plugins.current = node
  try {
    const args = fn.length === 0 ? [] : fn.length <= 2 ? [error] : [error, scope]
    await callLifecycleHook(fn, scope, args, fn.length >= 2, boot.pluginTimeout, `after() callback in ${scope.path}`)
  } finally {
    plugins.current = previous
  }
  if (fn.length === 0 && failure !== null) boot.failure = failure
  await loadQueued(boot, node)
}

async function loadPlugin(boot: BootContext, node: PluginNode): Promise<void> {
  const owner = node.owner as ScopeImpl
  if (node.imported !== undefined) node.plugin = await node.imported()
  const plugin = node.plugin as Function
  const meta = readPluginMeta(plugin)
  checkPluginMeta(meta, owner)
  if (meta.registeredName !== null) owner.pluginNames.push(meta.registeredName)
  if (meta.ownName !== null) owner.pluginNames.push(meta.ownName)
  let scope = owner
  // fastify-plugin's skip-override is Fastify's spelling of lift(): the plugin runs in the
  // registering scope. A plugin wrapped by fastify-plugin keeps Fastify's prefix rule
  // (registration-prefix.ts): `prefix` is its own option (@fastify/static's documented one).
  if (isLifted(plugin) || meta.skipOverride) {
    const own = liftedRoutePrefix(plugin, node.options)
    const routePrefix = own === null ? owner.routePrefix : joinRoutePrefix(owner.routePrefix, own)
    if (routePrefix !== owner.routePrefix) scope = prefixedView(owner, routePrefix)
    if (meta.displayName !== null) owner.pluginNameChain.push(meta.displayName)
  } else {
    checkRegisterOptions(node.options, meta.name, owner.path)
    const routePrefix = typeof node.options.prefix === 'string' ? joinRoutePrefix(owner.routePrefix, node.options.prefix) : owner.routePrefix
    scope = owner.createChild(meta.name, trimPrefix(routePrefix), routePrefix)
    // Fastify 3 (pluginOverride): a registration's logLevel becomes the default of its routes.
    // So do its logSerializers, over the parent's.
    const { logLevel, logSerializers } = node.options as { logLevel?: unknown; logSerializers?: unknown }
    if (typeof logLevel === 'string' && logLevel !== '') scope.logLevel = logLevel
    if (isSerializerMap(logSerializers)) scope.logSerializers = { ...scope.logSerializers, ...(logSerializers as LogSerializers) }
    scope.pluginNameChain.push(encapsulatedPluginName(liftedTarget(plugin), meta))
    for (let s: ScopeImpl | null = owner; s !== null; s = s.parent) {
      for (const hook of s.hooks.own('onRegister')) runOnRegister(scope, s, () => hook.fn.call(hook.scope, scope, node.options))
    }
  }
  const plugins = boot.declared.plugins
  const previous = plugins.current
  plugins.current = node
  try {
    // Fastify's options function: called with the plugin's own scope (the registering one when
    // lifted) once it exists, so the prefix cannot come from its result: as in Fastify, it is the
    // function's own `prefix` property, read above (@fastify/autoload sets autoConfig.prefix so).
    const options: unknown = typeof node.options === 'function' ? (node.options as Function)(scope) ?? {} : node.options
    await callLifecycleHook(plugin.length >= 3 ? plugin : refusingFactoryResult(plugin, scope.path), undefined, [scope, options], plugin.length >= 3, boot.pluginTimeout, `plugin ${scope.path}`)
  } finally {
    plugins.current = previous
  }
  await loadQueued(boot, node)
  // After its own registrations: a plugin may make its decorations through a lifted helper. A
  // failure among them is the error to report, not the promise it kept the plugin from keeping.
  if (boot.failure === null) checkProvided(meta, scope)
}

/**
 * A plugin without `done` that returns a function: `register(rateLimitFactory)` where
 * `register(rateLimitFactory(options))` was meant. Enclave finishes such a plugin when it returns,
 * so its routes and hooks were silently never declared (Fastify 3's avvio waits for a done that
 * never comes: a plugin timeout ten seconds later; an async plugin's resolved value it ignores, so
 * that one boots with nothing declared). Refused at once, naming the fix (README differences).
 */
function refusingFactoryResult(plugin: Function, path: string): Function {
  const refuse = (result: unknown): unknown => {
    if (typeof result === 'function') throw runtimeError('ENC_ERR_PLUGIN_RETURNED_FUNCTION', { path, name: plugin.name, returned: result.name })
    return result
  }
  return function (this: unknown, ...args: unknown[]): unknown {
    const result: unknown = plugin.apply(this, args)
    // An async factory (`register(async (opts) => rateLimit)`) is the same slip, resolved later.
    return isThenable(result) ? Promise.resolve(result).then(refuse) : refuse(result)
  }
}
