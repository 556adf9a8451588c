import type { RouteOptions } from '../runtime'

/** One route a controller method declared, with its options as the runtime left them (final url). */
export interface DeclaredMethodRoute {
  readonly declaringClass: Function
  readonly key: string | symbol
  readonly where: string
  readonly options: RouteOptions
  /** Its routeMetadata() keys, when no route-level hook or interceptor could read them (unread-metadata.ts checks the scope's after boot). */
  readonly unreadMetadata?: readonly string[]
}
