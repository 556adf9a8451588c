import { FrameworkError } from './errors/framework-error'
import { isLifted, liftedTarget } from './lift'
import { isThenable } from './hook-runner'
import { compileServer } from './compile'
import type { PluginNode, ServerContext } from './server-context'
import type { ScopeImpl } from './scope'
import { joinPrefix } from './route-declaration'
import { checkPluginMeta, readPluginMeta } from './plugin-meta'

/**
 * Records a registration under the plugin whose body is running now (or the root), so that a
 * plugin's own registrations run right after its body and before its next sibling: the order
 * users read in their code.
 */
export function enqueuePlugin(owner: ScopeImpl, plugin: Function, options: Record<string, unknown>): void {
  // `register(import('x'))` and an ES module namespace: Fastify takes the default export.
  if (isThenable(plugin)) {
    const pending = plugin as unknown as Promise<unknown>
    const deferred = async function deferredImport(this: unknown, ...args: unknown[]) {
      const loaded = moduleDefault(await pending)
      if (typeof loaded !== 'function') throw invalidPlugin(owner, loaded)
      return loaded.apply(this, args)
    }
    owner.context.currentNode.children.push({ plugin: deferred, options, owner, children: [] })
    return
  }
  plugin = moduleDefault(plugin) as Function
  if (typeof plugin !== 'function') {
    throw new FrameworkError('ENC_ERR_PLUGIN_INVALID', `register() in ${owner.path} takes a plugin function (async (scope, options) => {} or (scope, options, done) => {}), got ${plugin === null ? 'null' : typeof plugin}.`)
  }
  owner.context.currentNode.children.push({ plugin, options, owner, children: [] })
}

function moduleDefault(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { default?: unknown }).default === 'function') return (value as { default: unknown }).default
  return value
}

function invalidPlugin(owner: ScopeImpl, plugin: unknown): FrameworkError {
  return new FrameworkError('ENC_ERR_PLUGIN_INVALID', `register() in ${owner.path} takes a plugin function (async (scope, options) => {} or (scope, options, done) => {}), got ${plugin === null ? 'null' : typeof plugin}.`)
}

/** Boots once, whoever asks: runs the plugins, compiles the routes, then runs onReady hooks. */
export function bootServer(context: ServerContext): Promise<void> {
  if (context.readyPromise === null) context.readyPromise = boot(context)
  return context.readyPromise
}

async function boot(context: ServerContext): Promise<void> {
  await loadChildren(context, context.rootNode)
  context.booted = true
  compileServer(context)
  for (const scope of allScopes(context.rootScope)) {
    for (const hook of scope.hooks.own('onReady')) await callLifecycleHook(hook.fn, hook.scope, [], hook.callback, context.limits.pluginTimeout, `onReady hook in ${scope.path}`)
  }
}

export function allScopes(root: ScopeImpl): ScopeImpl[] {
  const out: ScopeImpl[] = [root]
  for (let i = 0; i < out.length; i++) out.push(...out[i].children)
  return out
}

/**
 * Loads the registrations of `node` that have not started yet, in order. Also what an awaited
 * register() or after() runs (avvio's incremental loading): a node loads once, whoever asks.
 */
export async function loadChildren(context: ServerContext, node: PluginNode): Promise<void> {
  // Indexed loop: a plugin may register more plugins on an already-loaded scope while we iterate.
  for (let i = 0; i < node.children.length; i++) {
    const child = node.children[i]
    if (child.loading === undefined) child.loading = loadPlugin(context, child)
    await child.loading
  }
}

async function loadPlugin(context: ServerContext, node: PluginNode): Promise<void> {
  const owner = node.owner as ScopeImpl
  const plugin = node.plugin as Function
  const meta = readPluginMeta(liftedTarget(plugin))
  checkPluginMeta(meta, owner)
  if (meta.registeredName !== null) owner.pluginNames.push(meta.registeredName)
  let scope = owner
  // fastify-plugin's skip-override is Fastify's spelling of lift(): the plugin runs in the
  // registering scope. Its `prefix` stays the plugin's own option (Fastify's rule, which
  // @fastify/static's documented `prefix` relies on): no scope, so no framework prefix.
  if (!isLifted(plugin) && !meta.skipOverride) {
    const prefix = typeof node.options.prefix === 'string' ? joinPrefix(owner.prefix, node.options.prefix) : owner.prefix
    scope = owner.createChild(meta.name, prefix)
    for (let s: ScopeImpl | null = owner; s !== null; s = s.parent) {
      for (const hook of s.hooks.own('onRegister')) hook.fn.call(hook.scope, scope, node.options)
    }
  }
  const previous = context.currentNode
  context.currentNode = node
  try {
    await callLifecycleHook(plugin, undefined, [scope, node.options], plugin.length >= 3, context.limits.pluginTimeout, `plugin ${scope.path}`)
  } finally {
    context.currentNode = previous
  }
  await loadChildren(context, node)
}

/**
 * Calls an async or callback-style function; a callback that never comes fails after `timeout`
 * ms. A function that declares `done` and also returns a promise (an async plugin with three
 * parameters) is finished by whichever comes first, as in avvio: its rejection must not be lost.
 */
export function callLifecycleHook(fn: Function, thisArg: unknown, args: unknown[], callback: boolean, timeout: number, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (callback) {
      const timer = setTimeout(() => reject(new FrameworkError('ENC_ERR_PLUGIN_TIMEOUT',
        `${what} did not call done() within ${timeout} ms. Call done() when it has finished, or make it async.`)), timeout)
      const done = (error?: Error | null): void => { clearTimeout(timer); if (error) reject(error); else resolve() }
      try {
        const result = fn.call(thisArg, ...args, done)
        if (isThenable(result)) result.then(() => done(), (error: unknown) => done(error as Error ?? new Error(`${what} rejected`)))
      } catch (error) {
        clearTimeout(timer)
        reject(error)
      }
      return
    }
    try {
      const result = fn.call(thisArg, ...args)
      if (isThenable(result)) result.then(() => resolve(), reject)
      else resolve()
    } catch (error) {
      reject(error)
    }
  })
}
