import type { ProvidedOf, WithProvided } from './shared/provided'
import type { Reply, Request } from './types'

/**
 * The request of a route whose controller requires `Plugin` (`@Requires(plugin)`), for `@Req()`:
 * `Base` (Enclave's Request) with the plugin's request decorations. `@Requires` makes boot check
 * that the controller's module or an ancestor registers the plugin: that is what makes this true.
 */
export type RequestWith<Plugin, Base = Request> = WithProvided<Base, ProvidedOf<Plugin>['request']>
/** The same for `@Res()`: the reply with the plugin's reply decorations. */
export type ReplyWith<Plugin, Base = Reply> = WithProvided<Base, ProvidedOf<Plugin>['reply']>
