import { getControllerMeta, getModuleMeta, getOwnRoutes } from '../decorators/internal'
import { moduleError } from './module-error'
import { walk, type ModuleNode } from './module-tree'

/**
 * Refuses to boot while a class the module tree reaches has route methods but no class-level
 * @Route(): a module class (modules hold no routes) or a provider class (probably meant as a
 * controller); or a @Route() class listed in providers and in no module's controllers. Its routes
 * would silently not exist. Only what this app's tree reaches is
 * checked: a stray class elsewhere in the process is another app's business, and no record of
 * declarations is kept across apps (listed controllers without @Route() are refused by scan.ts).
 */
export function assertNoUnlistedControllers(tree: ModuleNode): void {
  const orphans: Array<{ type: Function; where: string; module: boolean }> = []
  const seen = new Set<Function>()
  const listed = new Set<Function>()
  for (const node of walk(tree)) for (const controller of node.controllers) listed.add(controller)
  for (const node of walk(tree)) {
    const candidates: Array<[Function, boolean]> = [[node.type, true]]
    for (const provider of node.meta.providers) {
      const type = typeof provider === 'function' ? provider : 'useClass' in provider ? provider.useClass : null
      if (type !== null) candidates.push([type, false])
    }
    for (const [type, module] of candidates) {
      if (seen.has(type)) continue
      seen.add(type)
      if (!hasRouteMethods(type)) continue
      // A @Route() class listed in providers only (NestJS would not map it either): served by nobody.
      if (getControllerMeta(type) === undefined || (!module && !isListed(type, listed))) orphans.push({ type, where: node.path, module })
    }
  }
  if (orphans.length === 0) return
  const lines = orphans.map((o) => `  - ${o.type.name || 'an anonymous class'}` +
    (o.module || getModuleMeta(o.type) !== undefined ? ' (a module: modules hold no routes; move the methods to a controller class)'
      : getControllerMeta(o.type) !== undefined ? ` (a controller, with @Route(), listed in the providers of ${o.where} and in no module's controllers: move it to controllers)`
        : ` (a provider of ${o.where})`))
  throw moduleError('ENC_ERR_MODULE_UNLISTED_CONTROLLER', { lines })
}

/** Listed as a controller, or the base class of one (its routes are served through the subclass). */
function isListed(type: Function, listed: ReadonlySet<Function>): boolean {
  for (const controller of listed) {
    for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) if (c === type) return true
  }
  return false
}

/** Own or inherited route methods. */
function hasRouteMethods(type: Function): boolean {
  for (let c: unknown = type; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (getOwnRoutes(c as Function).length > 0) return true
  }
  return false
}
