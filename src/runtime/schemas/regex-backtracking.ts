import { MAX_PROPERTIES, PLACEHOLDER_BASE, negatedProperty, propertiesMeet, propertyMeetsRange, propertyWithinRange, withPropertyPlaceholders } from './regex-properties'

// ret is safe-regex2's own tokenizer (find-my-way loads both), a dependency of ours pinned in the
// range safe-regex2 asks for, so npm installs one copy. A plain require() so that bundlers (esbuild,
// webpack) include it: resolving it through safe-regex2's path at run time threw at load in a bundle.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ret = require('ret') as (source: string) => unknown

/**
 * Whether a regular expression can backtrack super-linearly, judged on its parse tree (ret, the
 * tokenizer safe-regex2 and find-my-way already load: no new dependency). Three shapes are flagged:
 * - a repetition without an upper bound over something holding another one (star height > 1,
 *   `^(a+)+$`, `^([a-z]+\s?)*$`): exponential. A bounded repeat (`(...){3}`, `?`) nests nothing;
 * - alternatives under an unbounded repetition that can start the same way (`(a|aa)+`, `(a|a?)+`):
 *   the engine tries every way of splitting the input between them;
 * - two unbounded repetitions over overlapping characters that can meet, with only items that can
 *   match nothing, or single characters both can take, between them (`^\s*#?\s*$`, `\d+\d+`,
 *   `.*,.*`): polynomial, quadratic for two. They meet through group boundaries and optional
 *   wrappers too (`(a*)(a*)b`, `(?:a*)?(?:a*)?b`): each item reports the repetitions it can start
 *   and end with, narrowed to the characters that can pass between them and its edge. A bounded
 *   repeat whose copies meet so (`(a*){2}`, `(.*a){20}`: degree 20) is one of these.
 * A lookaround matches nothing but narrows the character next to it (`\d+(?!\d)\d+` cannot split
 * its digits two ways). Unicode properties (`\p{L}`) are read by regex-properties.ts.
 * Approximations, on the side of warning: alternatives are compared by their first characters, a
 * repetition by its first and last ones.
 */
export function backtracksBadly(source: string): boolean {
  if (judge(source)) return true
  // ajv 6 compiles patterns without the u flag, where `\p{L}` is the text p{L} (ret reads it so);
  // ajv 8 (unicodeRegExp) reads a Unicode property. Either may run the pattern: both are judged.
  const unicode = withPropertyPlaceholders(source)
  if (unicode === null) return false
  readingProperties = true
  try { return judge(unicode) } finally { readingProperties = false }
}

/** Whether placeholder characters stand for properties (regex-properties.ts) in this walk. */
let readingProperties = false

function judge(source: string): boolean {
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
interface Shape {
  empty: boolean
  first: Ranges
  /** The characters it can end with. */
  last: Ranges
  /**
   * The unbounded repetitions it can begin and end with, each as the characters that can pass
   * between it and the item's edge: a repetition's own, narrowed by the one-character items and
   * lookarounds between (`.*a` ends with `.*` through `a`: ['a']).
   */
  heads: Ranges[]
  tails: Ranges[]
  unbounded: boolean
  bad: boolean
  /** Exactly one character of `first` (a character, a class, a group of them). */
  atom: boolean
  /** A lookaround: the characters the one next to it must be among (null: no constraint). */
  constraint?: Ranges | null
  options?: Shape[]
}

const NONE: Ranges[] = []
const NOTHING: Shape = { empty: true, first: [], last: [], heads: NONE, tails: NONE, unbounded: false, bad: false, atom: false }
const BAD: Shape = { ...NOTHING, bad: true }
const ANY: Ranges = [[0, MAX]]

function atom(first: Ranges): Shape {
  return { empty: false, first, last: first, heads: NONE, tails: NONE, unbounded: false, bad: false, atom: true }
}

function isUnbounded(token: Token): boolean {
  return token.max === null || token.max === undefined || token.max === Infinity
}

function shapeOf(token: Token): Shape {
  switch (token.type) {
    case CHAR: return atom(charRanges(token.value as number))
    case SET: return atom(rangesOf(token))
    case POSITION: return NOTHING
    // A back-reference can be anything its group matched: counted as any character, maybe none.
    case REFERENCE: return { ...NOTHING, first: ANY, last: ANY }
    case REPETITION: return repetitionShape(token)
    default: {
      const options = token.options ?? (token.stack === undefined ? [] : [token.stack])
      const shapes = options.map(sequenceShape)
      // Once anything is bad the verdict is made: the rest of the walk is skipped.
      if (shapes.some((s) => s.bad)) return BAD
      // A lookaround matches nothing itself, but it constrains the character next to it.
      if (token.followedBy === true || token.notFollowedBy === true) return { ...NOTHING, constraint: lookaroundConstraint(shapes, token.notFollowedBy === true) }
      return {
        empty: shapes.length === 0 || shapes.some((s) => s.empty),
        first: shapes.flatMap((s) => s.first),
        last: shapes.flatMap((s) => s.last),
        heads: shapes.flatMap((s) => s.heads),
        tails: shapes.flatMap((s) => s.tails),
        unbounded: shapes.some((s) => s.unbounded),
        bad: false,
        atom: shapes.length > 0 && shapes.every((s) => s.atom),
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
    // `(a*){2}` is `a*a*`, `(.*a){20}` is `.*a.*a...`: a repeat that can run twice meets its own
    // end with its own start (20 copies: a polynomial of degree 20).
    if ((token.max as number) >= 2 && meet(inner.tails, inner.heads)) return BAD
    const once = token.min === 1 && token.max === 1
    return { empty, first: inner.first, last: inner.last, heads: inner.heads, tails: inner.tails, unbounded: inner.unbounded, bad: false, atom: once && inner.atom }
  }
  if (inner.unbounded || (inner.options !== undefined && alternativesOverlap(inner.options))) return BAD
  return { empty, first: inner.first, last: inner.last, heads: [inner.first], tails: [inner.last], unbounded: true, bad: false, atom: false }
}

/**
 * A positive lookaround: the next (or, a lookbehind, the previous) character is among the first or
 * last characters of what it looks for, unless that can be empty. A negative one over single
 * characters (`(?!\d)`) excludes them. Both are read alike (ret sees a lookbehind as a lookahead).
 */
function lookaroundConstraint(shapes: Shape[], negative: boolean): Ranges | null {
  if (shapes.length === 0) return null
  if (negative) return shapes.every((s) => s.atom) ? complement(shapes.flatMap((s) => s.first)) : null
  if (shapes.some((s) => s.empty)) return null
  return shapes.flatMap((s) => s.first.concat(s.last))
}

/**
 * A sequence's shape; bad when an unbounded repetition it can end an item with meets one the next
 * items can start with, through items that can match nothing, or one character that both can also
 * take (`.*,.*`: on ',,,,' each split is tried), or a lookaround that lets such a character by.
 */
function sequenceShape(sequence: Token[]): Shape {
  const first: Ranges = []
  let last: Ranges = []
  const heads: Ranges[] = []
  // What a head found further on must pass through to reach the start (null: anything; [] none).
  let toStart: Ranges | null = null
  let open: Ranges[] = NONE
  let leading = true
  let unbounded = false
  let atomic = false
  for (const token of sequence) {
    const shape = shapeOf(token)
    if (shape.bad || meet(open, shape.heads)) return BAD
    atomic = shape.atom
    unbounded ||= shape.unbounded
    if (leading) for (const range of shape.first) first.push(range)
    if (toStart === null) for (const head of shape.heads) heads.push(head)
    else if (toStart.length > 0) for (const head of shape.heads) pushNonEmpty(heads, intersect(head, toStart))
    if (shape.constraint !== undefined) {
      if (shape.constraint !== null) {
        open = narrow(open, shape.constraint)
        if (toStart !== null || leading) toStart = intersect(toStart ?? ANY, shape.constraint)
      }
      continue
    }
    if (!shape.empty) leading = false
    last = shape.empty ? last.concat(shape.last) : shape.last
    if (shape.empty) open = shape.tails.length === 0 ? open : open.concat(shape.tails)
    else if (shape.atom) open = narrow(open, shape.first)
    else open = shape.tails
    if (toStart === null || toStart.length > 0) {
      if (shape.atom) toStart = intersect(toStart ?? ANY, shape.first)
      else if (!shape.empty) toStart = []
    }
  }
  return { empty: leading, first, last, heads, tails: open, unbounded, bad: false, atom: sequence.length === 1 && atomic }
}

/** Each range list cut to `by`, the empty ones dropped. */
function narrow(lists: Ranges[], by: Ranges): Ranges[] {
  if (lists.length === 0) return lists
  const out: Ranges[] = []
  for (const list of lists) pushNonEmpty(out, intersect(list, by))
  return out
}

function pushNonEmpty(into: Ranges[], ranges: Ranges): void {
  if (ranges.length > 0) into.push(ranges)
}

function intersect(a: Ranges, b: Ranges): Ranges {
  const out: Ranges = []
  for (const x of a) {
    for (const y of b) {
      if (!pairMeets(x, y)) continue
      if (x[0] >= 0 && y[0] >= 0) out.push([Math.max(x[0], y[0]), Math.min(x[1], y[1])])
      else if (x[0] < 0 && y[0] < 0) out.push(x)
      else {
        // A property cut to a range: its code points there when few, else the property (wider, on the side of warning).
        const [property, range] = x[0] < 0 ? [x, y] : [y, x]
        out.push(...(propertyWithinRange(-property[0] - 1, range[0], range[1]) ?? [property]))
      }
    }
  }
  return out
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
    if (item.type === CHAR) own.push(...charRanges(item.value as number))
    else if (item.type === RANGE) own.push([item.from as number, item.to as number])
    else if (item.type === SET) own.push(...rangesOf(item))
  }
  return set.not === true ? complement(own) : own
}

function complement(ranges: Ranges): Ranges {
  // `[^\p{L}]` is `\P{L}`; what a class mixing a property with more does not hold is not listed:
  // anything, on the side of warning.
  if (ranges.length === 1 && isProperty(ranges[0])) {
    const negated = negatedProperty(-ranges[0][0] - 1)
    return negated === null ? ANY : [[-(negated + 1), -(negated + 1)]]
  }
  if (ranges.some(isProperty)) return ANY
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
  for (const x of a) for (const y of b) if (pairMeets(x, y)) return true
  return false
}

/**
 * A character's ranges: itself, or the property a placeholder stands for, written as the pair
 * [-(id + 1), -(id + 1)] so that every range list can carry it.
 */
function charRanges(value: number): Ranges {
  if (readingProperties && value >= PLACEHOLDER_BASE && value < PLACEHOLDER_BASE + MAX_PROPERTIES) {
    const marker = -(value - PLACEHOLDER_BASE + 1)
    return [[marker, marker]]
  }
  return [[value, value]]
}

function isProperty(range: [number, number]): boolean {
  return range[0] < 0
}

function pairMeets([af, at]: [number, number], [bf, bt]: [number, number]): boolean {
  if (af >= 0 && bf >= 0) return af <= bt && bf <= at
  if (af < 0 && bf < 0) return propertiesMeet(-af - 1, -bf - 1)
  return af < 0 ? propertyMeetsRange(-af - 1, bf, bt) : propertyMeetsRange(-bf - 1, af, at)
}
