import type { RouteInspection, Scope } from '../runtime'
import { reportBootWarnings, isSilentLogger } from '../runtime/internal'
import type { DeclaredMethodRoute } from './declared-method-route'

/**
 * `@Roles(['admin'])` (any routeMetadata() / SetMetadata value) on a route that nothing reads. The
 * metadata is read by a guard that was meant to be attached (`@OnRequest(RolesGuard)` forgotten,
 * NestJS's `@UseGuards` habit), so the route is open while it reads as protected. A boot warning,
 * not an error: the handler itself could read it (Reflector), however odd.
 * What counts as a reader: a hook that runs before the handler (onRequest to preHandler, where a
 * guard refuses) declared by module code (a guard, an interceptor, a module @Hook()), or any hook
 * described as security or a refusal. Hooks that plugins add to every route (@fastify/cookie's,
 * cors', helmet's onRequest) read no route metadata, so they do not silence it.
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
      // This scope's own routes only: a same-named controller elsewhere (v1 and v2 AdminController)
      // or another mount of this module is judged by its own declaration.
      const served = inspected.filter((r) => r.handler === name && !r.implicit && r.scope === scope.path)
      if (served.length === 0 || served.some(isRead)) continue
      const keys = unreadMetadata!.map((k) => `'${k}'`).join(', ')
      const route = `${served[0].method} ${served[0].url}`
      warnings.push({
        code: 'ENC_WARN_ROUTE_METADATA_UNREAD' as const,
        fields: { route, handler: name, keys: unreadMetadata, module: served[0].origin },
        message: `route ${route} (${name}, in ${served[0].origin}) carries route metadata ${keys} (routeMetadata(), SetMetadata, Reflector.createDecorator), but no guard, hook or interceptor of the app runs on it to read it (plugins' hooks such as cookie, cors or helmet do not read route metadata), so it changes nothing: the route is served to everyone. ` +
          'Attach the guard that reads it (@OnRequest(RolesGuard) on the method, the controller or the module; NestJS\'s @UseGuards), or remove the metadata.',
      })
    }
    reportBootWarnings(warnings, scope.log, isSilentLogger(scope.log))
  })
}

const GATES = new Set(['onRequest', 'preParsing', 'preValidation', 'preHandler'])

function isRead(route: RouteInspection): boolean {
  if (route.security.length > 0 || route.refusals.length > 0) return true
  return route.hooks.some((hook) => GATES.has(hook.name) && !hook.origin.startsWith('plugin '))
}
