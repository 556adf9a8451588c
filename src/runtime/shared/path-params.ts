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
  path = path.replace(OPTIONAL_PARAM, '$1$2')
  const names: string[] = []
  for (let i = 0; i < path.length; i++) {
    const c = path[i]
    if (c === ':' && path[i + 1] === ':') { i++; continue }
    if (c === '*') { names.push('*'); continue }
    if (c === ':') i = readParametricNode(path, i + 1, names) - 1
  }
  return names
}

/** Reads the parameters of one node starting at `start` (after its `:`); returns where the node ends. */
function readParametricNode(path: string, start: number, names: string[]): number {
  let j = start
  for (;;) {
    while (j < path.length && !'/-.('.includes(path[j])) j++
    names.push(path.slice(start, j))
    if (path[j] === '(') j = skipGroup(path, j) + 1
    // The static part after a parameter runs to the next `/` or unescaped `:`.
    for (; j < path.length && path[j] !== '/'; j++) {
      if (path[j] !== ':') continue
      if (path[j + 1] === ':') j++
      else break
    }
    if (path[j] !== ':') return j
    start = ++j
  }
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
