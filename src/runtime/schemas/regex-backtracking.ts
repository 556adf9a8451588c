import { createRequire } from 'node:module'

// ret is safe-regex2's own tokenizer (find-my-way loads both): resolved from there, so the version
// is the one safe-regex2 pins, without a dependency of our own to keep in step.
const fromSafeRegex = createRequire(require.resolve('safe-regex2'))
const ret = fromSafeRegex('ret') as (source: string) => unknown

/**
 * Whether a regular expression can backtrack super-linearly, judged on its parse tree (ret, the
 * tokenizer safe-regex2 and find-my-way already load: no new dependency). Three shapes are flagged:
 * - a repetition without an upper bound over something holding another one (star height > 1,
 *   `^(a+)+$`, `^([a-z]+\s?)*$`): exponential. A bounded repeat (`(...){3}`, `?`) nests nothing;
 * - alternatives under an unbounded repetition that can start the same way (`(a|aa)+`, `(a|a?)+`):
 *   the engine tries every way of splitting the input between them;
 * - two unbounded repetitions over overlapping characters that can meet, with only items that can
 *   match nothing between them (`^\s*#?\s*$`, `\d+\d+`): polynomial, quadratic for two. They meet
 *   through group boundaries and optional wrappers too (`(a*)(a*)b`, `(?:a*)?(?:a*)?b`): each item
 *   reports the repetitions it can start and end with.
 * Approximations, on the side of warning: repetitions and alternatives are compared by their first
 * characters; a lookaround matches nothing and constrains nothing.
 */
export function backtracksBadly(source: string): boolean {
  let tree: Token
  // ret does not know lookbehinds; a lookahead has the same structure (it matches nothing itself).
  try { tree = ret(source.replace(/\(\?<([=!])/g, '(?$1')) as unknown as Token } catch { return true }
  return shapeOf(tree).bad
}

interface Token {
  type: number
  stack?: Token[]
  options?: Token[][]
  value?: Token | number | string
  min?: number
  max?: number | null
  set?: Token[]
  not?: boolean
  from?: number
  to?: number
  followedBy?: boolean
  notFollowedBy?: boolean
}

// ret's token types (ret.types).
const POSITION = 2, SET = 3, RANGE = 4, REPETITION = 5, REFERENCE = 6, CHAR = 7
const MAX = 0x10ffff

type Ranges = Array<[number, number]>

/**
 * What an item looks like from outside: whether it can match nothing, the characters it can start
 * with, the unbounded repetitions (by their first characters) it can begin and end with, whether
 * it holds one at all, and whether it is bad inside.
 */
interface Shape { empty: boolean; first: Ranges; heads: Ranges[]; tails: Ranges[]; unbounded: boolean; bad: boolean; options?: Shape[] }

const NONE: Ranges[] = []
const NOTHING: Shape = { empty: true, first: [], heads: NONE, tails: NONE, unbounded: false, bad: false }
const BAD: Shape = { ...NOTHING, bad: true }

function atom(first: Ranges): Shape {
  return { empty: false, first, heads: NONE, tails: NONE, unbounded: false, bad: false }
}

function isUnbounded(token: Token): boolean {
  return token.max === null || token.max === undefined || token.max === Infinity
}

function shapeOf(token: Token): Shape {
  switch (token.type) {
    case CHAR: return atom([[token.value as number, token.value as number]])
    case SET: return atom(rangesOf(token))
    case POSITION: return NOTHING
    // A back-reference can be anything its group matched: counted as any character, maybe none.
    case REFERENCE: return { ...NOTHING, first: [[0, MAX]] }
    case REPETITION: return repetitionShape(token)
    default: {
      const options = token.options ?? (token.stack === undefined ? [] : [token.stack])
      const shapes = options.map(sequenceShape)
      // Once anything is bad the verdict is made: the rest of the walk is skipped.
      if (shapes.some((s) => s.bad)) return BAD
      // A lookaround matches nothing itself.
      if (token.followedBy === true || token.notFollowedBy === true) return NOTHING
      return {
        empty: shapes.length === 0 || shapes.some((s) => s.empty),
        first: shapes.flatMap((s) => s.first),
        heads: shapes.flatMap((s) => s.heads),
        tails: shapes.flatMap((s) => s.tails),
        unbounded: shapes.some((s) => s.unbounded),
        bad: false,
        options: token.options === undefined ? undefined : shapes,
      }
    }
  }
}

function repetitionShape(token: Token): Shape {
  const inner = shapeOf(token.value as Token)
  if (inner.bad) return BAD
  const empty = inner.empty || token.min === 0
  if (!isUnbounded(token)) {
    // `(a*){2}` is `a*a*`: a repeat that can run twice meets its own end with its own start.
    if ((token.max as number) >= 2 && meet(inner.tails, inner.heads)) return BAD
    return { empty, first: inner.first, heads: inner.heads, tails: inner.tails, unbounded: inner.unbounded, bad: false }
  }
  if (inner.unbounded || (inner.options !== undefined && alternativesOverlap(inner.options))) return BAD
  const own = [inner.first]
  return { empty, first: inner.first, heads: own, tails: own, unbounded: true, bad: false }
}

/** A sequence's shape; bad when an unbounded repetition it can end an item with meets one the next items can start with. */
function sequenceShape(sequence: Token[]): Shape {
  const first: Ranges = []
  const heads: Ranges[] = []
  let open: Ranges[] = NONE
  let leading = true
  let unbounded = false
  for (const token of sequence) {
    const shape = shapeOf(token)
    if (shape.bad || meet(open, shape.heads)) return BAD
    unbounded ||= shape.unbounded
    if (leading) {
      for (const range of shape.first) first.push(range)
      for (const head of shape.heads) heads.push(head)
      leading = shape.empty
    }
    open = !shape.empty ? shape.tails : shape.tails.length === 0 ? open : open.concat(shape.tails)
  }
  return { empty: leading, first, heads, tails: open, unbounded, bad: false }
}

function meet(ends: Ranges[], starts: Ranges[]): boolean {
  for (const end of ends) for (const start of starts) if (overlaps(end, start)) return true
  return false
}

/** Two alternatives whose first characters overlap (or one that can match nothing). */
function alternativesOverlap(options: Shape[]): boolean {
  for (let i = 0; i < options.length; i++) {
    if (options[i].empty) return true
    for (let j = i + 1; j < options.length; j++) if (overlaps(options[i].first, options[j].first)) return true
  }
  return false
}

function rangesOf(set: Token): Ranges {
  const own: Ranges = []
  for (const item of set.set ?? []) {
    if (item.type === CHAR) own.push([item.value as number, item.value as number])
    else if (item.type === RANGE) own.push([item.from as number, item.to as number])
    else if (item.type === SET) own.push(...rangesOf(item))
  }
  return set.not === true ? complement(own) : own
}

function complement(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0])
  const out: Ranges = []
  let next = 0
  for (const [from, to] of sorted) {
    if (from > next) out.push([next, from - 1])
    next = Math.max(next, to + 1)
  }
  if (next <= MAX) out.push([next, MAX])
  return out
}

function overlaps(a: Ranges, b: Ranges): boolean {
  for (const [af, at] of a) for (const [bf, bt] of b) if (af <= bt && bf <= at) return true
  return false
}
