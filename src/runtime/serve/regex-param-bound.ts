/**
 * A length bound for the regex parameters of a route path (`/:id(^\d+$)`), as find-my-way stores it.
 *
 * The router is given no `maxParamLength` (router.ts: the pipeline answers 414 for a long parameter,
 * where find-my-way would answer 404), and find-my-way bounds a regex node's input with that option
 * alone: so every regex ran on the whole path segment, up to the ~16 KB Node lets a request head
 * hold. A regex that backtracks polynomially (`^\d+\.?\d*$`, quadratic) then cost 0.34 s of CPU
 * for one 16,000-digit request, and any segment is the attacker's to choose. Fastify 3's router
 * (find-my-way 4) never ran a regex on a segment longer than maxParamLength, and find-my-way 9 not
 * past its parameters' share of it: this puts that bound back into the regex itself, a negative
 * lookahead before the whole of the segment's first regex parameter that fails once more than
 * `parameters × maxParamLength + the segment's own length` characters follow. Such a segment cannot
 * hold parameters within maxParamLength anyway: it is not found (404, as in Fastify 3), and a
 * segment within the bound is matched, and its parameters checked (414), as before.
 */
export function boundRegexParams(path: string, maxParamLength: number): string {
  if (!path.includes('(')) return path
  let out = ''
  for (const { bounded } of regexGroups(path, maxParamLength)) out += bounded
  return out
}

/**
 * find-my-way quotes a regex it refuses ("The regex '(...)' is not safe!"): put back the groups as
 * the route wrote them.
 */
export function asWritten(text: string, path: string, maxParamLength: number): string {
  for (const { written, bounded } of regexGroups(path, maxParamLength)) {
    if (written !== null) text = text.split(bounded).join(written)
  }
  return text
}

/**
 * The path cut into pieces, each as written and as stored: a segment's first regex group becomes
 * `(^(?![\s\S]{max+1})(?:body)$)`. The lookahead stands before the whole body, not inside its first
 * alternative (`^a|\d+\.?\d*$` would else run its second branch unbounded); `^` and `$` stay at the
 * group's ends, where find-my-way trims them (trimRegExpStartAndEnd). A group written `(?:...)` or
 * `(?=...)` is not find-my-way's capture, and a body ending in `\$` is one find-my-way breaks anyway:
 * both left as written. `written` is null for text kept as it was.
 */
function regexGroups(path: string, maxParamLength: number): Array<{ written: string | null; bounded: string }> {
  const pieces: Array<{ written: string | null; bounded: string }> = []
  let from = 0
  for (const segment of segmentsOf(path)) {
    const first = segment.params.find((param) => param.open !== -1)
    if (first !== undefined) {
      const { open, close } = first
      const body = path.slice(open + 1, close)
      const head = body.charCodeAt(0) === 94 ? '^' : ''
      const tail = body.length > head.length && body.charCodeAt(body.length - 1) === 36 ? '$' : ''
      const inner = body.slice(head.length, body.length - tail.length)
      if (close < path.length && inner.charCodeAt(0) !== 63 && !inner.endsWith('\\')) {
        pieces.push({ written: null, bounded: path.slice(from, open) })
        const bounded = `(${head}${lookahead(segment.params.length * maxParamLength + (segment.end - segment.start))}(?:${inner})${tail})`
        pieces.push({ written: path.slice(open, close + 1), bounded })
        from = close + 1
      }
    }
  }
  pieces.push({ written: null, bounded: path.slice(from) })
  return pieces
}

function lookahead(max: number): string {
  return `(?![\\s\\S]{${max + 1}})`
}

interface Param { readonly start: number; readonly open: number; readonly close: number }
interface Segment { readonly start: number; readonly end: number; readonly params: readonly Param[] }

/**
 * The path's segments as find-my-way reads them: each ends at the next `/` outside a regex (or the
 * path's end) and holds its parameters (`::` is an escaped colon), each with where its regex's `(`
 * and `)` are (-1 without one). A parameter's name ends at `(`, `-`, `.` or `/`. The one scanner of
 * both the bound and the warning (route-regex-warnings.ts), so they read a path alike.
 */
function segmentsOf(path: string): Segment[] {
  const segments: Segment[] = []
  let start = 0
  let params: Param[] = []
  let i = 0
  while (i <= path.length) {
    const c = i < path.length ? path.charCodeAt(i) : 47
    if (c === 47) {
      segments.push({ start, end: i, params })
      start = i + 1
      params = []
      i++
      continue
    }
    if (c !== 58) { i++; continue }
    if (path.charCodeAt(i + 1) === 58) { i += 2; continue }
    const at = i
    i++
    while (i < path.length && !nameEnds(path.charCodeAt(i))) i++
    if (path.charCodeAt(i) === 40) {
      const close = closingParenthesis(path, i)
      params.push({ start: at, open: i, close })
      i = Math.min(close + 1, path.length)   // unclosed (find-my-way refuses it): the segment still ends
    } else {
      params.push({ start: at, open: -1, close: -1 })
    }
  }
  return segments
}

function nameEnds(c: number): boolean {
  return c === 40 || c === 45 || c === 46 || c === 47
}

/** As find-my-way finds it (a `\` skips the next character); past the end when unclosed, which find-my-way refuses. */
function closingParenthesis(path: string, open: number): number {
  let depth = 1
  let i = open
  while (i < path.length - 1) {
    i++
    const c = path.charCodeAt(i)
    if (c === 92) { i++; continue }
    if (c === 41) depth--
    else if (c === 40) depth++
    if (depth === 0) return i
  }
  return path.length
}

/**
 * The regex find-my-way builds from the written path for a segment holding several parameters,
 * one of them a regex: `:a(^\w+):b(^\w+)` is run as `^(\w+)(\w+)$` (Enclave's own path adds the
 * length lookahead, which matches nothing). Each regex parameter's group with its `^`/`$`
 * trimmed, a plain parameter as `(.*?)` after a regex one and as `(static|(?:(?!static).)*)` after
 * static text, the static text between them escaped (index.js, `_on`). Parameters that are harmless
 * alone can backtrack together (four `^\w+` in a row: 1.5 s on 300 characters), so the warning
 * judges this joined regex too. `params` is the segment from its first parameter, as written.
 */
export function segmentRegexesOf(path: string): Array<{ params: string; source: string }> {
  if (!path.includes('(')) return []
  const joined: Array<{ params: string; source: string }> = []
  for (const segment of segmentsOf(path)) {
    const params = segment.params
    if (params.length < 2 || !params.some((param) => param.open !== -1)) continue
    let source = '^'
    let paramSafe = true
    let backtrack = ''
    params.forEach((param, index) => {
      let staticFrom: number
      if (param.open !== -1) {
        source += trimmedGroup(path.slice(param.open, param.close + 1))
        paramSafe = true
        staticFrom = param.close + 1
      } else {
        source += paramSafe ? '(.*?)' : `(${backtrack}|(?:(?!${backtrack}).)*)`
        paramSafe = false
        staticFrom = param.start + 1
        while (staticFrom < segment.end && !nameEnds(path.charCodeAt(staticFrom))) staticFrom++
      }
      const staticTo = index + 1 < params.length ? params[index + 1].start : segment.end
      const text = path.slice(staticFrom, staticTo).split('::').join(':').split('%').join('%25')
      if (text.length > 0) source += (backtrack = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    })
    joined.push({ params: path.slice(params[0].start, segment.end), source: `${source}$` })
  }
  return joined
}

/** find-my-way's trimRegExpStartAndEnd: `(^...$)` stored as `(...)`. */
function trimmedGroup(group: string): string {
  if (group.charCodeAt(1) === 94) group = group.slice(0, 1) + group.slice(2)
  if (group.charCodeAt(group.length - 2) === 36) group = group.slice(0, group.length - 2) + group.slice(group.length - 1)
  return group
}

/** The regex parameters of a route path, each as `:name(regex)` and its regex as written (without the group's parentheses). */
export function regexParamsOf(path: string): Array<{ param: string; source: string }> {
  if (!path.includes('(')) return []
  return segmentsOf(path).flatMap((segment) => segment.params.filter((param) => param.open !== -1)
    .map(({ start, open, close }) => ({ param: path.slice(start, close + 1), source: path.slice(open + 1, close) })))
}
