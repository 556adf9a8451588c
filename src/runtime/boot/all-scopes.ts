import type { ScopeImpl } from '../declare/scope'

/** Every scope, breadth first from `root`: parents before children. */
export function allScopes(root: ScopeImpl): ScopeImpl[] {
  const out: ScopeImpl[] = [root]
  for (let i = 0; i < out.length; i++) out.push(...out[i].children)
  return out
}

/** Every scope, depth first from `root`, each before its children: the order Fastify runs onReady and preClose hooks in, and (reversed) onClose hooks. */
export function scopesDepthFirst(root: ScopeImpl): ScopeImpl[] {
  return [root, ...root.children.flatMap(scopesDepthFirst)]
}
