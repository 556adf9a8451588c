// shared/ sits below schemas/: the same JSON Schema object type, named here.
type JsonSchema = Record<string, unknown>
import type { OpenApiDocument, OpenApiInfo } from './openapi-types'

/**
 * The introspection model of a booted server: what boot resolved, as plain JSON-ready data
 * (functions appear by name). Built once by boot/introspection.ts from the scopes and the
 * compiled routes, read by the renderers in inspect/ (printRoutes, printTree, explain, openapi).
 * `origin` always says which module (`AppModule > NotesModule`) or plugin (`plugin bearerAuth`)
 * made the declaration; `scope` is the scope path it lives in.
 */
export interface Inspection {
  readonly root: ScopeInspection
  readonly routes: readonly RouteInspection[]
  /** Every shared schema of the tree, in scope order (parents first). */
  readonly schemas: readonly SchemaInspection[]
}

export interface Declared {
  readonly name: string
  readonly scope: string
  readonly origin: string
}

export interface HookInspection extends Declared {
  /** The hook's function name, `anonymous` when it has none. */
  readonly fn: string
  /** True when the hook was given in the route's own options rather than by addHook(). */
  readonly routeOption: boolean
  /**
   * True when a plugin's onRoute hook added it to the route options (@fastify/rate-limit's
   * onRequest): `origin` and `scope` are then the plugin's that registered that onRoute hook.
   */
  readonly onRoute: boolean
}

export interface SchemaInspection {
  readonly id: string
  readonly scope: string
  readonly origin: string
  readonly schema: JsonSchema
}

export interface ModuleInspection {
  /** The module path, `AppModule > NotesModule` (a lifted module runs in its parent's scope). */
  readonly path: string
  readonly providers: readonly string[]
}

/** A validator or serializer compiler, error handler or formatter and where it comes from. */
export interface FunctionInspection {
  readonly fn: string
  /** The scope that set it, `route option`, or `default`. */
  readonly scope: string
  readonly origin: string
}

export interface SecurityInspection {
  /** The components/securitySchemes key (`bearerAuth`). */
  readonly name: string
  /** An OpenAPI Security Scheme object (`{ type: 'http', scheme: 'bearer' }`). */
  readonly scheme: Readonly<Record<string, unknown>>
  /** The status the guard answers when it refuses (401). */
  readonly status: number
  readonly scope: string
  readonly origin: string
}

/** A hook that may refuse the request with a framework error body (a guard class: 403). */
export interface RefusalInspection {
  readonly status: number
  readonly code: string
  /** The hook's function name (`AdminGuard.handle`). */
  readonly fn: string
  readonly scope: string
  readonly origin: string
}

export interface ErrorHandlerInspection extends FunctionInspection {
  /** What the handler declares it answers, by status key, or null when it declares nothing. */
  readonly responses: Readonly<Record<string, JsonSchema>> | null
  /** The media type it declares it answers in, or null (JSON, the framework's). */
  readonly contentType: string | null
}

export interface ScopeInspection {
  readonly path: string
  readonly prefix: string
  /** The modules whose declarations run in this scope (itself first, then lifted ones). */
  readonly modules: readonly ModuleInspection[]
  readonly decorators: { readonly instance: readonly Declared[]; readonly request: readonly Declared[]; readonly reply: readonly Declared[] }
  /** Own hooks, in declaration order (request-path and application hooks). */
  readonly hooks: readonly HookInspection[]
  readonly schemas: readonly Declared[]
  readonly errorHandler: ErrorHandlerInspection | null
  readonly notFoundHandler: FunctionInspection | null
  readonly validatorCompiler: FunctionInspection | null
  readonly serializerCompiler: FunctionInspection | null
  readonly schemaErrorFormatter: FunctionInspection | null
  readonly children: readonly ScopeInspection[]
}

/**
 * The normalized route schema parts (spec §2.1), null when absent: what Enclave compiled from.
 * Routes given the very same schema object share one normalized copy (eager boot,
 * part-reuse.ts): read them, clone before changing.
 */
export interface RouteSchemaInspection {
  readonly params: JsonSchema | null
  readonly body: JsonSchema | null
  readonly querystring: JsonSchema | null
  readonly headers: JsonSchema | null
  readonly response: Readonly<Record<string, JsonSchema>> | null
}

export interface RouteInspection {
  /** `GET`, `POST` ...; a route declared for several methods appears once per method. */
  readonly method: string
  readonly url: string
  readonly scope: string
  readonly origin: string
  /** The handler's function name. */
  readonly handler: string
  /** The status the handler answers when it sets none (`@HttpCode()`), null when not declared. */
  readonly defaultStatus: number | null
  /** True for the HEAD route the framework adds to every GET route. */
  readonly implicit: boolean
  /**
   * The paths Fastify 3's router lists for it (find-my-way's `routes`, which printRoutes({ commonPrefix:
   * false }) prints): `url`, and its twin with or without the trailing slash when both are answered (a
   * prefixed `/` route, or any route under ignoreTrailingSlash).
   */
  readonly routerUrls: readonly string[]
  /** Its router constraints (`constraints`, the `version` option folded in), null without any. */
  readonly constraints: Readonly<Record<string, unknown>> | null
  /** Its log level ('' : the server's). */
  readonly logLevel: string
  /** Its `logSerializers` route option, null without one. */
  readonly logSerializers: Readonly<Record<string, unknown>> | null
  readonly schema: RouteSchemaInspection
  /** Documentation keys of the route option `schema` (summary, description, operationId, tags, deprecated, hide). */
  readonly docs: Readonly<Record<string, unknown>>
  readonly config: Readonly<Record<string, unknown>>
  /** The effective request-path hooks, in the order a request meets them. */
  readonly hooks: readonly HookInspection[]
  /** The compiler of each validated part; absent parts are not listed. */
  readonly validators: Readonly<Partial<Record<'params' | 'body' | 'querystring' | 'headers', FunctionInspection>>>
  /** The compiler of each response status key. */
  readonly serializers: Readonly<Record<string, FunctionInspection>>
  /** Nearest first: if one throws, the next takes over. */
  readonly errorHandlers: readonly ErrorHandlerInspection[]
  readonly schemaErrorFormatter: FunctionInspection
  readonly security: readonly SecurityInspection[]
  /** Hooks that may refuse with the framework's error body, in the order a request meets them. */
  readonly refusals: readonly RefusalInspection[]
  /** Shared schemas visible from the route's scope. */
  readonly visibleSchemas: readonly Declared[]
  readonly visibleDecorators: ScopeInspection['decorators']
  /** Providers visible to the route's module (its own and its ancestors'). */
  readonly providers: readonly Declared[]
  readonly bodyLimit: number | null
}

/** How a scope's declarations are labelled for introspection (`scope.annotate()`). */
export interface ScopeAnnotation {
  /** The module these declarations come from: labels everything the current plugin declares. */
  readonly module?: string
  /** The providers that module registers, by name. */
  readonly providers?: readonly string[]
  /** What the scope's error handler answers, by status key (`'422'`): documented on every route it handles. */
  readonly errorResponses?: Readonly<Record<string, JsonSchema>>
  /**
   * The media type the scope's error handler answers in (`application/problem+json`): every error
   * response it covers, the framework's statuses included, is documented under it.
   */
  readonly errorContentType?: string
}

/** Fastify 3.27.4's printRoutes options that the tree can honour (declare/print-routes-options.ts checks them). */
export interface PrintRoutesOptions {
  /** Each route's request-path hooks under it, `• (onRequest) ["auth()"]`, as Fastify 3 prints them. */
  readonly includeHooks?: boolean
  /** false: Fastify 3's text of its `commonPrefix: false` tree (inspect/print-routes-flat.ts). */
  readonly commonPrefix?: boolean
  /** Fastify 3's route store lines under each route: every key (true) or those listed (inspect/route-meta.ts). */
  readonly includeMeta?: true | readonly string[]
}

/** What the scope methods printRoutes/printTree/explain/inspect/openapi read (server/lifecycle.ts builds it). */
export interface InspectView {
  inspect(): Inspection
  printRoutes(options?: PrintRoutesOptions): string
  printTree(): string
  explain(route: string): string
  explainJson(route: string): RouteInspection
  /** `within`: a scope path whose routes alone are documented. */
  openapi(info?: OpenApiInfo, within?: string): OpenApiDocument
}
