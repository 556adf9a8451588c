/**
 * ajv 6 coerces a string to a number when `data == +data`, which holds for "Infinity", "-Infinity",
 * "1e999" and 309-digit strings, and its `number` and `integer` checks then accept ±Infinity
 * (`Infinity % 1` is NaN, and `!NaN` is true): a JSON body `{"price":"Infinity"}` reached the handler
 * as Infinity, where a response schema threw (a 500 on demand) or wrote `null`. The coercion condition
 * in the code ajv generates gets `&& isFinite(data)`, so such a string is not coerced and fails the
 * type check as "abc" does ("should be number"), at any depth and in every combinator branch, with no
 * schema copy and no code beyond one call per coerced string. A generated-code patch is safe here
 * because ajv is pinned at 6.12.6, its last release; the finite-coercion test fails if the pattern
 * ever stops matching.
 */

/** `data1 == +data1` in ajv 6's coercion template (coerce.def), for any data variable. */
const COERCION_CONDITION = /\b(data\d*) == \+\1\b/g
const FINITE_CONDITION = '$1 == +$1 && isFinite($1)'

/** The patch as text: the schema cache keys stored validators with it, so a changed patch is a miss. */
export const COERCION_PATCH = `${COERCION_CONDITION.source} -> ${FINITE_CONDITION}`

/** ajv's `processCode` option: the generated source with non-finite coercion refused, then the user's own `processCode`. */
export function refuseNonFiniteCoercion(user?: (code: string, schema?: unknown) => string): (code: string, schema?: unknown) => string {
  return (code, schema) => {
    const patched = code.replace(COERCION_CONDITION, FINITE_CONDITION)
    return user === undefined ? patched : user(patched, schema)
  }
}
