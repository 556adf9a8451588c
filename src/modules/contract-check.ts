import { contractError } from '../contract/contract-codes'
import type { Contract } from '../contract/define-contract'
import { getOwnImplementations } from '../decorators/implements'
import { collectRoutes } from './controller-routes'
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
      // The routes the controller serves (a method a subclass declares again replaces its base's),
      // each method once however many routes it declares.
      const served = new Map<Function, Set<string | symbol>>()
      for (const { declaringClass, route } of collectRoutes(controller)) {
        served.set(declaringClass, (served.get(declaringClass) ?? new Set()).add(route.propertyKey))
      }
      for (const [declaringClass, keys] of served) {
        for (const { propertyKey, membership } of getOwnImplementations(declaringClass)) {
          if (!keys.has(propertyKey)) continue
          const routes = byContract.get(membership.contract) ?? new Map<string, string[]>()
          byContract.set(membership.contract, routes)
          routes.set(membership.name, [...(routes.get(membership.name) ?? []), `${controller.name}.${String(propertyKey)} in ${node.path}`])
        }
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
