import type semverSatisfies from 'semver/functions/satisfies'
import { runtimeError } from '../errors/runtime-codes'
import { liftMetaOf, liftedTarget } from './lift-marks'

/**
 * The Fastify line whose plugin API Enclave offers (docs/plugins.md lists it API by API):
 * `scope.version` reports it and a plugin's `plugin-meta` `fastify` range is checked against it.
 * Request semantics follow Fastify 3.27.4 (SPEC.md); the plugin surface is Fastify 5's, which is
 * what the current majors of the official plugins call.
 */
export const fastifyApiVersion = '5.0.0'

/** What fastify-plugin (or a hand-written plugin) attaches to a plugin function. */
export interface PluginMeta {
  /** `Symbol.for('skip-override')`: run in the registering scope, not a child (Enclave's lift()). */
  readonly skipOverride: boolean
  /** True when the function carries fastify-plugin's `plugin-meta`: Fastify's prefix rule applies. */
  readonly fromFastifyPlugin: boolean
  /** `plugin-meta.name`, else `Symbol.for('fastify.display-name')`, else the function's name. */
  readonly name: string
  /** `Symbol.for('fastify.display-name')` (fastify-plugin sets it to the meta name or an auto name). */
  readonly displayName: string | null
  /** Only an explicit name (meta or display name) is recorded for hasPlugin()/dependencies. */
  readonly registeredName: string | null
  /** The plugin's own name when `lift(plugin, { name })` renamed it: other plugins may still depend on it. */
  readonly ownName: string | null
  readonly fastifyRange: string | null
  readonly dependencies: readonly string[]
  readonly decorators: { readonly fastify: readonly (string | symbol)[]; readonly request: readonly (string | symbol)[]; readonly reply: readonly (string | symbol)[] }
  /** The decorations `lift(plugin, { provides })` promised, checked once the plugin has loaded (checkProvided). */
  readonly provides: { readonly request: readonly string[]; readonly reply: readonly string[]; readonly scope: readonly string[] }
}

// semver compiles its ~40 regular expressions when loaded (~3 ms CPU of `require('enclave')`): it
// is loaded by the first plugin that declares a Fastify range, so an app without one never pays.
let loadedSatisfies: typeof semverSatisfies | undefined
function satisfies(version: string, range: string, options: { includePrerelease: boolean }): boolean {
  loadedSatisfies ??= require('semver/functions/satisfies') as typeof semverSatisfies
  return loadedSatisfies(version, range, options)
}

/** fastify-plugin's marks, by the global symbols Fastify and @fastify/autoload read (one spelling for all of Enclave). */
export const kSkipOverride = Symbol.for('skip-override')
export const kDisplayName = Symbol.for('fastify.display-name')
export const kPluginMeta = Symbol.for('plugin-meta')

interface RawMeta { name?: unknown; fastify?: unknown; dependencies?: unknown; decorators?: Record<string, unknown> }

/** fastify-plugin's made-up name for an unnamed plugin (`fn-auto-3`, a counter): nothing to show or depend on. */
export function isMadeUpPluginName(name: string): boolean {
  return /-auto-\d+$/.test(name)
}

/**
 * The metadata of a plugin as registered: what fastify-plugin (or the author) put on the function,
 * with what `lift(plugin, meta)` added on top (its name wins; its needs add to the plugin's own).
 */
export function readPluginMeta(registered: Function): PluginMeta {
  const plugin = liftedTarget(registered)
  const holder = plugin as unknown as Record<symbol, unknown>
  const meta = (holder[kPluginMeta] ?? null) as RawMeta | null
  const lifted = liftMetaOf(registered)
  const displayName = typeof holder[kDisplayName] === 'string' ? holder[kDisplayName] as string : null
  const ownName = (meta !== null && typeof meta.name === 'string' ? meta.name : null) ?? displayName
  const registeredName = lifted?.name ?? ownName
  return {
    skipOverride: holder[kSkipOverride] === true,
    fromFastifyPlugin: meta !== null,
    name: registeredName ?? (plugin.name === '' ? 'anonymous' : plugin.name),
    displayName,
    registeredName,
    ownName: ownName !== registeredName && ownName !== null && !isMadeUpPluginName(ownName) ? ownName : null,
    fastifyRange: meta !== null && typeof meta.fastify === 'string' ? meta.fastify : null,
    dependencies: [
      ...(meta !== null && Array.isArray(meta.dependencies) ? meta.dependencies.filter((d): d is string => typeof d === 'string') : []),
      ...(lifted?.dependencies ?? []),
    ],
    decorators: {
      fastify: [...names(meta?.decorators?.fastify), ...(lifted?.decorators?.fastify ?? [])],
      request: [...names(meta?.decorators?.request), ...(lifted?.decorators?.request ?? [])],
      reply: [...names(meta?.decorators?.reply), ...(lifted?.decorators?.reply ?? [])],
    },
    provides: { request: Object.keys(lifted?.provides?.request ?? {}), reply: Object.keys(lifted?.provides?.reply ?? {}), scope: Object.keys(lifted?.provides?.scope ?? {}) },
  }
}

/**
 * Fastify 3's name for the scope a plugin gets (lib/pluginUtils.js): its display name, else the
 * file that exports it, else its function name, else the first two lines of its source.
 */
export function encapsulatedPluginName(plugin: Function, meta: PluginMeta): string {
  if (meta.displayName !== null) return meta.displayName
  const file = exportingFile(plugin)
  if (file !== null) return file
  if (plugin.name !== '') return plugin.name
  return plugin.toString().split('\n').slice(0, 2).map((line) => line.trim()).join(' -- ')
}

function exportingFile(plugin: Function): string | null {
  const cache = typeof require === 'function' ? require.cache : undefined
  if (cache === undefined) return null
  for (const key of Object.keys(cache)) if (cache[key]?.exports === plugin) return key
  return null
}

function names(value: unknown): (string | symbol)[] {
  return Array.isArray(value) ? value.filter((v): v is string | symbol => typeof v === 'string' || typeof v === 'symbol') : []
}

/** What a registering scope can tell about itself, for the checks below. */
export interface MetaCheckTarget {
  readonly path: string
  hasPlugin(name: string): boolean
  hasDecorator(name: string | symbol): boolean
  hasRequestDecorator(name: string | symbol): boolean
  hasReplyDecorator(name: string | symbol): boolean
}

/**
 * Fastify's checks of a plugin's metadata, made when the plugin is about to load: the `fastify`
 * range must include the API line Enclave offers, every dependency must be registered in the
 * scope or an ancestor before it, every declared decorator must be visible.
 */
export function checkPluginMeta(meta: PluginMeta, owner: MetaCheckTarget): void {
  if (meta.fastifyRange !== null && !satisfies(fastifyApiVersion, meta.fastifyRange, { includePrerelease: true })) {
    throw runtimeError('ENC_ERR_PLUGIN_VERSION', { plugin: meta.name, path: owner.path, range: meta.fastifyRange, offered: `${fastifyApiVersion.split('.')[0]}.x` })
  }
  for (const dependency of meta.dependencies) {
    if (!owner.hasPlugin(dependency)) {
      throw runtimeError('ENC_ERR_PLUGIN_DEPENDENCY', { plugin: meta.name, path: owner.path, dependency })
    }
  }
  // Fastify's order: instance, reply, request decorators.
  const missing: Array<{ name: string; target: 'instance' | 'request' | 'reply' }> = []
  for (const name of meta.decorators.fastify) if (!owner.hasDecorator(name)) missing.push({ name: String(name), target: 'instance' })
  for (const name of meta.decorators.reply) if (!owner.hasReplyDecorator(name)) missing.push({ name: String(name), target: 'reply' })
  for (const name of meta.decorators.request) if (!owner.hasRequestDecorator(name)) missing.push({ name: String(name), target: 'request' })
  if (missing.length > 0) {
    throw runtimeError('ENC_ERR_PLUGIN_MISSING_DECORATOR', { plugin: meta.name, path: owner.path, missing })
  }
}

/**
 * The promise of `lift(plugin, { provides })`, checked once the plugin and its own registrations
 * have loaded: each promised decoration must exist where the plugin ran, or the routes typed by it
 * would read undefined.
 */
export function checkProvided(meta: PluginMeta, scope: MetaCheckTarget): void {
  const missing = [
    ...meta.provides.request.filter((name) => !scope.hasRequestDecorator(name)).map((name) => ({ name, target: 'request' as const })),
    ...meta.provides.reply.filter((name) => !scope.hasReplyDecorator(name)).map((name) => ({ name, target: 'reply' as const })),
    ...meta.provides.scope.filter((name) => !scope.hasDecorator(name)).map((name) => ({ name, target: 'scope' as const })),
  ]
  if (missing.length > 0) throw runtimeError('ENC_ERR_PLUGIN_PROVIDES', { plugin: meta.name, path: scope.path, missing })
}
