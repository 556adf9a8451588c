import { isLifted, liftedTarget } from '../declare/lift'
import { joinRoutePrefix, trimPrefix } from '../declare/route-declaration'
import { prefixedView } from '../declare/prefixed-view'
import { liftedRoutePrefix } from './registration-prefix'
import type { PluginNode } from '../declare/plugin-tree'
import type { ScopeImpl } from '../declare/scope'
import { compileServer } from './compile'
import { allScopes } from './all-scopes'
import { callLifecycleHook } from './lifecycle-hook'
import type { BootContext } from './boot-context'
import { checkPluginMeta, readPluginMeta } from '../shared/plugin-meta'

/**
 * Boot, in order: run the plugins (each registration in the order users read it), close
 * declarations, compile every route into the serve context, then run onReady hooks.
 * Called once per server by server/lifecycle.ts, whoever asks first.
 */
export async function bootServer(boot: BootContext): Promise<void> {
  await loadChildren(boot, boot.declared.plugins.root)
  boot.declared.booted = true
  compileServer(boot)
  boot.compiled = true
  for (const scope of allScopes(boot.rootScope)) {
    for (const hook of scope.hooks.own('onReady')) await callLifecycleHook(hook.fn, hook.scope, [], hook.callback, boot.pluginTimeout, `onReady hook in ${scope.path}`)
  }
}

/**
 * Loads the registrations of `node` that have not started yet, in order. Also what an awaited
 * register() or scope runs (avvio's incremental loading): a node loads once, whoever asks.
 */
export async function loadChildren(boot: BootContext, node: PluginNode): Promise<void> {
  // Indexed loop: a plugin may register more plugins on an already-loaded scope while we iterate.
  for (let i = 0; i < node.children.length; i++) {
    const child = node.children[i]
    if (child.loading === undefined) child.loading = loadPlugin(boot, child)
    await child.loading
  }
}

async function loadPlugin(boot: BootContext, node: PluginNode): Promise<void> {
  const owner = node.owner as ScopeImpl
  const plugin = node.plugin as Function
  const meta = readPluginMeta(liftedTarget(plugin))
  checkPluginMeta(meta, owner)
  if (meta.registeredName !== null) owner.pluginNames.push(meta.registeredName)
  let scope = owner
  // fastify-plugin's skip-override is Fastify's spelling of lift(): the plugin runs in the
  // registering scope. A plugin wrapped by fastify-plugin keeps Fastify's prefix rule
  // (registration-prefix.ts): `prefix` is its own option (@fastify/static's documented one).
  if (isLifted(plugin) || meta.skipOverride) {
    const own = liftedRoutePrefix(plugin, node.options)
    const routePrefix = own === null ? owner.routePrefix : joinRoutePrefix(owner.routePrefix, own)
    if (routePrefix !== owner.routePrefix) scope = prefixedView(owner, routePrefix)
  } else {
    const routePrefix = typeof node.options.prefix === 'string' ? joinRoutePrefix(owner.routePrefix, node.options.prefix) : owner.routePrefix
    scope = owner.createChild(meta.name, trimPrefix(routePrefix), routePrefix)
    for (let s: ScopeImpl | null = owner; s !== null; s = s.parent) {
      for (const hook of s.hooks.own('onRegister')) hook.fn.call(hook.scope, scope, node.options)
    }
  }
  const plugins = boot.declared.plugins
  const previous = plugins.current
  plugins.current = node
  try {
    await callLifecycleHook(plugin, undefined, [scope, node.options], plugin.length >= 3, boot.pluginTimeout, `plugin ${scope.path}`)
  } finally {
    plugins.current = previous
  }
  await loadChildren(boot, node)
}
