import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { BodyParser } from '../shared/body-parser'
import type { JsonPoisonActions } from '../shared/json-poisoning'
import type { InjectChain, InjectOptions, InjectResponse, ListenOptions, Logger, ReadyOptions } from '../types'
import type { BootProfile } from '../shared/boot-profile'
import { PluginTree, type PluginNode } from './plugin-tree'
import type { RouteDefinition } from './route-declaration'
import type { InspectView } from '../shared/introspection'
import type { SchemaCompilers } from '../schemas'
import type { ConstraintStrategy } from '../shared/custom-constraints'

/**
 * What the root scope's ready/listen/close/inject do. Built by the composition root
 * (server/create-server.ts): the declare phase only forwards to it, so that it imports nothing
 * of boot, serve or server.
 */
export interface ServerFacade {
  ready(options?: ReadyOptions): Promise<void>
  /** What a plugin's own scope's ready() waits for: all plugins loaded and routes compiled, before the onReady hooks. */
  whenLoaded(): Promise<void>
  bootProfile(top: number): BootProfile
  listen(portOrOptions?: number | string | ListenOptions, host?: string): Promise<string>
  close(): Promise<void>
  /** True from the moment close() (or startDraining()) is called (Scope.closing; health readiness answers 503). */
  readonly closing: boolean
  /** Scope.startDraining(): readiness fails and responses close their connections; the server still serves. */
  startDraining(): void
  inject(options?: InjectOptions | string): Promise<InjectResponse> | InjectChain
  /** Fastify's printPlugins: the registrations as loaded, with load times; throws before boot. */
  printPlugins(): string
  /** The booted server's introspection (printRoutes, printTree, explain, openapi); throws before boot. */
  introspect(): InspectView
  /** Loads what `node` has registered and not loaded yet: an awaited register() or scope (avvio's incremental loading). */
  loadPending(node: PluginNode): Promise<void>
}

export interface DeclareContextInit {
  readonly log: Logger
  readonly server: Server
  /** The built-in parsers (JSON, text), below every scope's own; a scope may replace them for its subtree. */
  readonly defaultParsers: ReadonlyMap<string, BodyParser>
  /** Names a request/reply decorator may not take: the request's and reply's own members. */
  readonly reservedNames: { readonly request: ReadonlySet<string>; readonly reply: ReadonlySet<string> }
  readonly facade: ServerFacade
  /** Fastify's `initialConfig` (server/initial-config.ts). */
  readonly initialConfig: Readonly<Record<string, unknown>>
  /** The built-in JSON parser with other poisoning actions, for getDefaultJsonParser() (serve/ builds it). */
  readonly makeJsonParser: (actions: JsonPoisonActions) => BodyParser
  /** The server's request listener (Fastify's `routing`): serves a request a plugin received elsewhere, an upgrade's. */
  readonly routing: (req: IncomingMessage, res: ServerResponse) => void
  /** The server's compiler builders: what request.compileValidationSchema() and reply.compileSerializationSchema() compile with. */
  readonly schemaCompilers?: SchemaCompilers
  /** createServer({ constraints, versioning })'s strategies by name; null without any. */
  readonly constraintStrategies?: Readonly<Record<string, ConstraintStrategy>> | null
}


/**
 * The declare-phase state shared by every scope of one server: the plugin tree, the routes as
 * declared, and the flag that closes declarations once boot starts. Nothing here is read on
 * the request path (that is serve/serve-context.ts).
 */
export class DeclareContext {
  readonly log: Logger
  readonly server: Server
  readonly defaultParsers: ReadonlyMap<string, BodyParser>
  readonly reservedNames: DeclareContextInit['reservedNames']
  readonly facade: ServerFacade
  readonly initialConfig: Readonly<Record<string, unknown>>
  /** Set for the moment an awaited scope resolves with itself (scope-plugins.ts scopeThen). */
  resolvingScope = false
  readonly makeJsonParser: DeclareContextInit['makeJsonParser']
  readonly routing: DeclareContextInit['routing']
  readonly schemaCompilers: SchemaCompilers | null
  readonly constraintStrategies: Readonly<Record<string, ConstraintStrategy>> | null
  readonly plugins = new PluginTree()
  readonly routes: RouteDefinition[] = []
  /** Set when compilation starts: from then on every declaration throws ENC_ERR_SCOPE_BOOTED. */
  booted = false
  /** Set once the onReady hooks have run: from then on instance decorators are refused too. */
  started = false

  constructor(init: DeclareContextInit) {
    this.log = init.log
    this.server = init.server
    this.defaultParsers = init.defaultParsers
    this.reservedNames = init.reservedNames
    this.facade = init.facade
    this.initialConfig = init.initialConfig
    this.makeJsonParser = init.makeJsonParser
    this.routing = init.routing
    this.schemaCompilers = init.schemaCompilers ?? null
    this.constraintStrategies = init.constraintStrategies ?? null
  }
}
