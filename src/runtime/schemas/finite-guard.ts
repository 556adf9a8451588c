import type { JsonSchema, PartValidator } from './types'

/**
 * ajv 6 coerces the strings "Infinity" and "1e309" to Infinity, and its `integer` and `number`
 * checks accept it (`Infinity % 1` is NaN, and `!NaN` is true). From a query string, params or
 * headers that lets any client put Infinity into the handler's data, where a response schema
 * then fails to serialize it: a 500 on demand. JSON bodies never carry Infinity (the parser
 * refuses out-of-range numbers), so only these flat, string-sourced parts are guarded, and only
 * when their schema can produce numbers.
 */
export function withFiniteGuard(validate: PartValidator, schema: JsonSchema): PartValidator {
  if (!mayHoldNumbers(schema)) return validate
  const keys = numericKeys(schema)
  const find = keys === null ? firstNonFinite : (data: unknown) => firstNonFiniteOf(data, keys)
  return (data) => {
    const outcome = validate(data)
    if (outcome !== undefined) return outcome
    const key = find(data)
    if (key === null) return undefined
    return {
      errors: [{ keyword: 'type', dataPath: `/${key}`, schemaPath: `#/properties/${key}/type`, params: { type: 'number' }, message: 'should be a finite number' }],
    }
  }
}

function mayHoldNumbers(schema: unknown): boolean {
  const text = JSON.stringify(schema)
  return text.includes('"number"') || text.includes('"integer"') || text.includes('"$ref"')
}

// Keywords that can put a value under a key that `properties` does not name, or reshape it.
const OPEN_KEYWORDS = ['$ref', 'patternProperties', 'additionalProperties', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependencies']

/**
 * The keys whose value may come out of validation as a number, when the schema names them all
 * in `properties`; null when it cannot be told (a `$ref`, `patternProperties`, a combinator...),
 * and every key is checked instead.
 */
function numericKeys(schema: JsonSchema): string[] | null {
  const record = schema as Record<string, unknown>
  for (const keyword of OPEN_KEYWORDS) {
    if (record[keyword] !== undefined && !(keyword === 'additionalProperties' && typeof record[keyword] === 'boolean')) return null
  }
  const properties = record.properties
  if (properties === null || typeof properties !== 'object') return null
  return Object.keys(properties).filter((key) => mayHoldNumbers((properties as Record<string, unknown>)[key]))
}

function isNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value)
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'number' && !Number.isFinite(item)) return true
  }
  return false
}

function firstNonFiniteOf(data: unknown, keys: readonly string[]): string | null {
  if (data === null || typeof data !== 'object') return null
  const record = data as Record<string, unknown>
  for (const key of keys) if (isNonFinite(record[key])) return key
  return null
}

function firstNonFinite(data: unknown): string | null {
  if (data === null || typeof data !== 'object') return null
  const record = data as Record<string, unknown>
  for (const key in record) if (isNonFinite(record[key])) return key
  return null
}
