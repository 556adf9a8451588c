import { FrameworkError } from './errors/framework-error'
import { isLifted, lift, liftedTarget } from './lift'
import { isThenable } from './hook-runner'
import { compileServer } from './compile'
import type { PluginNode, ServerContext } from './server-context'
import type { ScopeImpl } from './scope'
import { joinPrefix } from './route-declaration'

/**
 * Records a registration under the plugin whose body is running now (or the root), so that a
 * plugin's own registrations run right after its body and before its next sibling: the order
 * users read in their code.
 */
export function enqueuePlugin(owner: ScopeImpl, plugin: Function, options: Record<string, unknown>): void {
  if (typeof plugin !== 'function') {
    throw new FrameworkError('ENC_ERR_PLUGIN_INVALID', `register() in ${owner.path} takes a plugin function (async (scope, options) => {} or (scope, options, done) => {}), got ${plugin === null ? 'null' : typeof plugin}.`)
  }
  owner.context.currentNode.children.push({ plugin, options, owner, children: [] })
}

/**
 * Queues `run` behind the registrations already queued in the plugin body running now, as
 * avvio's after() does: `register(lift(auth)); addHook('preHandler', guard)` then adds auth's
 * hooks before guard, the order the user wrote. Runs in `owner`, as a lifted step.
 */
export function enqueueDeferred(owner: ScopeImpl, run: () => void): void {
  const step = lift(function deferredDeclaration(): void { run() })
  owner.context.currentNode.children.push({ plugin: step, options: {}, owner, children: [] })
}

/** True when the plugin body running now (or the root) has registrations not loaded yet. */
export function hasPendingRegistrations(owner: ScopeImpl): boolean {
  return owner.context.currentNode.children.length > 0
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

async function loadChildren(context: ServerContext, node: PluginNode): Promise<void> {
  // Indexed loop: a plugin may register more plugins on an already-loaded scope while we iterate.
  for (let i = 0; i < node.children.length; i++) await loadPlugin(context, node.children[i])
}

async function loadPlugin(context: ServerContext, node: PluginNode): Promise<void> {
  const owner = node.owner as ScopeImpl
  const plugin = node.plugin as Function
  let scope = owner
  if (!isLifted(plugin)) {
    const target = liftedTarget(plugin)
    const prefix = typeof node.options.prefix === 'string' ? joinPrefix(owner.prefix, node.options.prefix) : owner.prefix
    scope = owner.createChild(target.name === '' ? 'anonymous' : target.name, prefix)
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
