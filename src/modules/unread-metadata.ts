import type { Scope } from '../runtime'
import { reportBootWarnings, isSilentLogger } from '../runtime/internal'
import type { DeclaredMethodRoute } from './param-names-check'

/**
 * `@Roles(['admin'])` (any routeMetadata() / SetMetadata value) on a route that nothing reads: no
 * hook of any stage (route, controller, module, scope or plugin) and no interceptor. The metadata is
 * read by a guard that was meant to be attached (`@OnRequest(RolesGuard)` forgotten, NestJS's
 * `@UseGuards` habit), so the route is open while it reads as protected. A boot warning, not an
 * error: only a guard that runs can read it, but the handler itself could (Reflector), however odd.
 * The route's own hooks are known when it is declared; the scope's only after boot, from the
 * inspection model, so the check is an onReady hook, added only where a route is a suspect.
 */
export function warnUnreadMetadata(scope: Scope, routes: readonly DeclaredMethodRoute[]): void {
  const suspects = routes.filter((r) => r.unreadMetadata !== undefined)
  if (suspects.length === 0) return
  scope.addHook('onReady', async function () {
    const inspected = scope.inspect().routes
    const warnings = []
    for (const { options, unreadMetadata } of suspects) {
      const name = (options.handler as Function).name
      const served = inspected.filter((r) => r.handler === name && !r.implicit)
      if (served.length === 0 || served.some((r) => r.hooks.length > 0)) continue
      const keys = unreadMetadata!.map((k) => `'${k}'`).join(', ')
      const route = `${served[0].method} ${served[0].url}`
      warnings.push({
        code: 'ENC_WARN_ROUTE_METADATA_UNREAD' as const,
        fields: { route, handler: name, keys: unreadMetadata },
        message: `route ${route} (${name}) carries route metadata ${keys} (routeMetadata(), SetMetadata, Reflector.createDecorator), but no guard, hook or interceptor runs on it to read it, so it changes nothing: the route is served to everyone. ` +
          'Attach the guard that reads it (@OnRequest(RolesGuard) on the method, the controller or the module; NestJS\'s @UseGuards), or remove the metadata.',
      })
    }
    reportBootWarnings(warnings, scope.log, isSilentLogger(scope.log))
  })
}
