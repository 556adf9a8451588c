import type { ScopeImpl } from './scope'
import { assertHook } from './hooks'
import { requestHookNames } from '../shared/bound-hook'
import { currentOrigin, registeredPluginName } from './scope-origin'
import type { HookName } from '../types'

/** addHook() on `scope`. */
export function addHook(scope: ScopeImpl, name: HookName, fn: Function): void {
  scope.assertDeclarable(`addHook('${name}')`)
  assertHook(name, fn, scope.path)
  // A request hook declared after register() calls takes its place after what those plugins
  // add (lifted plugins' hooks land in this scope): Fastify's order. App hooks (onRoute ...)
  // apply at once, since routes are recorded at once. Its origin is the declaring plugin's now.
  const origin = currentOrigin(scope)
  if ((requestHookNames as readonly string[]).includes(name) && scope.context.plugins.hasPending()) {
    scope.context.plugins.enqueueDeferred(scope, () => { scope.origins.set(scope.hooks.add(name, fn, scope as never), origin) })
  } else {
    const bound = scope.hooks.add(name, fn, scope as never)
    scope.origins.set(bound, origin)
    const plugin = name === 'onRoute' ? registeredPluginName(scope) : null
    if (plugin !== null) scope.onRouteHookPlugins.set(bound, plugin)
  }
}
