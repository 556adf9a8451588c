/**
 * Parameter names of a class's constructor or of a function or method, read from its source text,
 * for messages only: code built without decorator metadata (esbuild, tsx) gives no types, so the
 * parameter names are what a user recognises (`constructor(users)`, `create(note, reply)`). `null`
 * for a parameter that is not a plain name (a destructuring pattern) and every parameter when the
 * text cannot be read (a native or bound function, a minified build). Bounded: one scan of the
 * text, never evaluated. The module layer names constructor parameters with it, the decorator
 * layer a route method's.
 */
export function paramNames(target: Function): readonly (string | null)[] {
  let text: string
  try { text = Function.prototype.toString.call(target) } catch { return [] }
  const list = parameterList(text)
  if (list === null) return []
  return splitTopLevel(list).map((param) => {
    const name = /^\s*(?:\.\.\.)?\s*([A-Za-z_$][\w$]*)\s*(?:=|$)/.exec(withoutComments(param))
    return name === null ? null : name[1]
  })
}

/** The text between the constructor's parentheses (`class`), or the function's or method's own. */
function parameterList(text: string): string | null {
  const open = /^class[\s{]/.test(text) ? constructorOpen(text) : functionOpen(text)
  if (open === null) return null
  let depth = 1
  for (let i = open; i < text.length; i = skipLiteral(text, i) + 1) {
    const c = text[i]
    if (c === '(' || c === '[' || c === '{') depth++
    else if (c === ')' || c === ']' || c === '}') depth--
    if (depth === 0) return text.slice(open, i)
  }
  return null
}

/** After the first `(`: a function's (`function f(`, ES5 output), a method's (`create(`, `async *list(`), an arrow's. */
function functionOpen(text: string): number | null {
  const open = text.indexOf('(')
  return open < 0 ? null : open + 1
}

/** After `constructor(` in the class body itself: not in a string, a comment or a member's body. */
function constructorOpen(text: string): number | null {
  let depth = 0
  for (let i = 0; i < text.length; i = skipLiteral(text, i) + 1) {
    const c = text[i]
    if (c === '{' || c === '(' || c === '[') depth++
    else if (c === '}' || c === ')' || c === ']') depth--
    else if (depth === 1 && text.startsWith('constructor', i) && !/[\w$]/.test(text[i - 1] ?? '') && !isStatic(text, i)) {
      const open = /^constructor\s*\(/.exec(text.slice(i, i + 40))
      if (open !== null) return i + open[0].length
    }
  }
  return null
}

/** `static constructor()` is an ordinary static method that may come before the real constructor. */
function isStatic(text: string, i: number): boolean {
  return /(?:^|[\s;{}])static\s+$/.test(withoutComments(text.slice(Math.max(0, i - 200), i)))
}

/** A comment around a name (`constructor(/* repo *\/ users)`) is blanked so the name still reads. */
function withoutComments(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const end = skipLiteral(text, i)
    const isComment = text[i] === '/' && (text[i + 1] === '/' || text[i + 1] === '*')
    out += isComment ? ' ' : text.slice(i, end + 1)
    i = end
  }
  return out
}

/** The index of the last character of a string, template or comment starting at `i` (else `i`). */
function skipLiteral(text: string, i: number): number {
  const c = text[i]
  if (c === '/' && text[i + 1] === '/') { const end = text.indexOf('\n', i); return end < 0 ? text.length : end }
  if (c === '/' && text[i + 1] === '*') { const end = text.indexOf('*/', i + 2); return end < 0 ? text.length : end + 1 }
  if (c !== '"' && c !== "'" && c !== '`') return i
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++
    else if (text[j] === c) return j
  }
  return text.length
}

function splitTopLevel(list: string): string[] {
  if (list.trim() === '') return []
  const parts: string[] = []
  let depth = 0
  let from = 0
  for (let i = 0; i < list.length; i = skipLiteral(list, i) + 1) {
    const c = list[i]
    if (c === '(' || c === '[' || c === '{') depth++
    else if (c === ')' || c === ']' || c === '}') depth--
    else if (c === ',' && depth === 0) { parts.push(list.slice(from, i)); from = i + 1 }
  }
  parts.push(list.slice(from))
  return parts.filter((part) => part.trim() !== '')
}
