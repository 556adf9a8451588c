import type { InjectionToken } from 'tsyringe'
import type { HookName, OptionsOmittable, PluginFunction, PluginOptionsOf, RouteShorthandOptions } from '../runtime/types'
import type { AnySerializerCompiler, AnyValidatorCompiler, RouteSchema, SchemaErrorFormatter, SerializerCompiler, SharedSchema, ValidatorCompiler } from '../runtime/schemas/types'
import type { NoUnknownSchemaKeys, TypeBoxLike, TypedRouteSchema } from '../runtime/typed-schemas'

/** Any class. Abstract classes are allowed as tokens and route-method owners. */
export type Class<T = object> = abstract new (...args: any[]) => T
export type ConcreteClass<T = object> = new (...args: any[]) => T
/**
 * What names a provider: tsyringe's InjectionToken (a class, a string, a symbol, delay()), or an
 * abstract class, NestJS's usual token for a swappable service (`{ provide: Notifier, useClass:
 * SmtpNotifier }`), which tsyringe's type refuses although it is a class like any other at run time.
 */
export type ProviderToken<T = any> = InjectionToken<T> | (abstract new (...args: any[]) => T)

/**
 * An entry of `@Module({ plugins })`: a module class, `lift(ModuleClass)`, a runtime plugin
 * function (lifted or not, Enclave's or Fastify-typed), or `[pluginFunction, options]`.
 * PluginFunction is listed for an inline plugin, whose parameters it types (Function and the
 * pair have no call signature, so they do not compete for the contextual type).
 */
export type PluginEntry = PluginFunction<any> | Function | readonly [Function, object]

/**
 * The `plugins` list as written, each `[plugin, options]` pair checked against that plugin's own
 * options type (PluginOptionsOf: a misspelt or mistyped option is a compile error at the option).
 * A homomorphic mapped type, so TypeScript infers the list (tuples included) from the array
 * literal itself and then checks every element against its checked form: no helper per entry.
 */
export type CheckedPluginEntries<P extends readonly unknown[]> = { [K in keyof P]: CheckedPluginEntry<P[K]> }
// A bare plugin whose options type has a required property must be given as the pair (as
// register() requires the options): the pair is the type it is then checked against, so the error
// reads "not assignable to type 'readonly [plugin, options]'", which is the fix.
// A bare plugin's checked form also admits its pair: that is what lets a pair be inferred while a
// callback among its options (`keyGenerator: (request) => request.ip`, mercurius's `context:
// (request) => ...`) is still untyped. TypeScript does not infer from an object literal holding an
// untyped callback, so the pair itself yields no candidate then and only its plugin is found
// (through the pair branch); the pair's contextual type must then still be a pair of that plugin,
// or the callback's parameters go `any` (TS7006) and the list is refused. Once the callback is
// typed, the pair is inferred as well (a union with the plugin) and checked by the first branch.
type CheckedPluginEntry<E> = E extends readonly [infer F, unknown] ? readonly [F, PluginOptionsOf<F>]
  : false extends OptionsOmittable<E> ? readonly [E, PluginOptionsOf<E>] : E | readonly [E, PluginOptionsOf<E>]

/**
 * How long a provider's instance lives: 'singleton' (the default) is built once, at boot, in its
 * module; 'request' is built per request, for the routes whose controller needs it (NestJS's Scope.REQUEST).
 */
export type ProviderScope = 'singleton' | 'request' | 'transient'
/** How a request ended, for a request-scoped factory's `dispose(value, end)` (a singleton's gets `{ failed: false }` at close()). */
export interface RequestEnd { readonly failed: boolean; readonly error: unknown }
export interface ClassProviderEntry { provide: ProviderToken; useClass: ConcreteClass; scope?: ProviderScope }
export interface ValueProviderEntry { provide: ProviderToken; useValue: unknown; /** A value is built by its owner: no scope. */ scope?: never }
/**
 * `useFactory` runs once, at boot, with the `inject` tokens resolved from the declaring module.
 * `dispose` releases what it built on close() (`(client) => client.quit()`), newest first with
 * the other instances; without it, the value's own onClose()/dispose() are called.
 */
export interface FactoryProviderEntry {
  provide: ProviderToken
  useFactory: (...deps: any[]) => unknown
  inject?: readonly ProviderToken[]
  /** 'request': called per request, and `dispose` runs once the route's handler settled (docs/request-scope.md, "Request-scoped providers"). */
  scope?: ProviderScope
  dispose?: (value: any, end: RequestEnd) => unknown
}
/** NestJS's `useExisting`: a second token for the instance another provider (visible from here) gives. */
export interface ExistingProviderEntry { provide: ProviderToken; useExisting: ProviderToken; /** An alias has its target's scope. */ scope?: never }
export type ProviderEntry = ConcreteClass | ClassProviderEntry | ValueProviderEntry | FactoryProviderEntry | ExistingProviderEntry
/**
 * What `{ provide: Token }` with none of useClass, useValue, useFactory and useExisting is reported
 * against in `@Module({ providers })` (no value has it: the key is the message). Without it, tsc
 * reported the entry against the last member of ProviderEntry, "Property 'useExisting' is missing",
 * which reads as the fix whatever the provider was meant to be. At boot: ENC_ERR_DECL_MODULE_ENTRY.
 */
export interface ProviderWithoutUse {
  provide: ProviderToken
  'a provider entry needs one of useClass, useValue, useFactory or useExisting beside provide': never
}
/** An entry of `@Module({ providers })` as written (ProviderEntry, or the shape the compile error names). */
export type ModuleProviderEntry = ProviderEntry | ProviderWithoutUse

/** A `@Schema()` class or a shared schema object (a TypeBox one included). */
export type SchemaEntry = Class | SharedSchema | TypeBoxLike

/** `P`: the `plugins` list, inferred by `@Module()` so that its `[plugin, options]` pairs are checked. */
export interface ModuleOptions<P extends readonly PluginEntry[] = readonly PluginEntry[]> {
  /** Child modules (child scopes), `lift(Module)` and runtime plugins, registered in this order. */
  plugins?: CheckedPluginEntries<P>
  controllers?: readonly Class[]
  /** Visible to this module and its descendants (a lifted module provides to its parent). */
  providers?: readonly ModuleProviderEntry[]
  /** Shared schemas added to this module's scope (spec §3.3.4). */
  schemas?: readonly SchemaEntry[]
  /** Prefix of every route of this module and its descendants. */
  prefix?: string
  schemaErrorFormatter?: SchemaErrorFormatter
  validatorCompiler?: AnyValidatorCompiler
  serializerCompiler?: AnySerializerCompiler
  /** 'eager' or 'lazy' schema compilation for this module's routes and its children's (issue 16). */
  schemaCompilation?: 'eager' | 'lazy'
}

/** What `@Module()` records: the options, with every list present. */
export interface ModuleMeta {
  readonly plugins: readonly PluginEntry[]
  readonly controllers: readonly Class[]
  readonly providers: readonly ProviderEntry[]
  readonly schemas: readonly SchemaEntry[]
  readonly prefix: string
  readonly schemaErrorFormatter: SchemaErrorFormatter | null
  readonly validatorCompiler: ValidatorCompiler | null
  readonly serializerCompiler: SerializerCompiler | null
  readonly schemaCompilation: 'eager' | 'lazy' | null
}

export interface ControllerMeta { readonly prefix: string }

export type HttpMethodName = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

/**
 * Route options of the route decorators: the runtime's, with a schema whose parts may also be
 * schema classes. Given as a literal, the schema types the handler check (handler-fit.ts).
 */
// `FO`, `FV`, `FH`: a hook typed for Fastify given as onRequest, preValidation, preHandler (RouteHooks).
export interface DecoratorRouteOptions<S extends TypedRouteSchema = RouteSchema, W extends boolean = boolean, FO = never, FV = never, FH = never> extends Omit<RouteShorthandOptions<RouteSchema, {}, {}, FO, FV, FH>, 'schema'> {
  schema?: S & NoUnknownSchemaKeys<S>
  /** @fastify/websocket's: `true` (a literal) checks the method as `(socket, request)`, as the plugin calls it (socket-fit.ts). */
  websocket?: W
}

export interface RouteMethodOptions<S extends TypedRouteSchema = RouteSchema, W extends boolean = boolean, Path extends string = string, FO = never, FV = never, FH = never> extends DecoratorRouteOptions<S, W, FO, FV, FH> {
  method: HttpMethodName | Lowercase<HttpMethodName> | readonly (HttpMethodName | Lowercase<HttpMethodName>)[]
  /** A literal types the check of a whole `@Params()` parameter, as `@Get(path)` does (handler-fit.ts). */
  path?: Path
}

/** One route declared on a controller method. */
export interface RouteMeta {
  readonly propertyKey: string | symbol
  readonly methods: readonly HttpMethodName[]
  readonly path: string
  readonly options: RouteShorthandOptions
}

export type ParamSource = 'body' | 'query' | 'params' | 'headers' | 'request' | 'reply' | 'custom'

/** What a `createParamDecorator()` factory is called with: its decorator's argument, the request and the reply. */
export type CustomParamFactory = (data: any, request: any, reply: any) => unknown

/**
 * A handler parameter filled from the request: `@Query('limit')` is `{ source: 'query', key: 'limit' }`;
 * `@CurrentUser('id')` is `{ source: 'custom', key: null, custom: { factory, data: 'id', name: 'CurrentUser' } }`.
 */
export interface ParamMeta {
  readonly index: number
  readonly source: ParamSource
  readonly key: string | null
  readonly custom?: { readonly factory: CustomParamFactory; readonly data: unknown; readonly name: string }
  /** `@Query('page', { type: 'integer' })`: the property's schema, merged into the route's part schema at boot. */
  readonly schema?: { readonly schema: object; readonly required: boolean }
}

export interface DecoratorMeta { readonly name: string; readonly value: unknown }
export interface HookMeta { readonly name: HookName; readonly propertyKey: string | symbol }

/**
 * The route hooks a module class, controller class or route method can carry: the guard stages
 * (`@OnRequest`, `@PreValidation`, `@PreHandler`) and the others (`@PreParsing`, `@PreSerialization`,
 * `@OnSend`, `@OnResponse`, `@OnError`, `@OnTimeout`): every per-route hook option of Fastify 3.
 */
export type RouteHookName = GuardStage | 'preParsing' | 'preSerialization' | 'onSend' | 'onResponse' | 'onError' | 'onTimeout'
/** The stages where a hook class's `handle()` returning `false` denies with 403. */
export type GuardStage = 'onRequest' | 'preValidation' | 'preHandler'
export interface RouteHookMeta { readonly name: RouteHookName; readonly hooks: readonly Function[] }
