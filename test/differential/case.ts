// One differential case: a route declared identically on Fastify 3.27.4 and on Enclave, and one
// request sent to both. Cases hold functions (handlers), so they are rebuilt from their seed,
// never stored.
import type { AppShape } from './app-shapes'
import type { ReplyShape } from './reply-api'
import type { ErrorShape } from './errors'
import type { SerialShape } from './serialization'
import type { FlowShape } from './hook-flow'
import type { EncShape } from './encapsulation'
import type { LifecycleShape } from './reply-lifecycle'
import type { SharedShape } from './shared-schemas'
import type { SourcesShape } from './error-sources'
import type { PaShape } from './plugin-api'
import type { RoShape } from './route-options'
import type { SerializersShape } from './serializers'
import type { HeadShape } from './head-routes'
import type { RefsShape } from './cross-scope-refs'
import type { PayloadShape } from './reply-payloads'
import type { ThrownShape } from './thrown-values'

export type Handler = (request: any, reply: any) => unknown

export interface RouteSpec {
  method: string
  url: string
  schema?: Record<string, unknown>
  handler: Handler
  /** Route-level hooks and options, given as they are to both. */
  options?: Record<string, unknown>
  /** App-level declarations made before the route (a content-type parser), the same on both. */
  setup?: (app: any) => void
}

export interface RequestSpec {
  method: string
  url: string
  headers?: Record<string, string>
  payload?: string | Buffer
  /** Over h2c only (the http2 family): what an HTTP/2 client sends beyond headers and a body. */
  h2?: H2Extras
}

/** What an HTTP/2 request carries beyond HTTP/1's: its `:authority`, trailers, a reset by the client. */
export interface H2Extras {
  authority?: string
  trailers?: Record<string, string>
  /** An `x-big` header of this many bytes (HPACK, the header list limit); kept out of `headers` so that summaries stay short. */
  bigHeader?: number
  /** Cookie fields sent one per cookie (RFC 9113 8.2.3). */
  cookies?: string[]
  /** The client resets the stream (CANCEL) after sending its head, or half its body. */
  reset?: 'after-head' | 'mid-body'
}

export interface Case {
  /** `<seed>:<index>`, enough to rebuild it. */
  id: string
  family: string
  /** What was declared and sent, for a reader of a failure. */
  summary: string
  route: RouteSpec
  request: RequestSpec
  /** ajv options merged over both frameworks' defaults (Fastify 3's `ajv.customOptions`, Enclave's `validator.customOptions`). */
  ajv?: Record<string, unknown>
  /** For a response-schema case: the schema of the status sent and the value the handler returns. */
  response?: { status: number; schema: Record<string, unknown>; value: () => unknown }
  /** An app-shape case: the whole app is declared from this shape, not `route` (which then only names the request). */
  app?: AppShape
  /** A reply-api case: what the handler does (the route is built from it). */
  reply?: ReplyShape
  /** An errors case: the app its route's `setup` declares (errors.ts). */
  errors?: ErrorShape
  /** A serialization case: the response schemas and the value sent (serialization.ts). */
  serial?: SerialShape
  /** A hook-flow case: the app its route's `setup` declares (hook-flow.ts). */
  flow?: FlowShape
  /** An encapsulation case: the plugin tree its route's `setup` declares (encapsulation.ts). */
  enc?: EncShape
  /** A reply-lifecycle case: what the handler and its hooks do (reply-lifecycle.ts). */
  lifecycle?: LifecycleShape
  /** A shared-schemas case: the schemas its route's `setup` adds and where (shared-schemas.ts). */
  shared?: SharedShape
  /** An error-sources case: the framework error raised and the error handler that sees it (error-sources.ts). */
  sources?: SourcesShape
  /** A plugin-api case: the declarations its route's `setup` makes (plugin-api.ts). */
  pa?: PaShape
  /** A route-options case: what its route's `setup` declares (route-options.ts). */
  ro?: RoShape
  /** A serializers case: who writes the body, declared by its route's `setup` (serializers.ts). */
  serializers?: SerializersShape
  /** A head-routes case: the GET route, its hooks and HEAD routes its route's `setup` declares (head-routes.ts). */
  head?: HeadShape
  /** A cross-scope-refs case: where the shared schema is added and where the route refers to it (cross-scope-refs.ts). */
  refs?: RefsShape
  /** A reply-payloads case: the payload kind, the type set before it and how it is sent (reply-payloads.ts). */
  payloads?: PayloadShape
  /** A thrown-values case: what is raised, where and how, and the error handler (thrown-values.ts). */
  thrown?: ThrownShape
  /** Server options given to both constructors as they are (the server-options family). */
  server?: Record<string, unknown>
  /** Replays only: Fastify 3's error handlers declared so that they chain as Enclave's. */
  chainErrorHandlers?: true
  /** The handler throws an error whose message is meant for the client (`expose: true`). */
  exposedError?: true
  /** The logs family: `server.logger` gets a capturing stream and the answer carries the lines (logs.ts). */
  logs?: true
}

/** What a client sees of one answer (or the boot failure that prevented one). */
export interface Answer {
  statusCode: number
  headers: Record<string, string>
  /** Parsed JSON when the content type says JSON and the text parses; else the text. */
  body: unknown
  /** Set when the app refused the declaration at boot. */
  bootError?: string
  /** The logs family: the lines the app wrote while answering, as logLines() compares them. */
  log?: string[]
  /** Rewrites only: the last app-shape rule (app-differences.ts) this answer already reflects, so a later pass does not replay it afresh. */
  shapeStep?: number
}
