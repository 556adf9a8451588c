import { getModuleMeta, unlistedRouteClasses } from '../decorators/internal'
import { moduleError } from './module-error'

/**
 * Refuses to boot while a class has route methods but neither a class-level @Route() nor a
 * module listing it: its routes would silently not exist, in any app (see
 * src/decorators/registry.ts for why complete but unlisted controllers are not reported).
 */
export function assertNoUnlistedControllers(): void {
  const orphans = unlistedRouteClasses()
  if (orphans.length === 0) return
  const lines = orphans.map((c) => `  - ${c.name || 'an anonymous class'}` +
    (getModuleMeta(c) !== undefined ? ' (a module: modules hold no routes; move the methods to a controller class)' : ''))
  throw moduleError('ENC_ERR_MODULE_UNLISTED_CONTROLLER', `These classes have route methods (@Get, @Route, ...) but no class-level @Route() ` +
    `and no module lists them as controllers, so their routes would not exist:\n${lines.join('\n')}\n` +
    "Fix: add @Route() to the class and list it in the controllers of the module that should serve it " +
    '(a base class of a listed controller counts as listed).')
}
