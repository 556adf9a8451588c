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
  // Listed controllers and their base classes (whose routes are served through the subclass).
  const listed = new Set<Function>()
  for (const node of walk(tree)) for (const controller of node.controllers) for (const c of classChain(controller)) listed.add(c)
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
      if (getControllerMeta(type) === undefined || (!module && !listed.has(type))) orphans.push({ type, where: node.path, module })
    }
  }
  if (orphans.length === 0) return
  const lines = orphans.map((o) => `  - ${o.type.name || 'an anonymous class'}` +
    (o.module || getModuleMeta(o.type) !== undefined ? ' (a module: modules hold no routes; move the methods to a controller class)'
      : getControllerMeta(o.type) !== undefined ? ` (a controller, with @Route(), listed in the providers of ${o.where} and in no module's controllers: move it to controllers)`
        : ` (a provider of ${o.where})`))
  throw moduleError('ENC_ERR_MODULE_UNLISTED_CONTROLLER', { lines })
}

/** A class and the classes it extends. */
function* classChain(type: Function): Generator<Function> {
  for (let c: unknown = type; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) yield c as Function
}

/** Own or inherited route methods. */
function hasRouteMethods(type: Function): boolean {
  for (const c of classChain(type)) if (getOwnRoutes(c).length > 0) return true
  return false
}
