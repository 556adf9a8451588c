/**
 * What a cached function depends on besides its schema, as one digest per compiler: the library
 * versions, Enclave's own code generation (its version and the finite-coercion patch), the
 * compiler options, the plugins and every shared schema the compiler was built with. An entry's
 * key hashes this digest with the schema's text, so any change is a miss, never a stale hit.
 * null means "cannot be keyed safely": the compiler then does not use the cache.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { isPlainJson, optionText } from './json-value'
import { sha256 } from './sha256'
import { schemaCacheKey } from '../schema-walk'
import { COERCION_PATCH } from '../finite-coercion'
import type { SharedSchema, ValidatorOptions, ValidatorPlugin } from '../types'

/** Bumped whenever what the cache stores, or how Enclave generates code around it, changes. */
const CACHE_FORMAT = 'enclave-schema-cache/2'

let versions: string | null | undefined

function packageVersion(name: string): string | null {
  try {
    return (require(`${name}/package.json`) as { version: string }).version
  } catch {
    return null
  }
}

/** Enclave's version: the package.json above this file (src/ or dist/src/); null when there is none. */
function enclaveVersion(): string | null {
  for (let dir = __dirname, i = 0; i < 8; i++, dir = dirname(dir)) {
    const file = join(dir, 'package.json')
    if (!existsSync(file)) continue
    try {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'enclave' && typeof pkg.version === 'string') return pkg.version
    } catch { /* keep looking */ }
  }
  return null
}

/**
 * The library versions and Enclave's code generation, read once per process; null when Enclave's,
 * ajv's or fast-json-stringify's version cannot be read (a bundle without their package.json):
 * an upgrade would then not change the keys, so nothing is cached.
 */
export function libraryVersions(): string | null {
  if (versions !== undefined) return versions
  const enclave = enclaveVersion()
  const ajv = packageVersion('ajv')
  const fastJsonStringify = packageVersion('fast-json-stringify')
  if (enclave === null || ajv === null || fastJsonStringify === null) return (versions = null)
  versions = JSON.stringify({
    format: CACHE_FORMAT,
    enclave,
    ajv,
    ajvErrors: packageVersion('ajv-errors'),
    fastJsonStringify,
    patch: COERCION_PATCH,
    // fast-json-stringify's code depends on the runtime: its array fast-path thresholds on node's
    // major, its objectMechanism 'native' projection on V8's version (lib/v8.js).
    node: process.versions.node.split('.')[0],
    v8: process.versions.v8,
  })
  return versions
}

/** The shared schemas a compiler is built with, in `$id` order (their text, as cacheBySchema keys them). */
function sharedText(externalSchemas: Readonly<Record<string, SharedSchema>>): string | null {
  const parts: string[] = []
  for (const id of Object.keys(externalSchemas).sort()) {
    const schema = externalSchemas[id]
    // Keyed by its JSON text, which must then be all there is to it (Infinity would read as null).
    if (!isPlainJson(schema)) return null
    const text = schemaCacheKey(schema)
    if (!keyableSchemaText(text)) return null
    parts.push(JSON.stringify(id), text)
  }
  return `[${parts.join(',')}]`
}

/**
 * Plugins are functions: only those whose identity can be named are keyed. ajv-errors is, by
 * module identity and version (its `errorMessage` keyword writes inline code, which the cache
 * stores). Anything else: null.
 */
function pluginText(plugins: readonly ValidatorPlugin[]): string | null {
  if (plugins.length === 0) return '[]'
  let ajvErrors: unknown
  try {
    ajvErrors = require('ajv-errors')
  } catch {
    return null
  }
  const parts: string[] = []
  for (const entry of plugins) {
    const [fn, options] = Array.isArray(entry) ? entry : [entry, undefined]
    if (fn !== ajvErrors) return null
    const text = optionText(options)
    if (text === null) return null
    parts.push(`["ajv-errors",${text}]`)
  }
  return `[${parts.join(',')}]`
}

function digest(parts: readonly string[]): string {
  return sha256(parts.join('\u0000'))
}

/** The default validator's digest: ajv options (baseline and custom), plugins, shared schemas; null when not cacheable. */
export function validatorFingerprint(ajvOptions: Readonly<Record<string, unknown>>, options: ValidatorOptions, externalSchemas: Readonly<Record<string, SharedSchema>>): string | null {
  // A processCode, logger or serialize of the user's is code whose effect a key cannot name.
  const custom = options.customOptions ?? {}
  for (const name of ['processCode', 'logger', 'serialize', '$comment']) if (custom[name] !== undefined) return null
  const optionsText = optionText(ajvOptions)
  const plugins = pluginText(options.plugins ?? [])
  const shared = sharedText(externalSchemas)
  const versionsText = libraryVersions()
  if (optionsText === null || plugins === null || shared === null || versionsText === null) return null
  return digest(['validator', versionsText, optionsText, plugins, shared])
}

/** The default serializer's digest: fast-json-stringify's options and the shared schemas; null when not cacheable. */
export function serializerFingerprint(options: Readonly<Record<string, unknown>>, externalSchemas: Readonly<Record<string, SharedSchema>>): string | null {
  // inlineValidators: the standalone code then requires ajv 8's and ajv-formats' runtime modules.
  if (options.mode !== undefined || options.inlineValidators !== undefined) return null
  // The standalone code holds the options as JSON (its serializer and validator state): a RegExp
  // (an ajv format) would come back as `{}`.
  const optionsText = optionText(options, false)
  const shared = sharedText(externalSchemas)
  const versionsText = libraryVersions()
  if (optionsText === null || shared === null || versionsText === null) return null
  return digest(['serializer', versionsText, optionsText, shared])
}

/** One entry's key: the compiler's digest and the schema's text (cacheBySchema's key). */
export function entryKey(fingerprint: string, schemaText: string): string {
  return sha256(`${fingerprint}\u0000${schemaText}`).slice(0, 40)
}

/**
 * A schema text the cache may key: none of cacheBySchema's stand-ins for a function or a RegExp
 * (a string starting with U+0000, which JSON writes as the six characters `\u0000`): a function is
 * keyed by its text only, which a closure outlives.
 */
export function keyableSchemaText(schemaText: string): boolean {
  return !schemaText.includes('\\u0000')
}
