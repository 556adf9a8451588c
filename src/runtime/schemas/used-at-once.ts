/**
 * ajv 6 returns its validator as a function expression inside the factory it builds with
 * `new Function`. V8 preparses such an inner function when the factory is compiled and parses it
 * again, fully, when it is first called. A lazy route's first request compiles its validator and
 * calls it at once, so it pays both parses within the same request. A function expression in
 * parentheses is compiled with the code around it instead (V8's "PIFE" heuristic): one parse.
 * Only builds that are used at once ask for it: at eager boot or `ready({ compileAll: true })`
 * most validators may never run, and compiling them all up front would cost boot time and memory.
 * The code is otherwise unchanged (same function, same behaviour).
 */

let usingAtOnce = 0

/** Runs `build` (a lazy route's compilation for the request waiting on it) with validators compiled eagerly. */
export function builtForUseAtOnce<T>(build: () => T): T {
  usingAtOnce++
  try {
    return build()
  } finally {
    usingAtOnce--
  }
}

// The start and end of the factory body ajv 6.12's validate template writes (dot/validate.jst).
const HEAD = 'var validate = function('
const TAIL = /\};\s*return validate;\s*$/

/**
 * ajv's `processCode` step, last: the validator in parentheses while builtForUseAtOnce runs. Code
 * that does not have the template's shape is left as it is.
 */
export function compileAtOnceWhenUsed(code: string): string {
  if (usingAtOnce === 0) return code
  const head = headOutsideStrings(code)
  if (head === -1 || !TAIL.test(code)) return code
  return `${code.slice(0, head)}var validate = (function(${code.slice(head + HEAD.length).replace(TAIL, '}); return validate;')}`
}

/**
 * Where the validator's `var validate = function(` starts: its first occurrence outside a quoted
 * string. Before it, ajv writes only `var refValN = refVal[N];`, `var patternN = new RegExp('...');`
 * (a pattern could hold the same text), `var defaultN = ...;` and `var customRuleN = ...;`. Anything
 * else there (a comment, a regular expression literal, a template string) and the code is left alone: -1.
 */
function headOutsideStrings(code: string): number {
  let quote = ''
  for (let index = 0; index < code.length; index++) {
    const char = code[index]
    if (quote !== '') {
      if (char === '\\') index++
      else if (char === quote) quote = ''
    } else if (char === "'" || char === '"') {
      quote = char
    } else if (char === '/' || char === '`') {
      return -1
    } else if (char === 'v' && code.startsWith(HEAD, index)) {
      return index
    }
  }
  return -1
}
