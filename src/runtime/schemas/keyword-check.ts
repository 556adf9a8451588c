import { closestName, didYouMean } from './did-you-mean'
import { schemaError } from './schema-codes'
import { standardOf } from './standard-schema'

/**
 * Annotations that ajv 6 does not know but schemas written for OpenAPI tools carry; `x-` prefixed
 * extensions are accepted too. They change nothing in validation, so accepting them is safe.
 */
const ANNOTATIONS: readonly string[] = ['example', 'deprecated', '$defs', 'discriminator', 'xml', 'externalDocs']

/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'])
/** Keywords whose value is a subschema, or an array of subschemas. */
const SCHEMA_VALUES = new Set(['items', 'additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf'])

/** What the validator instance knows: its own keywords and those its plugins added. */
export interface KnownKeywords {
  has(keyword: string): boolean
  names(): string[]
}

/** Attached by the default validator compiler (default-compilers.ts) to the compiler function. */
export const kKnownKeywords = Symbol('enclave.knownKeywords')

const hasOwn = Object.prototype.hasOwnProperty

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Refuses JSON Schema keywords the validator does not know (`requird`, `maxLenght`): ajv 6
 * ignores them, so a typo silently switches a rule off. Known: the validator instance's keywords
 * (ajv 6's own with the server's options, `nullable`, and those added by `validator.plugins`),
 * common annotations, `x-` extensions and `validator.customKeywords` (`true` turns the check off).
 * Throws ENC_ERR_SCH_UNKNOWN_KEYWORD for the first unknown one; `where` names the schema.
 */
export function checkKeywords(schema: unknown, known: KnownKeywords, extra: ReadonlySet<string>, where: string): void {
  // A Set, not a WeakSet: it lives for one walk, and a WeakSet's entries are ephemerons the GC
  // treats specially (every route schema is checked at boot, two walks a route).
  const seen = new Set<object>()
  const names = knownNames(known)
  const isKnown = (key: string): boolean => names.has(key) || (known.has(key) ? (names.add(key), true) : false) ||
    extra.has(key) || ANNOTATIONS.includes(key) || key.startsWith('x-')
  // The path to the node being walked, as tokens: the pointer string is built only for an error.
  const path: string[] = []
  const walk = (node: unknown): void => {
    // Arrays too: an array that holds itself (`anyOf: a` with `a.push(a)`) would recurse until the stack overflowed.
    if (typeof node !== 'object' || node === null || seen.has(node)) return
    seen.add(node)
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) { path.push(String(i)); walk(node[i]); path.pop() }
      return
    }
    if (!isObject(node)) return
    checkRequiredNames(node, where, path)
    // for-in with an own-key test: Object.keys' order without a keys array per node (boot walks
    // about 30 nodes a route twice). A value that is not an object holds no subschema.
    for (const key in node) {
      if (!hasOwn.call(node, key)) continue
      if (!isKnown(key)) {
        // Looked for only here, on the way to an error: a zod schema's own keys (`def`, `type`) are what get it refused.
        const vendor = standardOf(node)?.vendor
        const pointer = path.map((token) => `/${token}`).join('') || '/'
        if (vendor !== undefined) throw schemaError('ENC_ERR_SCH_FOREIGN_SCHEMA', { where, vendor, pointer })
        throw schemaError('ENC_ERR_SCH_UNKNOWN_KEYWORD', { where, key, pointer, hint: didYouMean(key, [...known.names(), ...ANNOTATIONS, ...extra]) })
      }
      const value = node[key]
      if (typeof value !== 'object' || value === null) continue
      if (SCHEMA_MAPS.has(key) && isObject(value)) {
        path.push(key)
        for (const name in value) {
          if (!hasOwn.call(value, name)) continue
          path.push(name)
          walk(value[name])
          path.pop()
        }
        path.pop()
      } else if (SCHEMA_VALUES.has(key)) {
        path.push(key)
        walk(value)
        path.pop()
      }
    }
  }
  walk(schema)
}

/**
 * `required: ['titel']` beside `properties: { title }`: valid JSON Schema (a required property
 * need not be described), so ajv refuses every request for lacking 'titel' and nothing says the
 * schema is wrong. Refused only where the name is a likely typo of a declared property (did-you-mean
 * distance, or for a name under 4 characters a difference of case; the property not itself required)
 * and no other keyword of the node could be what describes it (describedElsewhere); a required
 * name unrelated to every property is left alone (an undescribed but required field is legitimate).
 */
function checkRequiredNames(node: Record<string, unknown>, where: string, path: readonly string[]): void {
  const required = node.required
  const properties = node.properties
  if (!Array.isArray(required) || !isObject(properties) || describedElsewhere(node)) return
  for (const name of required) {
    if (typeof name !== 'string' || hasOwn.call(properties, name)) continue
    const declared = Object.keys(properties)
    const closest = closestName(name, declared)
    if (closest === null || required.includes(closest)) continue
    // Short names are one edit from many others (`x` and `y`): only a difference of case counts there.
    if (name.length < 4 && closest.toLowerCase() !== name.toLowerCase()) continue
    const pointer = `${path.map((token) => `/${token}`).join('')}/required`
    throw schemaError('ENC_ERR_SCH_REQUIRED_UNDECLARED', { where, name, closest, pointer })
  }
}

/**
 * Whether a property this node's own `properties` lacks may be described by another of its
 * keywords: patternProperties, an additionalProperties schema, a $ref or a combinator (allOf's
 * branch may declare `titles` beside `title`), a conditional or dependencies. Then a required
 * name near a declared one is not taken for a typo.
 */
function describedElsewhere(node: Record<string, unknown>): boolean {
  return node.patternProperties !== undefined || isObject(node.additionalProperties) || node.$ref !== undefined ||
    node.allOf !== undefined || node.anyOf !== undefined || node.oneOf !== undefined || node.if !== undefined ||
    node.then !== undefined || node.else !== undefined || node.dependencies !== undefined
}

/**
 * Keyword names a validator instance has said it knows, asked once per name rather than once per
 * use (every route schema is checked at boot). Only "known" is remembered: an unknown name is asked
 * again each time, so a keyword a plugin adds later still counts.
 */
const knownByValidator = new WeakMap<KnownKeywords, Set<string>>()

function knownNames(known: KnownKeywords): Set<string> {
  let names = knownByValidator.get(known)
  if (names === undefined) knownByValidator.set(known, names = new Set())
  return names
}

/** The keyword knowledge a default validator compiler carries, or null for any other compiler. */
export function knownKeywordsOf(compiler: unknown): KnownKeywords | null {
  return typeof compiler === 'function' ? (compiler as { [kKnownKeywords]?: KnownKeywords })[kKnownKeywords] ?? null : null
}
