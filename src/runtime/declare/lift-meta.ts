import { runtimeError } from '../errors/runtime-codes'
import { didYouMean } from '../schemas/did-you-mean'
import type { LiftMeta } from '../shared/lift-marks'
import { readPluginMeta } from '../shared/plugin-meta'

const fields = ['name', 'dependencies', 'decorators', 'provides']
const providesTargets = ['request', 'reply', 'scope']
const decoratorTargets = ['fastify', 'request', 'reply']

/**
 * Refuses metadata that would be silently ignored: an unknown field (a typo such as `dependecies`
 * would drop a check) or a value of the wrong type. Thrown by lift() itself, where the stack
 * points at the declaration.
 */
export function checkLiftMeta(meta: unknown, plugin: string, isClass = false): void {
  const fail = (problem: string): never => { throw runtimeError('ENC_ERR_PLUGIN_META', { plugin: plugin === '' ? 'anonymous' : plugin, problem }) }
  // A module class is lifted by its modules layer, which would drop the meta without a word.
  if (isClass) fail('a class (a module) takes no meta: lift(Module) only, its needs are its imports and providers')
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) fail(`meta must be an object, got ${describe(meta)}`)
  const record = meta as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (!fields.includes(key)) {
      const hint = key === 'fastify' ? ' (a Fastify version range is for fastify-plugin; an Enclave plugin needs none)' : didYouMean(key, fields)
      fail(`'${key}' is not a field${hint}`)
    }
  }
  if (record.name !== undefined && (typeof record.name !== 'string' || record.name === '')) fail(`name must be a non-empty string, got ${describe(record.name)}`)
  if (record.dependencies !== undefined && !(Array.isArray(record.dependencies) && record.dependencies.every((d) => typeof d === 'string'))) {
    fail(`dependencies must be an array of plugin names, got ${describe(record.dependencies)}`)
  }
  checkProvides(record, fail)
  const decorators = record.decorators
  if (decorators === undefined) return
  if (decorators === null || typeof decorators !== 'object' || Array.isArray(decorators)) fail(`decorators must be an object, got ${describe(decorators)}`)
  for (const [key, names] of Object.entries(decorators as Record<string, unknown>)) {
    if (!decoratorTargets.includes(key)) fail(`decorators.${key} is not a field${didYouMean(key, decoratorTargets)}`)
    if (!(Array.isArray(names) && names.every((n) => typeof n === 'string' || typeof n === 'symbol'))) {
      fail(`decorators.${key} must be an array of decorator names, got ${describe(names)}`)
    }
  }
}

// What register() types and boot checks by name: `{ request: { workspace: type<W>() } }`. A name
// is required with it: @Requires() and hasPlugin() find the plugin by it.
function checkProvides(record: Record<string, unknown>, fail: (problem: string) => never): void {
  const provides = record.provides
  if (provides === undefined) return
  if (provides === null || typeof provides !== 'object' || Array.isArray(provides)) fail(`provides must be an object, got ${describe(provides)}`)
  if (record.name === undefined) fail("provides needs a name (lift(plugin, { name: 'workspace', provides })): @Requires() and hasPlugin() find the plugin by it")
  for (const [key, names] of Object.entries(provides as Record<string, unknown>)) {
    if (!providesTargets.includes(key)) fail(`provides.${key} is not a field${didYouMean(key, providesTargets)}`)
    if (names === null || typeof names !== 'object' || Array.isArray(names)) fail(`provides.${key} must be an object of names, each given type<T>(), got ${describe(names)}`)
  }
}

/**
 * `meta` with a plugin given in `dependencies` replaced by the name it is registered under (its
 * lift() name, else fastify-plugin's), which is what the load check (ENC_ERR_PLUGIN_DEPENDENCY) and
 * hasPlugin() know it by. A plugin without one cannot be found so: refused here, where the stack
 * points at the declaration.
 */
export function withDependencyNames(meta: LiftMeta, plugin: string): LiftMeta {
  const dependencies = (meta as { dependencies?: unknown } | null)?.dependencies
  if (!Array.isArray(dependencies) || !dependencies.some((d) => typeof d === 'function')) return meta
  const names = dependencies.map((dependency: unknown, index) => {
    if (typeof dependency !== 'function') return dependency
    const name = readPluginMeta(dependency).registeredName
    if (name === null) {
      throw runtimeError('ENC_ERR_PLUGIN_META', { plugin: plugin === '' ? 'anonymous' : plugin,
        problem: `dependencies[${index}] is a plugin without a name (${dependency.name === '' ? 'anonymous' : dependency.name}): give it one, lift(plugin, { name: '...' }), so its registration can be found, or list its name` })
    }
    return name
  })
  return { ...meta, dependencies: names as string[] }
}

/** A value as an option error names it. */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'string' ? `'${value}'` : typeof value
}
