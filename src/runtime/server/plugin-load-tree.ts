import type { PluginNode } from '../declare/plugin-tree'
import type { PluginLoadInspection } from '../inspect/print-plugins'
import { readPluginMeta } from '../shared/plugin-meta'
import { isLifted } from '../declare/lift'

/** The plugin tree as printPlugins shows it: plugins by name (lifted ones marked), after() steps, no internal steps. */
export function pluginLoadTree(node: PluginNode, name: string): PluginLoadInspection {
  const children = node.children.filter((child) => child.internal !== true).map((child) => {
    if (child.plugin === null) return pluginLoadTree(child, 'after()')
    const meta = readPluginMeta(child.plugin)
    return pluginLoadTree(child, isLifted(child.plugin) || meta.skipOverride ? `${meta.name} (lifted)` : meta.name)
  })
  return { name, ms: node.loadMs ?? null, children }
}
