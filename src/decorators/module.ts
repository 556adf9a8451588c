import 'reflect-metadata' // before tsyringe, which refuses to load without it
import { injectable } from 'tsyringe'
import { assertLegacyDecorator } from './declaration-error'
import { toModuleMeta } from './module-options'
import { setModuleMeta } from './metadata'
import type { NestModuleKeys } from './module-option-hints'
import type { ModuleOptions, PluginEntry } from './types'

// `P` has no default on purpose: a default of [] becomes the contextual type of the list while it
// is inferred, and a lone generic-call entry (`plugins: [lift(Child)]`) was then typed undefined.
/**
 * Declares a module: one encapsulation context (spec §3.3) holding its controllers' routes,
 * its providers, schemas, request decorators, hooks and error handler. Children listed in
 * `plugins` run in child contexts and see everything of this module; the reverse never holds.
 * The module class itself is instantiated once at boot, with constructor injection, so its
 * `@Hook()` and `@ErrorHandler()` methods can use providers.
 *
 * @example
 * @DecorateRequest('foo', 'foo')
 * @Module({ plugins: [GrandchildModule, bearerAuth({ keys })], controllers: [TwoController], prefix: '/v1' })
 * class PublicModule {}
 */
export function Module<P extends readonly PluginEntry[]>(options?: ModuleOptions<P> & NestModuleKeys): ClassDecorator {
  // The second parameter is only there to be checked: a standard decorator's context (declaration-error.ts).
  return ((target: Function, context?: unknown) => {
    assertLegacyDecorator('@Module()', context)
    const meta = toModuleMeta(target.name, options)
    setModuleMeta(target, meta)
    injectable()(target as never)
  }) as ClassDecorator
}
