import { constructorDependencies } from '../decorators/internal'
import { walk, type ModuleNode } from './module-tree'
import { describeToken } from './module-error'
import { injectionTarget } from './injection-target'
import { toProviderSpec } from './providers'

/**
 * Who in the tree injects `token`: `provider OrdersService in OrdersModule (constructor
 * parameter 0)`. For the hint of an override that names a token no module provides: when
 * something injects it, the tree expects it from outside (a module booted alone, as in a test),
 * which an override cannot supply. First match per class, in tree order.
 */
export function dependentsOf(root: ModuleNode, token: unknown): string[] {
  const found: string[] = []
  const inClass = (target: Function, what: string, node: ModuleNode): void => {
    const index = (constructorDependencies(target) ?? []).findIndex((dep) => tokenOf(dep) === token)
    if (index >= 0) found.push(`${what} in ${node.path} (constructor parameter ${index})`)
  }
  for (const node of walk(root)) {
    inClass(node.type, `module ${node.type.name}`, node)
    for (const spec of node.meta.providers.map(toProviderSpec)) {
      const what = `provider ${describeToken(spec.token)}`
      if (spec.useClass !== null) inClass(spec.useClass, what, node)
      const index = spec.inject.findIndex((dep) => tokenOf(dep) === token)
      if (index >= 0) found.push(`factory ${what} in ${node.path} (inject[${index}])`)
    }
    for (const controller of node.controllers) inClass(controller, `controller ${controller.name}`, node)
    for (const entry of node.entries) {
      if (entry.kind !== 'plugin' || entry.deferred === null) continue
      const index = entry.deferred.inject.findIndex((dep) => tokenOf(dep) === token)
      if (index >= 0) found.push(`usePlugin(${entry.plugin.name || 'anonymous plugin'}) in ${node.path} (inject[${index}])`)
    }
  }
  return found
}

/** The token a dependency names (a descriptor's inside one); undefined for a delay(). */
function tokenOf(dep: unknown): unknown {
  const target = injectionTarget(dep)
  return target.kind === 'token' ? target.token : undefined
}
