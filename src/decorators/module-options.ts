import { declarationError, type DeclarationError } from './declaration-error'
import type { ModuleMeta, ModuleOptions } from './types'
import { withLeadingSlash } from './leading-slash'
import { checkProviderScope } from './request-scoped'
import { standardOf } from '../runtime/schemas/standard-schema'
import { unknownOptions } from '../runtime/schemas/unknown-options'

const optionKeys = ['plugins', 'controllers', 'providers', 'schemas', 'prefix', 'schemaErrorFormatter', 'validatorCompiler', 'serializerCompiler', 'schemaCompilation'] as const
// Keeps the list above in step with the ModuleOptions type: a key added to one must go in the other.
type Missing = Exclude<keyof ModuleOptions, typeof optionKeys[number]>
const complete: Missing extends never ? true : Missing = true
void complete

// Sharing providers upward (NestJS's imports/exports/global) is lift() here: each hint says so.
const liftHint = (name: string): string => `to share ${name}'s providers with its parent (and so its siblings), list it as lift(${name}) in the parent's plugins`

/** Keys people reach for from other frameworks (NestJS), and what Enclave does instead; no trailing period. */
const didYouMean: Record<string, (name: string, value: unknown) => string> = {
  imports: (name, value) => {
    // NestJS's `imports: [UsersModule]` is there to inject UsersModule's exported providers: name that module.
    const listed = Array.isArray(value) ? value.flatMap((entry) => (typeof entry === 'function' && entry.name !== '' ? [entry.name as string] : [])) : []
    if (listed.length === 0) return `Did you mean 'plugins'? Children are listed in 'plugins': a child sees its parent's providers, not the reverse; ${liftHint(name)}`
    return `Did you mean 'plugins: [${listed.join(', ')}]'? Children are listed in 'plugins': a child sees its parent's providers, not the reverse, ` +
      `so for ${name} to inject ${listed[0]}'s providers (what NestJS's exports gave) list lift(${listed[0]}) in ${name}'s plugins: a lifted module provides into the module that lists it`
  },
  modules: () => "Did you mean 'plugins'? Children are listed in 'plugins'",
  children: () => "Did you mean 'plugins'? Children are listed in 'plugins'",
  routes: () => "Routes come from the controllers listed in 'controllers'",
  exports: (name) => `A module's providers are visible to it and its descendants, with nothing to export; ${liftHint(name)}`,
  global: (name) => `There are no global modules: a provider of the root module is visible to every module; ${liftHint(name)} (the root's, to share them with every module)`,
}

/** Checks the shape of `@Module()` options; the module layer checks what the entries mean at boot. */
export function toModuleMeta(name: string, options: ModuleOptions | undefined): ModuleMeta {
  if (options === undefined) options = {}
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw optionError(name, `takes an options object, got ${describeValue(options)}`)
  }
  for (const key of Object.keys(options)) {
    if (!(optionKeys as readonly string[]).includes(key)) {
      // optionError ends the sentence: the text here must not end with a period. A NestJS key
      // gets what Enclave does instead; any other the closest known key (`controller`).
      const hint = Object.hasOwn(didYouMean, key) ? `. ${didYouMean[key](name, (options as Record<string, unknown>)[key])}` : ''
      const unknown = hint === '' ? unknownOptions({ [key]: true }, optionKeys) : `unknown option '${key}'`
      throw optionError(name, `has an ${unknown} (known options: ${optionKeys.join(', ')})${hint}`)
    }
  }
  const given = options.prefix ?? ''
  if (typeof given !== 'string') {
    throw optionError(name, `option 'prefix' must be a string ('/api' or 'api'), got ${describeValue(given)}`)
  }
  const prefix = withLeadingSlash(given)
  return {
    plugins: list(name, 'plugins', options.plugins, isPluginEntry, 'a module class, lift(Module), a plugin function or [pluginFunction, options]'),
    controllers: list(name, 'controllers', options.controllers, isFunction, 'a controller class (decorated with @Route())'),
    providers: providerList(name, options.providers),
    schemas: list(name, 'schemas', options.schemas, isSchemaEntry, 'a @Schema() class or a schema object with a string $id'),
    prefix: prefix.endsWith('/') ? prefix.slice(0, -1) : prefix,
    schemaErrorFormatter: fn(name, 'schemaErrorFormatter', options.schemaErrorFormatter),
    validatorCompiler: fn(name, 'validatorCompiler', options.validatorCompiler),
    serializerCompiler: fn(name, 'serializerCompiler', options.serializerCompiler),
    schemaCompilation: compilationMode(name, options.schemaCompilation),
  }
}

function list<T>(name: string, key: string, value: readonly T[] | undefined, valid: (entry: unknown) => boolean, expected: string): readonly T[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) throw optionError(name, `option '${key}' must be an array, got ${describeValue(value)}`)
  value.forEach((entry, index) => {
    if (entry === undefined || entry === null) {
      throw declarationError('ENC_ERR_DECL_MODULE_ENTRY', { name, entry: `${key}[${index}]`, got: String(entry) })
    }
    if (!valid(entry)) {
      const dynamicModule = key === 'plugins' ? dynamicModuleName(entry) : undefined
      throw declarationError('ENC_ERR_DECL_MODULE_ENTRY', { name, entry: `${key}[${index}]`, got: key === 'providers' ? describeProviderEntry(entry) : describeValue(entry), expected, dynamicModule })
    }
  })
  return Object.freeze([...value])
}

function providerList(name: string, value: ModuleOptions['providers']): ModuleMeta['providers'] {
  // isProviderEntry refuses what only the compile error's ProviderWithoutUse describes.
  const providers: ModuleMeta['providers'] = list(name, 'providers', value, isProviderEntry, 'a class or { provide, useClass | useValue | useExisting | useFactory[, inject, dispose] }') as ModuleMeta['providers']
  providers.forEach((entry, index) => {
    if (typeof entry !== 'object' || !('scope' in entry)) return
    const scope = (entry as { scope?: unknown }).scope
    // A value or an alias has no lifetime of its own: the value's owner, or the aliased provider, decides.
    if (!('useClass' in entry) && !('useFactory' in entry)) {
      throw declarationError('ENC_ERR_DECL_PROVIDER_SCOPE', { name, entry: `providers[${index}]`, got: typeof scope === 'string' ? `'${scope}'` : String(scope), misplaced: true, hint: 'scope goes on a useClass or useFactory entry: a useValue is built by its owner, and a useExisting alias has the scope of the provider it names.' })
    }
    checkProviderScope(name, `providers[${index}]`, scope)
  })
  return providers
}

function compilationMode(name: string, value: unknown): 'eager' | 'lazy' | null {
  if (value === undefined) return null
  if (value !== 'eager' && value !== 'lazy') throw optionError(name, `option 'schemaCompilation' must be 'eager' or 'lazy', got ${describeValue(value)}`)
  return value
}

function fn<F>(name: string, key: string, value: F | undefined): F | null {
  if (value === undefined) return null
  if (typeof value !== 'function') throw optionError(name, `option '${key}' must be a function, got ${describeValue(value)}`)
  return value
}

const isFunction = (entry: unknown): boolean => typeof entry === 'function'
/** NestJS's DynamicModule shape (`{ module: CacheModule, providers }`): the class's name, so the error can answer the habit. */
function dynamicModuleName(entry: unknown): string | undefined {
  const module = typeof entry === 'object' && entry !== null ? (entry as { module?: unknown }).module : undefined
  return typeof module === 'function' ? module.name || 'anonymous class' : undefined
}
const isPluginEntry = (entry: unknown): boolean => typeof entry === 'function' ||
  (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'function' && entry[1] !== null && typeof entry[1] === 'object')
// A zod (Standard Schema) object passes here so that addSchema() refuses it naming the fix (ENC_ERR_SCH_FOREIGN_SCHEMA).
const isSchemaEntry = (entry: unknown): boolean => typeof entry === 'function' ||
  (typeof entry === 'object' && entry !== null && (typeof (entry as { $id?: unknown }).$id === 'string' || standardOf(entry) !== undefined))
function isProviderEntry(entry: unknown): boolean {
  if (typeof entry === 'function') return true
  if (typeof entry !== 'object' || entry === null || !('provide' in entry)) return false
  const uses = ['useClass', 'useValue', 'useFactory', 'useExisting'].filter((k) => k in entry)
  if (uses.length !== 1) return false
  const p = entry as Record<string, unknown>
  if (uses[0] === 'useClass' && typeof p.useClass !== 'function') return false
  // An alias of itself would resolve forever.
  if (uses[0] === 'useExisting' && (p.useExisting === undefined || p.useExisting === null || p.useExisting === p.provide)) return false
  if (uses[0] === 'useFactory' && (typeof p.useFactory !== 'function' || (p.inject !== undefined && !Array.isArray(p.inject)))) return false
  // dispose releases what a factory built; a useValue's owner releases it, a class has its own methods.
  if ('dispose' in entry && (uses[0] !== 'useFactory' || typeof p.dispose !== 'function')) return false
  return p.provide !== undefined && p.provide !== null
}

function optionError(name: string, what: string): DeclarationError {
  return declarationError('ENC_ERR_DECL_MODULE_OPTIONS', { name, problem: what })
}

/** A refused provider object by what is wrong with its use* keys, the commonest mistake (`{ provide: Token }` alone). */
function describeProviderEntry(entry: unknown): string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || !('provide' in entry)) return describeValue(entry)
  const uses = ['useClass', 'useValue', 'useFactory', 'useExisting'].filter((k) => k in entry)
  if (uses.length === 0) return 'an object with provide but none of useClass, useValue, useFactory and useExisting'
  if (uses.length > 1) return `an object with ${uses.join(' and ')} (one of them only)`
  return 'an object'
}

export function describeValue(value: unknown): string {
  if (typeof value === 'function') return value.name ? `function ${value.name}` : 'an anonymous function'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `'${value}'`
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value)
}
