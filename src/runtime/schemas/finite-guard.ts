import type { JsonSchema, PartValidator, ValidateFunction } from './types'
import { schemaJsonText } from './schema-walk'

/**
 * ajv 6 coerces the strings "Infinity" and "1e309" to Infinity, and its `integer` and `number`
 * checks accept it (`Infinity % 1` is NaN, and `!NaN` is true); ajv 8 accepts Infinity too. In a
 * handler's data, a response schema then fails to serialize it: a 500 on demand, or `null` stored.
 * The default validator never coerces a string to them (finite-coercion.ts) and marks its functions,
 * but a number that is already Infinity passes it: that can only come from where the data came from.
 * So a validated part is guarded here after it passes, the flat ones (params, querystring, headers)
 * on their keys, a body at any depth, only when the part's schema can produce numbers, except where
 * a marked function sees data that only strings or the built-in JSON parser (which refuses
 * overflowing literals) made: params and headers always, a body only when the request says so
 * (CompiledRouteSchemas.jsonBody). The querystring keeps its flat guard: a custom
 * querystringParser or a hook may put numbers there.
 */

const kRefusesNonFinite = Symbol('enclave.refusesNonFinite')

/** Notes that `fn` fails any number that is not finite, coerced ones included (the default validator). */
export function markRefusesNonFinite(fn: ValidateFunction): ValidateFunction {
  Object.defineProperty(fn, kRefusesNonFinite, { value: true })
  return fn
}

/** Whether `fn` refuses non-finite numbers coerced from strings (the default validator's mark). */
export function refusesNonFinite(fn: ValidateFunction): boolean {
  return (fn as { [kRefusesNonFinite]?: boolean })[kRefusesNonFinite] === true
}

/** The validator for `part`: `validator` as is when `fn` refuses non-finite numbers and the part holds strings only, else guarded. */
export function guardNonFinite(validator: PartValidator, fn: ValidateFunction, schema: JsonSchema, part: string): PartValidator {
  if (part === 'body') return withDeepFiniteGuard(validator, schema)
  if (part === 'querystring' || !refusesNonFinite(fn)) return withFiniteGuard(validator, schema)
  return validator
}

function finiteError(dataPath: string, schemaPath: string) {
  return { errors: [{ keyword: 'type', dataPath, schemaPath, params: { type: 'number' }, message: 'should be a finite number' }] }
}

/**
 * A body nests, and the schema that put a number where is the other compiler's business: the
 * coerced data is walked whole (only after it passed, and only when the schema can hold numbers).
 * The walk allocates only its stack (one building paths cost far more);
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

/**
 * Only what a parser builds is walked: arrays and plain objects (their prototype is
 * Object.prototype or null). A Buffer or typed array (multipart files), a stream or a class
 * instance is left alone: `for...in` would read a Buffer byte by byte. `seen` ends cycles
 * (@fastify/multipart's attachFieldsToBody parts each hold `fields`, the body itself); null: a
 * tree walk, bounded by holdsNonFinite.
 */
function walkable(value: unknown, seen: Set<object> | null): value is object {
  if (value === null || typeof value !== 'object') return false
  if (!Array.isArray(value)) {
    const proto: unknown = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) return false
  }
  if (seen === null) return true
  if (seen.has(value)) return false
  seen.add(value)
  return true
}

/**
 * Parsed text is a tree: it is walked without a seen set first (the set cost ~+15% of the walk on
 * a 52 KB body). Past TREE_BUDGET values read, the walk starts again with one, so a cycle or shared
 * references (YAML aliases: one array referenced thousands of times) cost at most the budget plus
 * one visit of each distinct object. The budget counts values read, not objects pushed: a few
 * objects each read many times must not slip under it.
 */
const TREE_BUDGET = 200_000

/** Whether `root` (a number, or arrays and plain objects) holds a non-finite number; ends cycles. */
export function holdsNonFinite(root: unknown): boolean {
  if (typeof root === 'number') return !Number.isFinite(root)
  return walkForNonFinite(root, null) ?? walkForNonFinite(root, new Set()) === true
}

/** Whether `root` holds a non-finite number; null when a tree walk (`seen` null) ran out of budget. */
function walkForNonFinite(root: unknown, seen: Set<object> | null): boolean | null {
  if (!walkable(root, seen)) return false
  let budget = TREE_BUDGET
  // Iterative: a custom parser's data may nest deeper than the JSON parser's depth limit.
  const stack: object[] = [root]
  while (stack.length > 0) {
    const value = stack.pop() as object
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        if (seen === null && --budget < 0) return null
        const item: unknown = value[index]
        if (typeof item === 'number') { if (!Number.isFinite(item)) return true } else if (walkable(item, seen)) stack.push(item)
      }
    } else {
      for (const key in value) {
        if (seen === null && --budget < 0) return null
        const item = (value as Record<string, unknown>)[key]
        if (typeof item === 'number') { if (!Number.isFinite(item)) return true } else if (walkable(item, seen)) stack.push(item)
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
  const seen = new Set<object>()
  if (!walkable(root, seen)) return null
  const stack: Array<[object, string]> = [[root, '']]
  while (stack.length > 0) {
    const [value, path] = stack.pop()!
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key]
      if (typeof item === 'number') {
        if (!Number.isFinite(item)) return `${path}/${escapeToken(key)}`
      } else if (walkable(item, seen)) {
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
  const text = schemaJsonText(schema)
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
