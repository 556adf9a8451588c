import type { JsonSchema, PartValidator, ValidateFunction } from './types'

/**
 * ajv 6 coerces the strings "Infinity" and "1e309" to Infinity, and its `integer` and `number`
 * checks accept it (`Infinity % 1` is NaN, and `!NaN` is true); ajv 8 accepts Infinity too. In a
 * handler's data, a response schema then fails to serialize it: a 500 on demand, or `null` stored.
 * The default validator never coerces a string to them (finite-coercion.ts) and marks its functions;
 * a function from any other compiler is guarded here after it passes: the flat, string-sourced
 * parts (params, querystring, headers) on their keys, a body at any depth. Only when the part's
 * schema can produce numbers.
 */

const kRefusesNonFinite = Symbol('enclave.refusesNonFinite')

/** Notes that `fn` fails any number that is not finite, coerced ones included (the default validator). */
export function markRefusesNonFinite(fn: ValidateFunction): ValidateFunction {
  Object.defineProperty(fn, kRefusesNonFinite, { value: true })
  return fn
}

/** The validator for `part`: `validator` as is when `fn` refuses non-finite numbers itself, else guarded. */
export function guardNonFinite(validator: PartValidator, fn: ValidateFunction, schema: JsonSchema, part: string): PartValidator {
  if ((fn as { [kRefusesNonFinite]?: boolean })[kRefusesNonFinite] === true) return validator
  return part === 'body' ? withDeepFiniteGuard(validator, schema) : withFiniteGuard(validator, schema)
}

function finiteError(dataPath: string, schemaPath: string) {
  return { errors: [{ keyword: 'type', dataPath, schemaPath, params: { type: 'number' }, message: 'should be a finite number' }] }
}

/**
 * A body nests, and the schema that put a number where is the other compiler's business: the
 * coerced data is walked whole (only after it passed, and only when the schema can hold numbers).
 * The walk allocates nothing (about 20 µs on the 64 KB `bulk` body; one building paths cost 150 µs);
 * the path of the culprit is looked for only when there is one.
 */
function withDeepFiniteGuard(validate: PartValidator, schema: JsonSchema): PartValidator {
  if (!mayHoldNumbers(schema)) return validate
  return (data) => {
    const outcome = validate(data)
    if (outcome !== undefined || !holdsNonFinite(data)) return outcome
    return finiteError(pathToNonFinite(data) ?? '', '#')
  }
}

function holdsNonFinite(root: unknown): boolean {
  if (typeof root === 'number') return !Number.isFinite(root)
  // Iterative: a custom parser's data may nest deeper than the JSON parser's depth limit.
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (value === null || typeof value !== 'object') continue
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index]
        if (typeof item === 'number') { if (!Number.isFinite(item)) return true } else if (item !== null && typeof item === 'object') stack.push(item)
      }
    } else {
      for (const key in value) {
        const item = (value as Record<string, unknown>)[key]
        if (typeof item === 'number') { if (!Number.isFinite(item)) return true } else if (item !== null && typeof item === 'object') stack.push(item)
      }
    }
  }
  return false
}

function escapeToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** The JSON pointer of the first non-finite number in `root`, or null. */
function pathToNonFinite(root: unknown): string | null {
  if (typeof root === 'number') return Number.isFinite(root) ? null : ''
  const stack: Array<[unknown, string]> = [[root, '']]
  while (stack.length > 0) {
    const [value, path] = stack.pop()!
    if (value === null || typeof value !== 'object') continue
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key]
      if (typeof item === 'number') {
        if (!Number.isFinite(item)) return `${path}/${escapeToken(key)}`
      } else if (item !== null && typeof item === 'object') {
        stack.push([item, `${path}/${escapeToken(key)}`])
      }
    }
  }
  return null
}

function withFiniteGuard(validate: PartValidator, schema: JsonSchema): PartValidator {
  if (!mayHoldNumbers(schema)) return validate
  const keys = numericKeys(schema)
  const find = keys === null ? firstNonFinite : (data: unknown) => firstNonFiniteOf(data, keys)
  return (data) => {
    const outcome = validate(data)
    if (outcome !== undefined) return outcome
    const key = find(data)
    return key === null ? undefined : finiteError(`/${key}`, `#/properties/${key}/type`)
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
