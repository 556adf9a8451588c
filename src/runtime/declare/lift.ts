import type { DoneFn, Plugin, PluginOptions, Scope, ScopeWith } from '../types'
import type { MergeProvided, NothingProvided, Provided, ProvidedBy, ProvidesMeta, ProvidingPlugin, RequiringPlugin, VisibleWith } from '../shared/provided'

/**
 * An entry of `dependencies`: a plugin name (fastify-plugin's form), or a typed lifted plugin itself
 * (Elysia's `.use(db)` inside a plugin): checked by its name at load as the name is, and its
 * decorations are typed in the body, which the load check makes true (the plugin must be there).
 */
export type LiftDependency = string | (Function & ProvidingPlugin<Provided>)
/**
 * What the typed plugins among `D` provide, merged (nothing for names), with what their own typed
 * dependencies provide: `role` lifted with `dependencies: [auth]`, where auth lists `db`, reads
 * db's decorations too, since auth could not have loaded without db before it.
 */
export type DependenciesProvided<D> = D extends readonly [infer F, ...infer R] ? MergeProvided<VisibleWith<F>, DependenciesProvided<R>> : NothingProvided
/** `D` names a typed plugin (not only names): the body's scope is then typed with what they provide. */
export type TypesDependencies<D> = D extends readonly (infer E)[] ? ([E] extends [string] ? false : true) : false
/** The scope a lifted plugin's body gets: typed with what it promises and what its typed dependencies provide, when there is any. */
type ScopeProviding<M extends ProvidesMeta, D> = TypesDependencies<D> extends true ? ScopeWith<MergeProvided<DependenciesProvided<D>, ProvidedBy<M>>>
  : {} extends M ? Scope : ScopeWith<ProvidedBy<M>>
/** lift()'s meta as written: `dependencies` may name typed plugins by the plugin itself (stored as their names). */
type LiftMetaGiven<M extends ProvidesMeta, D> = Omit<LiftMeta<M>, 'dependencies'> & { readonly dependencies?: D }
/** What lift() returns: the plugin, marked with what it provides (register() widens the scope by it). */
type LiftedPlugin<O, M extends ProvidesMeta, D> = ({} extends M ? (scope: Scope, options: O, done: DoneFn) => unknown
  : ((scope: Scope, options: O, done: DoneFn) => unknown) & ProvidingPlugin<ProvidedBy<M>>)
  & (TypesDependencies<D> extends true ? RequiringPlugin<DependenciesProvided<D>> : unknown)
import { isLifted, kLiftMeta, kLifted, liftMetaOf, liftedTarget, type LiftMeta } from '../shared/lift-marks'
import { checkLiftMeta, withDependencyNames } from './lift-meta'
import { kDisplayName, kPluginMeta, kSkipOverride, readPluginMeta } from '../shared/plugin-meta'

export { isLifted, liftedTarget, liftMetaOf } from '../shared/lift-marks'

/**
 * Runs `plugin` in the registering scope instead of a child scope, so its request decorators,
 * hooks, schemas and parsers become visible to that scope and all its descendants (spec §3.3.5).
 * Also accepts anything a higher layer registers (a module class): the wrapper only records
 * the target, so `lift(X)` never changes X itself.
 *
 * `meta` is fastify-plugin's metadata without fastify-plugin: a `name` for `hasPlugin()` and
 * other plugins' `dependencies`, the plugins and decorators this one needs, checked when it loads.
 *
 * With `provides` (and a `name`), the plugin is typed: its own scope accepts those decorations
 * (no global RequestDecorations entry), `register()` returns the registering scope typed with
 * them, `RequestWith<typeof plugin>` types a controller's request, and boot fails
 * (ENC_ERR_PLUGIN_PROVIDES) if the plugin loads without making one of them.
 *
 * @example
 * app.register(lift(authPlugin))   // `request.user` now exists on every route of `app`
 * app.register(lift(authPlugin, { name: 'auth', dependencies: ['db'] }))
 * const workspace = lift((scope) => { scope.decorateRequest('workspace', null) }, { name: 'workspace', provides: { request: { workspace: type<Workspace>() } } })
 * app.register(workspace).get('/', (request) => request.workspace.id)
 */
// `object`, not PluginOptions: options typed by an interface have no index signature, and
// register() checks them against the plugin's own parameter anyway (PluginOptionsOf).
// One signature with and without `provides` (an overload each would turn every misspelt meta field
// into "No overload matches this call"). `M` is what `provides` says, `{}` without it.
// `D`: `const`, so a tuple of the plugins given, whose decorations merge in order.
export function lift<O extends object = PluginOptions, M extends ProvidesMeta = {}, const D extends readonly LiftDependency[] = []>(plugin: (scope: ScopeProviding<M, D>, options: O, done: DoneFn) => unknown, meta?: LiftMetaGiven<M, D>): LiftedPlugin<O, M, D>
export function lift<P extends Function>(plugin: P): P
export function lift<P extends Function>(plugin: P, given?: LiftMeta): P {
  if (typeof plugin !== 'function') throw new TypeError('lift() takes a plugin function')
  const meta = given === undefined ? undefined : withDependencyNames(given, plugin.name)
  if (meta !== undefined) checkLiftMeta(meta, plugin.name, /^class[\s{]/.test(Function.prototype.toString.call(liftedTarget(plugin))))
  else if (isLifted(plugin)) return plugin
  const target = liftedTarget(plugin) as unknown as Plugin
  // Keep the arity: a callback plugin is recognised by its third parameter.
  const wrapper = target.length >= 3
    ? function (this: unknown, scope: never, options: never, done: never) { return (target as Function).call(this, scope, options, done) }
    : function (this: unknown, scope: never, options: never) { return (target as Function).call(this, scope, options) }
  Object.defineProperty(wrapper, 'name', { value: plugin.name })
  Object.defineProperty(wrapper, kLifted, { value: target })
  // Lifting again with meta adds to the first meta (a library's own needs stay checked); its name wins.
  const earlier = liftMetaOf(plugin)
  const recorded = meta === undefined ? earlier : earlier === null ? meta : mergeLiftMeta(earlier, meta)
  if (meta !== undefined) Object.defineProperty(wrapper, kLiftMeta, { value: recorded })
  markAsFastifyPlugin(wrapper)
  return wrapper as unknown as P
}

/**
 * fastify-plugin's marks on the wrapper, so what reads them from outside sees a lifted plugin as
 * it sees an fp() one: @fastify/autoload orders a plugins/ folder by `plugin-meta`'s name and
 * dependencies (a lifted `auth` with `dependencies: ['config']` loaded before `config` failed
 * boot), and Fastify itself runs it unencapsulated. The marks come from readPluginMeta(), the one
 * merge Enclave's boot uses too: a wrapped fp() plugin's own name and dependencies with lift()'s
 * on top, so `lift(fp(auth, { dependencies: ['config'] }))` still tells autoload about `config`.
 * Enclave's own boot reads the lifted target's marks and liftMetaOf(), never these, so nothing is
 * checked twice and the lift prefix rule stays.
 */
function markAsFastifyPlugin(wrapper: Function): void {
  Object.defineProperty(wrapper, kSkipOverride, { value: true })
  const meta = readPluginMeta(wrapper)
  if (!meta.fromFastifyPlugin && liftMetaOf(wrapper) === null) return
  const { registeredName: name, dependencies, decorators, fastifyRange } = meta
  Object.defineProperty(wrapper, kPluginMeta, { value: { ...(name !== null ? { name } : {}), ...(fastifyRange !== null ? { fastify: fastifyRange } : {}), dependencies, decorators } })
  const displayName = name ?? meta.displayName
  if (displayName !== null) Object.defineProperty(wrapper, kDisplayName, { value: displayName })
}

function mergeLiftMeta(first: LiftMeta, then: LiftMeta): LiftMeta {
  const name = then.name ?? first.name
  const decorators = (key: 'fastify' | 'request' | 'reply'): readonly (string | symbol)[] => [...first.decorators?.[key] ?? [], ...then.decorators?.[key] ?? []]
  return {
    ...(name !== undefined ? { name } : {}),
    dependencies: [...first.dependencies ?? [], ...then.dependencies ?? []],
    decorators: { fastify: decorators('fastify'), request: decorators('request'), reply: decorators('reply') },
    ...(first.provides !== undefined || then.provides !== undefined ? { provides: {
      request: { ...first.provides?.request, ...then.provides?.request },
      reply: { ...first.provides?.reply, ...then.provides?.reply },
      scope: { ...first.provides?.scope, ...then.provides?.scope },
    } } : {}),
  }
}
