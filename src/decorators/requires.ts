import { liftMetaOf } from '../runtime/shared/lift-marks'
import { declarationError } from './declaration-error'
import { addRequiredPlugins } from './metadata'

/**
 * `@Requires(workspace)` on a controller: its routes rely on the decorations of these typed plugins
 * (`lift(plugin, { name, provides })`), which `RequestWith<typeof workspace>` types for `@Req()`.
 * At boot, a controller whose module and its ancestors register none of that name fails
 * (ENC_ERR_MODULE_PLUGIN_REQUIRED): that check is what makes the type true at run time.
 */
export function Requires(...plugins: readonly Function[]): ClassDecorator {
  const names = plugins.map((plugin) => {
    const name = liftMetaOf(plugin)?.name
    if (name === undefined) {
      throw declarationError('ENC_ERR_DECL_TARGET', { where: '@Requires()', case: 'requires-arg', got: describe(plugin) })
    }
    return name
  })
  return (target) => { addRequiredPlugins(target, names) }
}

function describe(value: unknown): string {
  if (typeof value === 'function') return `${value.name || 'an anonymous function'} (not lifted with a name)`
  return value === null ? 'null' : typeof value
}
