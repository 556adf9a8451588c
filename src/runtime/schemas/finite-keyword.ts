/**
 * ajv 6 coerces the strings "Infinity", "-Infinity", "1e999" (or 309 digits) to ±Infinity, at any
 * depth of any part, and its `number` and `integer` checks accept that (`Infinity % 1` is NaN, and
 * `!NaN` is true): a JSON body `{"price":"Infinity"}` reached the handler as Infinity, where a
 * response schema then threw (a 500 on demand) or wrote `null`. The default validator therefore gets
 * an internal keyword, added to Enclave's copy of each schema (never the user's object) beside
 * every `type` that admits numbers, and beside `anyOf`, `oneOf`, `allOf`, `not` and `if`, whose
 * branches may coerce a value and still let it through. ajv runs it after the node's other
 * keywords, on the coerced value: one `typeof` and, for numbers, one `isFinite`.
 */

/** Internal: never in the user's schemas, nor in the keyword check's list or its suggestions. */
export const FINITE_KEYWORD = '__enclaveFinite'

interface InlineContext { level: number; dataLevel: number; errSchemaPath: string; errorPath: string }

/**
 * The keyword's ajv 6 definition. Without a `type`, ajv puts it in its last rule group, after
 * the combinators (which is why it must be added before plugins such as ajv-errors, whose
 * `errorMessage` must come after it). The error has the shape of a type error (keyword `type`,
 * the node's `type` as schemaPath, ajv fills the JSON-pointer dataPath), so error formatters
 * and ajv-errors' `errorMessage: { type }` treat it as one; the message says what is wrong.
 */
export function finiteKeywordDefinition() {
  // A new object each time: ajv adds fields to the definition it is given. `errors: 'full'` and
  // one error literal keep the generated code small (boot compiles it beside every number).
  return {
    statements: true,
    errors: 'full',
    inline(it: InlineContext, _keyword: string, _schema: unknown, parentSchema: Record<string, unknown>): string {
      const data = `data${it.dataLevel || ''}`
      const valid = `valid${it.level}`
      const schemaPath = parentSchema.type === undefined ? it.errSchemaPath : `${it.errSchemaPath}/type`
      const error = `{ keyword: 'type', dataPath: (dataPath || '') + ${it.errorPath}, schemaPath: ${JSON.stringify(schemaPath)}, params: { type: 'number' }, message: 'should be a finite number' }`
      return `${valid} = typeof ${data} !== 'number' || isFinite(${data}); if (!${valid}) { (vErrors || (vErrors = [])).push(${error}); errors++; }`
    },
  }
}

/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', 'dependencies']
/**
 * Keywords whose value is a subschema, or an array of subschemas. Not `not` and `if`: they test a
 * value, and a keyword failing inside them would turn a refusal into an acceptance (`not: { type:
 * 'number' }` would let the coerced Infinity through); their node's own keyword checks the value.
 */
const SCHEMA_VALUES = ['items', 'additionalItems', 'additionalProperties', 'contains', 'then', 'else', 'allOf', 'anyOf', 'oneOf']
/** Keywords under which a branch may coerce a value to a number that the node then keeps. */
const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', 'if']

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function admitsNumbers(type: unknown): boolean {
  if (type === 'number' || type === 'integer') return true
  return Array.isArray(type) && (type.includes('number') || type.includes('integer'))
}

/**
 * `schema` with the keyword beside every `type` admitting numbers and every combinator, in schema
 * positions only: a copy of the objects on the way to such a node, the rest shared with the original. The
 * original itself when no subschema needs it (no copy). A `$ref` sibling is left alone: ajv 6
 * ignores a `$ref`'s siblings, and the referenced schema is marked in its own copy.
 */
export function withFiniteKeyword<T>(schema: T): T {
  const done = new Map<object, unknown>()
  const mark = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      let changed = false
      const items = node.map((item) => {
        const marked = mark(item)
        if (marked !== item) changed = true
        return marked
      })
      return changed ? items : node
    }
    if (!isObject(node)) return node
    const seen = done.get(node)
    if (seen !== undefined) return seen
    done.set(node, node)   // a cycle back to a node being marked keeps the node (ajv 6 schemas are trees)
    let copy: Record<string, unknown> | null = null
    const set = (key: string, value: unknown): void => {
      copy ??= { ...node }
      copy[key] = value
    }
    for (const key of SCHEMA_MAPS) {
      const map = node[key]
      if (!isObject(map)) continue
      let mapCopy: Record<string, unknown> | null = null
      for (const name of Object.keys(map)) {
        const marked = mark(map[name])
        if (marked !== map[name]) (mapCopy ??= { ...map })[name] = marked
      }
      if (mapCopy !== null) set(key, mapCopy)
    }
    for (const key of SCHEMA_VALUES) {
      if (node[key] === undefined) continue
      const marked = mark(node[key])
      if (marked !== node[key]) set(key, marked)
    }
    if (node.$ref === undefined && (admitsNumbers(node.type) || COMBINATORS.some((key) => node[key] !== undefined))) set(FINITE_KEYWORD, true)
    const result = copy ?? node
    done.set(node, result)
    return result
  }
  return mark(schema) as T
}
