/** find-my-way's own rule for an optional last parameter (`/:id?`): the `?` is not part of the name. */
const OPTIONAL_PARAM = /(\/:[^/()]*?)\?(\/?)/

/**
 * The parameter names of a route path, read by find-my-way 9's rules (its `_on`), which are what
 * the router serves: `:name` ends only at `/`, `-`, `.`, `(` or the end (so `:a:b` is one name
 * `a:b`); after `-`/`.` a static part runs to the next `/` or `:` (`/:a-:b`, `/:name.:ext`);
 * `(regex)` is skipped (it may hold colons); `::` is an escaped colon; a trailing `/:id?` is
 * optional; `*` is the wildcard, whose value is `params['*']`. For declaration checks only.
 */
export function pathParamNames(path: string): string[] {
  const names: string[] = []
  fillPathParams(path, (name) => { names.push(name); return '' })
  return names
}

/**
 * `path` with each parameter replaced by what `fill` gives for it, read by the rules above (what
 * a client of the route must send): a `(regex)` is dropped, `::` written `:`, the static parts
 * between parameters kept; `optional` is true for a trailing `/:id?` node's parameters.
 */
export function fillPathParams(path: string, fill: (name: string, optional: boolean) => string): string {
  const optional = OPTIONAL_PARAM.exec(path)
  // Where the optional node's first name starts, once its `?` is taken out (after `/:`).
  const optionalStart = optional === null ? -1 : optional.index + 2
  if (optional !== null) path = path.replace(OPTIONAL_PARAM, '$1$2')
  let out = ''
  for (let i = 0; i < path.length; i++) {
    const c = path[i]
    if (c === ':' && path[i + 1] === ':') { out += ':'; i++; continue }
    if (c === '*') { out += fill('*', false); continue }
    if (c !== ':') { out += c; continue }
    // One parametric node: its parameters and the static parts between them (`/:a-:b`, `/:name.:ext`).
    const inOptional = i + 1 === optionalStart
    let j = i + 1
    for (;;) {
      const start = j
      while (j < path.length && !'/-.('.includes(path[j])) j++
      out += fill(path.slice(start, j), inOptional)
      if (path[j] === '(') j = skipGroup(path, j) + 1
      // The static part after a parameter runs to the next `/` or unescaped `:`.
      for (; j < path.length && path[j] !== '/'; j++) {
        if (path[j] !== ':') { out += path[j]; continue }
        if (path[j + 1] !== ':') break
        out += ':'
        j++
      }
      if (path[j] !== ':') break
      j++
    }
    i = j - 1
  }
  return out
}

/** The names of a trailing optional node (`/:id?`): find-my-way also serves the url without it. */
export function optionalPathParamNames(path: string): string[] {
  const match = OPTIONAL_PARAM.exec(path)
  return match === null ? [] : pathParamNames(match[1])
}

/** The index of the `)` closing the group opened at `start` (nested groups and escapes allowed). */
function skipGroup(path: string, start: number): number {
  let depth = 0
  for (let i = start; i < path.length; i++) {
    if (path[i] === '\\') { i++; continue }
    if (path[i] === '(') depth++
    else if (path[i] === ')' && --depth === 0) return i
  }
  return path.length
}

/** `:id, :slug` or `no parameters`, for messages. */
export function describePathParams(names: readonly string[]): string {
  return names.length === 0 ? 'no parameters' : names.map((n) => (n === '*' ? "the wildcard '*'" : `:${n}`)).join(', ')
}
