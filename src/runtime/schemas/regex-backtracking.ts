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
 * - two unbounded repetitions over overlapping characters with only optional items between them
 *   (`^\s*#?\s*$`, `\d+\d+`): polynomial, quadratic for two.
 * Approximations, on the side of warning: alternatives are compared by their first characters.
 */
export function backtracksBadly(source: string): boolean {
  let tree: Token
  try { tree = ret(source) as unknown as Token } catch { return true }
  return nodeIsBad(tree)
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
}

// ret's token types (ret.types).
const POSITION = 2, SET = 3, RANGE = 4, REPETITION = 5, REFERENCE = 6, CHAR = 7
const MAX = 0x10ffff

type Ranges = Array<[number, number]>

function sequences(token: Token): Token[][] {
  if (token.options !== undefined) return token.options
  return token.stack === undefined ? [] : [token.stack]
}

function unbounded(token: Token): boolean {
  return token.type === REPETITION && (token.max === null || token.max === undefined || token.max === Infinity)
}

function nodeIsBad(token: Token): boolean {
  if (token.type === REPETITION) {
    const inner = token.value as Token
    if (unbounded(token)) {
      if (containsUnbounded(inner)) return true
      if (inner.options !== undefined && alternativesOverlap(inner.options)) return true
    }
    return nodeIsBad(inner)
  }
  for (const sequence of sequences(token)) {
    if (adjacentOverlap(sequence)) return true
    if (sequence.some(nodeIsBad)) return true
  }
  return false
}

function containsUnbounded(token: Token): boolean {
  if (token.type === REPETITION) return unbounded(token) || containsUnbounded(token.value as Token)
  return sequences(token).some((sequence) => sequence.some(containsUnbounded))
}

/** Two alternatives whose first characters overlap (or one that can match nothing). */
function alternativesOverlap(options: Token[][]): boolean {
  const firsts = options.map((sequence) => firstOf(sequence))
  for (let i = 0; i < firsts.length; i++) {
    if (firsts[i].empty) return true
    for (let j = i + 1; j < firsts.length; j++) if (overlaps(firsts[i].chars, firsts[j].chars)) return true
  }
  return false
}

/** An unbounded repetition, then only items that can match nothing, then another over overlapping characters. */
function adjacentOverlap(sequence: Token[]): boolean {
  for (let i = 0; i < sequence.length; i++) {
    if (!unbounded(sequence[i])) continue
    const chars = firstOf([sequence[i].value as Token]).chars
    for (let j = i + 1; j < sequence.length; j++) {
      const next = sequence[j]
      if (unbounded(next) && overlaps(chars, firstOf([next.value as Token]).chars)) return true
      if (!canBeEmpty(next)) break
    }
  }
  return false
}

interface First { chars: Ranges; empty: boolean }

/** The characters a sequence can start with, and whether it can match the empty string. */
function firstOf(sequence: Token[]): First {
  const chars: Ranges = []
  for (const token of sequence) {
    const own = firstOfToken(token)
    chars.push(...own.chars)
    if (!own.empty) return { chars, empty: false }
  }
  return { chars, empty: true }
}

function firstOfToken(token: Token): First {
  switch (token.type) {
    case CHAR: return { chars: [[token.value as number, token.value as number]], empty: false }
    case SET: return { chars: rangesOf(token), empty: false }
    case POSITION: return { chars: [], empty: true }
    // A back-reference can be anything its group matched: counted as any character, maybe none.
    case REFERENCE: return { chars: [[0, MAX]], empty: true }
    case REPETITION: {
      const inner = firstOfToken(token.value as Token)
      return { chars: inner.chars, empty: inner.empty || token.min === 0 }
    }
    default: {
      // A lookaround matches nothing itself.
      if ((token as { followedBy?: boolean; notFollowedBy?: boolean }).followedBy === true || (token as { notFollowedBy?: boolean }).notFollowedBy === true) return { chars: [], empty: true }
      const parts = sequences(token).map(firstOf)
      return { chars: parts.flatMap((p) => p.chars), empty: parts.length === 0 || parts.some((p) => p.empty) }
    }
  }
}

function canBeEmpty(token: Token): boolean {
  return firstOfToken(token).empty
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
