import type { VisibleWith, WithProvided } from './shared/provided'
import type { HttpRaw, HttpsRaw, Http2Raw, Http2SecureRaw, RawServerMark } from './shared/raw-server'
import type { Reply, Request, Scope, SeenIn } from './types'

/**
 * The request of a route whose controller requires `Plugin` (`@Requires(plugin)`), for `@Req()`:
 * `Base` (Enclave's Request) with the plugin's request decorations and its typed dependencies'
 * (which must be registered before it), and `request.server` with their `provides.scope` names.
 * `@Requires` makes boot check that the controller's module or an ancestor registers the plugin:
 * that is what makes this true.
 */
export type RequestWith<Plugin, Base = Request> = WithProvided<Base, VisibleWith<Plugin>['request'] & ServedWith<VisibleWith<Plugin>['scope'], Base>>
/** The same for `@Res()`: the reply with the plugin's reply decorations. */
export type ReplyWith<Plugin, Base = Reply> = WithProvided<Base, VisibleWith<Plugin>['reply'] & ServedWith<VisibleWith<Plugin>['scope'], Base>>
// For a decorator's parameter: the narrowed `server` would fail the route decorators' check that a
// parameter is Base plus members (handler-fit.ts), so Base goes along under kServerBase, as in ServerSide.
// eslint-disable-next-line @typescript-eslint/ban-types
type ServedWith<S, Base> = {} extends S ? {} : { readonly server: Scope & S; readonly [kServerBase]?: Base }

/** The kinds of server createServer() / createApp() make, by the `kind` of their raw types. */
export interface RawServerKinds { http: HttpRaw; https: HttpsRaw; http2: Http2Raw; 'http2-secure': Http2SecureRaw }
/** The phantom key under which RequestOn keeps its Base, for the route decorators' parameter check. Declared only. */
export declare const kServerBase: unique symbol
/**
 * What a request or reply on that server has besides Base's: its raw object, and `server` the scope
 * on it. `kServerBase` (optional, never set) lets the route decorators check Base as they would check
 * it alone (handler-fit.ts): Base's members there return Base's `this`, which a narrowed `raw` breaks.
 */
type ServerSide<K extends keyof RawServerKinds, Part extends 'request' | 'reply', Base> = { readonly raw: RawServerKinds[K][Part]; readonly server: Scope & RawServerMark<RawServerKinds[K]>; readonly [kServerBase]?: Base }

/**
 * The request on a server other than http's, for what cannot see the app's type: a controller's
 * `@Req() request: RequestOn<'http2'>` in a module served by `createApp(Root, { http2: true })`
 * (`'http2-secure'` with `https`), or a function taking a request of `typeof app`. `request.raw` is
 * then an Http2ServerRequest and `request.server.server` an Http2Server, as they are in the handlers
 * of that app's own scopes. A claim the types cannot check against the app (the decorator layer does
 * not know which server a module will run on): the module's app must be created with that option.
 * `Base`: another request type to add it to (`RequestOn<'http2', RequestWith<typeof workspace>>`).
 */
// On a scope's type, what its own handlers see (SeenIn): its typed plugins' decorations too.
export type RequestOn<On extends keyof RawServerKinds | Scope, Base = Request> = On extends keyof RawServerKinds ? Base & ServerSide<On, 'request', Base> : WithProvided<Base, SeenIn<On>['request']>
/** The same for `@Reply()`: `reply.raw` an Http2ServerResponse on `'http2'`. */
export type ReplyOn<On extends keyof RawServerKinds | Scope, Base = Reply> = On extends keyof RawServerKinds ? Base & ServerSide<On, 'reply', Base> : WithProvided<Base, SeenIn<On>['reply']>
