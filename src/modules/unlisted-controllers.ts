import { getModuleMeta, unlistedRouteClasses } from '../decorators/internal'
import { moduleError } from './module-error'

/**
 * Refuses to boot while a class with route methods is listed by no module at all: its routes
 * would silently not exist. Only true orphans are reported (see src/decorators/registry.ts): a
 * controller listed by another app's module is not this app's business.
 */
export function assertNoUnlistedControllers(): void {
  const orphans = unlistedRouteClasses()
  if (orphans.length === 0) return
  const lines = orphans.map((c) => `  - ${c.name || 'an anonymous class'}` +
    (getModuleMeta(c) !== undefined ? ' (a module: modules hold no routes; move the methods to a controller class)' : ''))
  throw moduleError('ENC_ERR_MODULE_UNLISTED_CONTROLLER', `These classes have route methods (@Get, @Route, ...) but no module lists them ` +
    `as controllers, so their routes would not exist:\n${lines.join('\n')}\n` +
    "Fix: add @Route() to the class if it lacks one and list it in the controllers of the module that should serve it.")
}
