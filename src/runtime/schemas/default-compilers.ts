/**
 * The default compilers: ajv 6 validators and fast-json-stringify 7 serializers, one of each per set of
 * visible shared schemas (SchemaCompilers decides when to build), each caching its compiled functions.
 */
import Ajv from 'ajv'
import fastJson from 'fast-json-stringify'
import type { Schema } from 'fast-json-stringify'
import { schemaCacheKey } from './schema-walk'
import { coerceLikeFastify3 } from './response-coercion'
import { refuseNullRoot } from './null-root'
import { referencedExternals } from './referenced-externals'
import { kKnownKeywords, type KnownKeywords } from './keyword-check'
import { refuseNonFiniteCoercion } from './finite-coercion'
import { compileAtOnceWhenUsed } from './used-at-once'
import { markRefusesNonFinite } from './finite-guard'
import type { SchemaCodeCache } from './code-cache/schema-code-cache'
import type { PackedValidator } from './code-cache/ajv6-pack'
import { loadCacheCode } from './code-cache/load-cache-code'
import type {
  JsonSchema, SerializeFunction, SerializerCompiler, SerializerOptions, SharedSchema, ValidateFunction, ValidatorCompiler, ValidatorOptions,
  ValidatorPlugin,
} from './types'

/**
 * Wraps a compiler so that each distinct schema (by JSON text) is compiled once. A compiler built for
 * one visible set owns its cache, so two sibling scopes that give the same `$id` different bodies never
 * share a compiled function: same JSON text, different compiler, different cache. `compile` gets the
 * key too, for a compiler that keeps a cache of its own (ajv) and can reuse it.
 *
 * Only for compilers whose output depends on the schema alone (the default ones), not on `httpPart`,
 * `method` or `url`.
 */
export function cacheBySchema<I extends { schema: JsonSchema }, F>(compile: (input: I, key: string) => F): (input: I) => F {
  const compiled = new Map<string, F>()
  return (input: I): F => {
    const key = schemaCacheKey(input.schema)
    let fn = compiled.get(key)
    if (fn === undefined) {
      fn = compile(input, key)
      compiled.set(key, fn)
    }
    return fn
  }
}

/**
 * ajv 6 keys its own cache with fast-json-stable-stringify, a second full serialization of every
 * schema after cacheBySchema's. While `current()` names the schema being compiled, its key is
 * handed to ajv instead: equal keys still mean equal schemas, so ajv's cache stays correct. Every
 * other schema ajv caches (meta-schemas, addSchema) keeps ajv's own key. Left alone when the user
 * chose a `serialize` option.
 */
function reuseCacheKeys(ajv: Ajv.Ajv, current: () => { schema: unknown; key: string } | null): void {
  const options = (ajv as unknown as { _opts: { serialize?: unknown } })._opts
  const own = options.serialize
  if (typeof own !== 'function') return
  options.serialize = (schema: unknown): unknown => {
    const compiling = current()
    return compiling !== null && compiling.schema === schema ? compiling.key : (own as (s: unknown) => unknown)(schema)
  }
}

/**
 * The baseline ajv 6 options (spec §2.7, DESIGN §5), before `validator.customOptions`. `jsonPointers`
 * makes error paths read `querystring/hello` rather than `querystring.hello`; `allErrors` stays off
 * (it is a known denial-of-service risk and is enabled at the user's risk). `addUsedSchema: false`
 * keeps a route schema's own `$id` out of the instance: otherwise every scope sharing the instance could
 * `$ref` one route's schema (an encapsulation leak), and two routes giving the same `$id` different
 * bodies would collide. Only `addSchema` puts schemas in the instance.
 */
export const baselineValidatorOptions = Object.freeze({
  removeAdditional: true,
  useDefaults: true,
  coerceTypes: true,
  nullable: true,
  jsonPointers: true,
  allErrors: false,
  addUsedSchema: false,
})

/** Applies `validator.plugins` (each `plugin` or `[plugin, options]`) to one validator instance. */
export function applyValidatorPlugins(instance: unknown, plugins: readonly ValidatorPlugin[] | undefined): void {
  for (const entry of plugins ?? []) {
    if (Array.isArray(entry)) entry[0](instance, entry[1])
    else entry(instance)
  }
}

/**
 * `validator.plugins` on the default ajv 6 instance. Current plugins are often written for ajv 8
 * (@fastify/multipart's ajvFilePlugin, ajv-formats): they call `addKeyword({ keyword, ... })`,
 * which ajv 6 answers with "Keyword [object Object] is not a valid identifier". That call is
 * caught while the plugins run, and refused with what it is and where ajv 8 plugins go.
 */
function applyAjv6Plugins(ajv: Ajv.Ajv, plugins: readonly ValidatorPlugin[] | undefined): void {
  if (plugins === undefined || plugins.length === 0) return
  const addKeyword = ajv.addKeyword
  let index = 0
  ajv.addKeyword = function (this: Ajv.Ajv, keyword: unknown, definition?: unknown) {
    if (typeof keyword === 'object' && keyword !== null) {
      const name = (keyword as { keyword?: unknown }).keyword
      throw new Error(`validator.plugins[${index}] calls ajv.addKeyword({ keyword: ${JSON.stringify(name)}, ... }), ajv 8's form: it is a plugin for ajv 8, and the default validator is ajv 6. `
        + 'Give it to ajv 8 instead: schemaController: { compilersFactory: ajv8CompilersFactory({ plugins: [...] }) }')
    }
    return addKeyword.call(this, keyword as string, definition as Ajv.KeywordDefinition)
  } as typeof ajv.addKeyword
  try {
    for (; index < plugins.length; index++) applyValidatorPlugins(ajv, [plugins[index]])
  } finally {
    ajv.addKeyword = addKeyword
  }
}

/**
 * The default validator compiler for one set of visible shared schemas: one ajv 6 instance with the
 * baseline options merged with `validator.customOptions`, the plugins applied and every shared schema
 * added, so that all six `$ref` forms of spec §2.3 resolve. Each distinct schema is compiled once.
 * Compile errors (invalid schema, ajv's MissingRefError) are thrown as they are; the route compiler
 * turns them into coded errors.
 */
export function buildDefaultValidator(externalSchemas: Record<string, SharedSchema>, options: ValidatorOptions, cache: SchemaCodeCache | null = null): ValidatorCompiler {
  const custom = options.customOptions as { processCode?: (code: string, schema?: unknown) => string } | undefined
  const ajvOptions = { ...baselineValidatorOptions, ...options.customOptions }
  // The schema cache (schemaCache option) stores ajv's code, which it keeps only with sourceCode.
  const code = cache === null ? null : loadCacheCode()
  const fingerprint = code === null ? null : code.validatorFingerprint(ajvOptions, options, externalSchemas)
  // Strings such as "Infinity" are never coerced to a non-finite number (finite-coercion.ts).
  const refuseNonFinite = refuseNonFiniteCoercion(custom?.processCode)
  // Without the schema cache, a lazy route's validator is compiled in one parse (used-at-once.ts);
  // with it, the stored code stays what ajv wrote, whatever built it. A user's processCode may
  // write code of any shape: it is left as that function returns it.
  const atOnce = fingerprint === null && custom?.processCode === undefined
  const processCode = atOnce ? (code: string, schema?: unknown) => compileAtOnceWhenUsed(refuseNonFinite(code, schema)) : refuseNonFinite
  const ajv = new Ajv({ ...ajvOptions, processCode, ...(fingerprint === null ? {} : { sourceCode: true }) })
  let compiling: { schema: unknown; key: string } | null = null
  if (options.customOptions?.serialize === undefined) reuseCacheKeys(ajv, () => compiling)
  applyAjv6Plugins(ajv, options.plugins)
  for (const id of Object.keys(externalSchemas)) ajv.addSchema(externalSchemas[id] as object)
  const compile = (schema: JsonSchema, key: string): ValidateFunction => {
    compiling = { schema, key }
    try {
      return ajv.compile(schema) as ValidateFunction
    } finally {
      compiling = null
    }
  }
  const compiler = cacheBySchema(({ schema }, key) => markRefusesNonFinite(cache === null || code === null ? compile(schema, key) : code.fromCache(cache, 'ajv6', fingerprint, key, {
    load: (stored) => code.unpackValidator(stored as PackedValidator, schema, ajv) as ValidateFunction,
    build: () => {
      const fn = compile(schema, key)
      // The entry is keyed by the schema's JSON text, so it is stored only when that text is all
      // there is to the schema: `maximum: Infinity` keys as `null`, which ajv refuses.
      return { fn, stored: code.isPlainJson(schema) ? code.packValidator(fn) : null }
    },
    plain: () => compile(schema, key),
  })))
  // The unknown-keyword check (keyword-check.ts) asks this instance, plugins' keywords included.
  const rules = (ajv as unknown as { RULES: { keywords: Record<string, unknown>; custom: Record<string, unknown> } }).RULES
  const known: KnownKeywords = { has: (keyword) => Boolean(ajv.getKeyword(keyword)), names: () => [...Object.keys(rules.keywords), ...Object.keys(rules.custom)] }
  Object.defineProperty(compiler, kKnownKeywords, { value: known })
  return compiler
}

/**
 * The default serializer compiler for one set of visible shared schemas: fast-json-stringify 7, given
 * the shared schemas keyed by `$id` through its `schema` option (it resolves `id#`, `id#/definitions/x`,
 * `id#name`, `id#/properties/x`, `#name` and `#/definitions/x` against them). Properties that are not
 * in the response schema are left out of the output (spec §1.6). `options` is the server's `serializerOpts`
 * (`rounding: 'ceil'` ...), as Fastify passes them. A value a number or integer type cannot hold is left
 * out, as Fastify 3 does (response-coercion.ts), and null under an object or array root is refused
 * as Fastify 3 refuses it (null-root.ts). Each distinct schema is compiled once.
 */
export function buildDefaultSerializer(externalSchemas: Record<string, SharedSchema>, options: SerializerOptions = {}, cache: SchemaCodeCache | null = null): SerializerCompiler {
  const build = (schema: JsonSchema, external: Readonly<Record<string, SharedSchema>>): SerializeFunction =>
    fastJson(schema as unknown as Schema, { ...options, schema: external as unknown as Record<string, Schema> }) as SerializeFunction
  // The schema cache (schemaCache option) stores fast-json-stringify's standalone code: the
  // function is evaluated from that text, on a hit and on a miss alike.
  const code = cache === null ? null : loadCacheCode()
  const fingerprint = code === null ? null : code.serializerFingerprint(options, externalSchemas)
  const standalone = (schema: JsonSchema, external: Readonly<Record<string, SharedSchema>>): string =>
    fastJson(schema as unknown as Schema, { ...options, schema: external as unknown as Record<string, Schema>, mode: 'standalone' }) as unknown as string
  // fast-json-stringify checks every shared schema it is given, on every build. Until one build has
  // succeeded with all of them, each build gets all of them, so a shared schema it refuses fails
  // every route as before; after that, only those the schema refers to (referenced-externals.ts).
  // A cached entry is keyed with all of them, so it exists only where that check passed.
  let allAccepted = Object.keys(externalSchemas).length === 0
  return cacheBySchema(({ schema }, key) => {
    const external = allAccepted ? referencedExternals(schema, externalSchemas) : externalSchemas
    const serialize = cache === null || code === null ? build(schema, external) : code.fromCache(cache, 'fjs7', fingerprint, key, {
      load: (stored) => code.evaluateStandaloneSerializer(stored),
      build: () => {
        // Keyed (and, in the standalone code, partly held) as JSON: a schema that is more than
        // its JSON text is compiled as without the cache.
        if (!code.isPlainJson(schema)) return { fn: build(schema, external), stored: null }
        const text = standalone(schema, external)
        let fn: SerializeFunction
        try {
          fn = code.evaluateStandaloneSerializer(text)
        } catch {
          // Code that needs a module the cache does not hand out: compiled as usual, not stored.
          return { fn: build(schema, external), stored: null }
        }
        return { fn, stored: text }
      },
      plain: () => build(schema, external),
    })
    allAccepted = true
    return refuseNullRoot(coerceLikeFastify3(serialize, schema, externalSchemas, build), schema, externalSchemas)
  })
}
