/*
 * Per-scope typing of decorations (Elysia's typed plugins): what a lifted plugin promises to add
 * to requests and replies, carried in the type of the scope it was registered on, so
 * `app.register(workspace).get('/', (request) => request.workspace.id)` compiles and the same
 * read on a scope that never registered it does not. Only types live here, and `type<T>()`.
 */

declare const kType: unique symbol
declare const kProvides: unique symbol
/** The phantom key of TypedScope's `P` (types.ts). Declared only: nothing has it at run time. */
export declare const kProvided: unique symbol

/**
 * A type written as a value, for `provides`: `{ request: { workspace: type<Workspace>() } }`.
 * Nothing reads it at run time: only the key names are (the boot check that the plugin made them).
 */
export interface TypeMark<T> { readonly [kType]: T }

const mark = Object.freeze({ type: 'enclave.type-mark' })

/** `type<Workspace>()`: the type of one decoration in a plugin's `provides`. */
export function type<T>(): TypeMark<T> {
  return mark as unknown as TypeMark<T>
}

/**
 * What `lift(plugin, { name, provides })` declares: the request and reply decorations the plugin
 * makes, and `scope`: what it `decorate()`s on the scope itself (Fastify's instance decorators).
 */
export interface ProvidesMeta {
  readonly request?: { readonly [name: string]: TypeMark<unknown> }
  readonly reply?: { readonly [name: string]: TypeMark<unknown> }
  readonly scope?: { readonly [name: string]: TypeMark<unknown> }
}

/** The decorations a scope's type carries: `Scope<P>`. `{}` on both sides is a plain `Scope`. */
export interface Provided {
  readonly request: object
  readonly reply: object
  readonly scope: object
}
// eslint-disable-next-line @typescript-eslint/ban-types
export interface NothingProvided extends Provided { readonly request: {}; readonly reply: {}; readonly scope: {} }

/** The `Provided` a `provides` meta stands for (`type<T>()` marks read back as `T`). */
export type ProvidedBy<M extends ProvidesMeta> = { readonly request: Unmarked<M['request']>; readonly reply: Unmarked<M['reply']>; readonly scope: Unmarked<M['scope']> }
// eslint-disable-next-line @typescript-eslint/ban-types
type Unmarked<R> = R extends object ? { [K in keyof R]: R[K] extends TypeMark<infer T> ? T : never } : {}

/** Two scopes' worth of decorations: a lifted plugin registered on a typed scope adds its own. */
export type MergeProvided<P extends Provided, Q extends Provided> = { readonly request: P['request'] & Q['request']; readonly reply: P['reply'] & Q['reply']; readonly scope: P['scope'] & Q['scope'] }

/**
 * The type mark lift() leaves on a plugin that declares `provides`: `register()` reads it to widen
 * the scope it returns. Phantom: no such property exists at run time.
 */
export interface ProvidingPlugin<P extends Provided> { readonly [kProvides]: P }
declare const kRequires: unique symbol
/**
 * The type mark of a lifted plugin whose `dependencies` name typed plugins: what they provide,
 * which register() asks of the scope it is registered on (FitsScope). Phantom, as ProvidingPlugin.
 */
export interface RequiringPlugin<P extends Provided> { readonly [kRequires]: P }

/** The decorations a lifted typed plugin provides; NothingProvided for any other plugin. */
export type ProvidedOf<Plugin> = Plugin extends ProvidingPlugin<infer P> ? P : NothingProvided
/** What a plugin's typed `dependencies` provide (theirs in turn included); NothingProvided without any. */
export type RequiredOf<Plugin> = Plugin extends RequiringPlugin<infer P> ? P : NothingProvided
/**
 * Everything visible where a typed plugin is registered: its own decorations and its typed
 * dependencies', down the chain. The load check (ENC_ERR_PLUGIN_DEPENDENCY) makes each dependency
 * registered before it, in that scope or an ancestor, so all of them are there when it is.
 */
export type VisibleWith<Plugin> = MergeProvided<ProvidedOf<Plugin>, RequiredOf<Plugin>>
/**
 * `request.server` / `reply.server` with a typed plugin's scope decorations (`provides.scope`),
 * nothing when it has none. Intersected with a Request (whose `server` is a Scope), the member is
 * `Scope & S`: no import of the Scope type here, which would make a cycle with types.ts.
 */
// eslint-disable-next-line @typescript-eslint/ban-types
export type ServerWith<S> = {} extends S ? {} : { readonly server: S }

/**
 * `Base` with the decorations `R` added, exactly `Base` when `R` adds nothing: an untyped
 * scope's handlers keep the very types they had (inference of a route generic included).
 */
// eslint-disable-next-line @typescript-eslint/ban-types
export type WithProvided<Base, R> = {} extends R ? Base : Base & R
