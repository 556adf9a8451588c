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
  const text = JSON.stringify(schema)
  if (!text.includes('"number"') && !text.includes('"integer"') && !text.includes('"$ref"')) return validate
  return (data) => {
    const outcome = validate(data)
    if (outcome !== undefined) return outcome
    const key = firstNonFinite(data)
    if (key === null) return undefined
    return {
      errors: [{ keyword: 'type', dataPath: `/${key}`, schemaPath: `#/properties/${key}/type`, params: { type: 'number' }, message: 'should be a finite number' }],
    }
  }
}

function firstNonFinite(data: unknown): string | null {
  if (data === null || typeof data !== 'object') return null
  const record = data as Record<string, unknown>
  for (const key in record) {
    const value = record[key]
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return key
    } else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'number' && !Number.isFinite(item)) return key
    }
  }
  return null
}
