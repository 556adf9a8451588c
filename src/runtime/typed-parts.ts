import type { IncomingHttpHeaders } from 'node:http'
import type { PathParamsDefault } from './path-params-type'
import type { Opaque, RouteParts } from './typed-schemas'

// Apart from typed-schemas.ts because it names node's header type: typed-schemas.ts is also read by
// `enclave/client`'s declarations, which a browser project compiles without @types/node.

/** How a part reads on the request: its schema's type, or the untyped default. */
type Read<T, Default> = T extends Opaque ? Default : [T] extends [undefined] ? Default : T

export interface TypedParts<S> {
  body: Read<RouteParts<S>['body'], unknown>
  query: Read<RouteParts<S>['query'], Record<string, unknown>>
  // Without a params schema, the names the route's path literal declares are strings (path-params-type.ts);
  // with one TypeScript cannot read, the schema's coercion decides (`:id` may be an integer): untyped.
  params: RouteParts<S>['params'] extends Opaque ? Record<string, unknown> : Read<RouteParts<S>['params'], PathParamsDefault<S>>
  headers: Read<RouteParts<S>['headers'], IncomingHttpHeaders>
}
