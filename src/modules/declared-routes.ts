import type { Scope } from '../runtime'
import type { DeclaredMethodRoute } from './declared-method-route'
import { finalUrls } from '../runtime/internal'
import { checkParamNames } from './param-names-check'
import { warnUnreadMetadata } from './unread-metadata'

/**
 * Declares a module's controller routes on its scope, then runs the checks that need the urls as
 * the runtime left them (module prefixes, a plugin's onRoute rewrite): parameter names now, the
 * metadata no guard reads at onReady.
 */
export function declareAndCheck(scope: Scope, routes: readonly DeclaredMethodRoute[]): void {
  for (const { options } of routes) {
    finalUrls.set(options, '')
    scope.route(options)
  }
  checkParamNames(routes)
  warnUnreadMetadata(scope, routes)
}
