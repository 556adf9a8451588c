/**
 * The parameter names of a route path, as find-my-way reads them: `:name` (ending at `/`, `-`,
 * `.`, `(` or another `:`), `:name(regex)` (the regex skipped, it may hold colons), `::` an
 * escaped colon, and `*` the wildcard, whose value is `params['*']`. For declaration checks only.
 */
export function pathParamNames(path: string): string[] {
  const names: string[] = []
  for (let i = 0; i < path.length; i++) {
    const c = path[i]
    if (c === '*') { names.push('*'); continue }
    if (c === '(') { i = skipGroup(path, i); continue }
    if (c !== ':') continue
    if (path[i + 1] === ':') { i++; continue }
    let end = i + 1
    while (end < path.length && !'/-.(:*'.includes(path[end])) end++
    if (end > i + 1) names.push(path.slice(i + 1, end))
    i = end - 1
  }
  return names
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
