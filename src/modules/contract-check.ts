import { contractError } from '../contract/contract-codes'
import type { Contract } from '../contract/define-contract'
import { getOwnImplementations } from '../decorators/implements'
import { getOwnRoutes } from '../decorators/internal'
import { walk, type ModuleNode } from './module-tree'

/**
 * The boot check of `@Implements()`: every contract any controller of the app implements has each
 * of its routes implemented exactly once across the module tree. Static (it reads declarations,
 * before any plugin runs), so the error comes before anything is built.
 */
export function assertContractsImplemented(tree: ModuleNode): void {
  const byContract = new Map<Contract, Map<string, string[]>>()
  for (const node of walk(tree)) {
    for (const controller of node.controllers) {
      // A method a subclass declares again replaces its base's routes (controller-routes.ts): read the nearest.
      const seen = new Set<string | symbol>()
      for (let type: Function | null = controller; type !== null && type !== Object && type !== Function.prototype; type = Object.getPrototypeOf(type) as Function | null) {
        for (const { propertyKey, membership } of getOwnImplementations(type)) {
          if (seen.has(propertyKey)) continue
          seen.add(propertyKey)
          const routes = byContract.get(membership.contract) ?? new Map<string, string[]>()
          byContract.set(membership.contract, routes)
          routes.set(membership.name, [...(routes.get(membership.name) ?? []), `${controller.name}.${String(propertyKey)} in ${node.path}`])
        }
        for (const route of getOwnRoutes(type)) seen.add(route.propertyKey)
      }
    }
  }
  for (const [contract, routes] of byContract) {
    for (const [name, by] of routes) if (by.length > 1) throw contractError('ENC_ERR_CONTRACT_DUPLICATE', { route: name, by })
    const missing = Object.keys(contract).filter((name) => !routes.has(name))
    if (missing.length > 0) {
      const [first] = [...routes.values()][0]
      throw contractError('ENC_ERR_CONTRACT_UNIMPLEMENTED', { where: `The contract implemented by ${first}`, missing })
    }
  }
}
