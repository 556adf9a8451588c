import Ajv from 'ajv'
import { didYouMean } from '../errors/did-you-mean'
import { applyValidatorPlugins, baselineValidatorOptions } from './default-compilers'
import { schemaError } from './schema-codes'
import type { ValidatorOptions } from './types'

/**
 * Annotations that ajv 6 does not know but schemas written for OpenAPI tools carry; `x-` prefixed
 * extensions are accepted too. They change nothing in validation, so accepting them is safe.
 */
const ANNOTATIONS: ReadonlySet<string> = new Set(['example', 'deprecated', '$defs', 'discriminator', 'xml', 'externalDocs'])

/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'])
/** Keywords whose value is a subschema, or an array of subschemas. */
const SCHEMA_VALUES = new Set(['items', 'additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf'])

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Refuses JSON Schema keywords the validator does not know (`requird`, `maxLenght`): ajv 6
 * ignores them, so a typo silently switches a rule off. Known: ajv 6's own keywords (with the
 * server's options: `nullable`), those added by `validator.plugins` (asked of a probe ajv built
 * the same way), common annotations, `x-` extensions and `validator.customKeywords`.
 * `customKeywords: true` turns the check off.
 */
export class KeywordCheck {
  readonly #probe: Ajv.Ajv | null
  readonly #extra: ReadonlySet<string>

  constructor(options: ValidatorOptions | undefined) {
    const custom = options?.customKeywords
    this.#extra = new Set(Array.isArray(custom) ? custom : [])
    if (custom === true) { this.#probe = null; return }
    const probe = new Ajv({ ...baselineValidatorOptions, ...options?.customOptions })
    applyValidatorPlugins(probe, options?.plugins)
    this.#probe = probe
  }

  /** Throws ENC_ERR_SCH_UNKNOWN_KEYWORD for the first unknown keyword in `schema`; `where` names it. */
  check(schema: unknown, where: string): void {
    if (this.#probe === null) return
    const seen = new WeakSet<object>()
    const walk = (node: unknown, pointer: string): void => {
      if (Array.isArray(node)) { node.forEach((item, i) => walk(item, `${pointer}/${i}`)); return }
      if (!isObject(node) || seen.has(node)) return
      seen.add(node)
      for (const key of Object.keys(node)) {
        if (!this.#isKnown(key)) {
          throw schemaError('ENC_ERR_SCH_UNKNOWN_KEYWORD',
            `${where}: unknown JSON Schema keyword '${key}' at '${pointer || '/'}'${didYouMean(key, this.#knownNames())}. ` +
            'The validator would ignore it. Fix the name, or list a custom keyword in validator.customKeywords.')
        }
        const value = node[key]
        if (SCHEMA_MAPS.has(key) && isObject(value)) {
          for (const name of Object.keys(value)) walk(value[name], `${pointer}/${key}/${name}`)
        } else if (SCHEMA_VALUES.has(key)) {
          walk(value, `${pointer}/${key}`)
        }
      }
    }
    walk(schema, '')
  }

  #isKnown(key: string): boolean {
    return key.startsWith('x-') || ANNOTATIONS.has(key) || this.#extra.has(key) || Boolean((this.#probe as Ajv.Ajv).getKeyword(key))
  }

  #knownNames(): string[] {
    const rules = (this.#probe as unknown as { RULES: { keywords: Record<string, unknown>; custom: Record<string, unknown> } }).RULES
    return [...Object.keys(rules.keywords), ...Object.keys(rules.custom), ...ANNOTATIONS, ...this.#extra]
  }
}
