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
    const patched = addFiniteChecks(code)
    return user === undefined ? patched : user(patched, schema)
  }
}

const EQUALS_PLUS = ' == +'

/**
 * `code.replace(COERCION_CONDITION, FINITE_CONDITION)`, the same text out, found with `indexOf`: the
 * regular expression tried a match at every word of ajv's code (~2-3 µs per KB, ~20 µs per validator,
 * once per route at boot), and on a lazy route's first request it ran cold (session 19). Each ` == +`
 * is checked to be `\b(data\d*) == \+\1\b`, left to right without overlaps, as the expression's global
 * replace does; the finite-coercion tests compare both on ajv's code.
 */
export function addFiniteChecks(code: string): string {
  let at = code.indexOf(EQUALS_PLUS)
  if (at === -1) return code
  let out = ''
  let copied = 0
  while (at !== -1) {
    let nameStart = at
    while (nameStart > 0 && isDigit(code.charCodeAt(nameStart - 1))) nameStart--
    nameStart -= 4
    const after = at + EQUALS_PLUS.length
    let next = after
    if (nameStart >= copied && code.startsWith('data', nameStart) && (nameStart === 0 || !isWordChar(code.charCodeAt(nameStart - 1)))) {
      const name = code.slice(nameStart, at)
      const end = after + name.length
      if (code.startsWith(name, after) && (end === code.length || !isWordChar(code.charCodeAt(end)))) {
        out += `${code.slice(copied, nameStart)}${name} == +${name} && isFinite(${name})`
        copied = end
        next = end
      }
    }
    at = code.indexOf(EQUALS_PLUS, next)
  }
  return out + code.slice(copied)
}

function isDigit(char: number): boolean {
  return char >= 48 && char <= 57
}

/** A character of `\w`, which `\b` separates from any other. */
function isWordChar(char: number): boolean {
  return isDigit(char) || (char >= 65 && char <= 90) || (char >= 97 && char <= 122) || char === 95
}
