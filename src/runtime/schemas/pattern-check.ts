import { backtracksBadly } from './regex-backtracking'

/**
 * Request-schema regular expressions a crafted string can make backtrack for seconds (ReDoS).
 * ajv runs `pattern` and the `patternProperties` keys with the engine's backtracking RegExp, and a
 * pattern with nested quantifiers (`^(a+)+$`, `^([a-z0-9]+\s?)*$`) is exponential in the length of a
 * string that almost matches: on Node 20 / ajv 6.12.6 one 24-character value cost 80 ms, 30 would
 * cost seconds. The detector walks the pattern's tree (regex-backtracking.ts, microseconds per
 * pattern): nested unbounded repetition, overlapping alternatives under one, and unbounded
 * repetitions over the same characters meeting directly or through characters both take
 * (`^\s*#?\s*$`, `.*,.*`, polynomial); bounded repeats (`(...){3}`, `?`) count only when their
 * copies meet so (`(.*a){20}`). It still flags a few linear patterns (a repeated group closed by a separator,
 * `^[a-z0-9]+(-[a-z0-9]+)*$`). A length bound of at most SILENCING_MAX_LENGTH silences it: ajv checks
 * `maxLength` before `pattern` (and `propertyNames` before `patternProperties`), so the regex never sees
 * a longer string. A larger bound does not: a maxLength used as a body cap (100,000) leaves a
 * quadratic `^\s*#?\s*$` 0.35 s on 10,000 characters and about an hour on 1 MB (the default bodyLimit).
 * No bound silences it when the validator runs with `allErrors: true` (`boundsStop` false): ajv then goes on to the
 * pattern after maxLength failed (measured: 27 characters under maxLength 10, 2 s of CPU).
 * Returns the places in this schema node (`/pattern`, `/patternProperties/<key>`) at risk.
 */
export function riskyPatternsAt(node: Record<string, unknown>, boundsStop = true): string[] {
  let found: string[] | null = null
  if (typeof node.pattern === 'string' && !(boundsStop && silences(node.maxLength)) && risky(node.pattern)) found = ['/pattern']
  const keys = node.patternProperties
  if (typeof keys === 'object' && keys !== null && !(boundsStop && namesBounded(node))) {
    for (const key of Object.keys(keys)) {
      if (risky(key)) (found ??= []).push(`/patternProperties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    }
  }
  return found ?? none
}

const none: string[] = []

/**
 * The longest maxLength that silences the warning: names, slugs, e-mail addresses (254) and host
 * names (253) fit. A polynomial pattern is cheap there (quadratic: under 1 ms on 1,000 characters;
 * cubic `^\w+\w+\w+$` 0.5 to 1.6 s, the rare worst the checker also flags). An exponential one
 * is not, at any bound past a few dozen characters: the message says to keep it small.
 */
export const SILENCING_MAX_LENGTH = 1000

function silences(maxLength: unknown): boolean {
  return typeof maxLength === 'number' && maxLength <= SILENCING_MAX_LENGTH
}

function namesBounded(node: Record<string, unknown>): boolean {
  const names = node.propertyNames
  return typeof names === 'object' && names !== null && silences((names as Record<string, unknown>).maxLength)
}

// Routes repeat the same few patterns (a zip code in every address): each is judged once. Bounded,
// as apps in one process may declare any number of them.
const judged = new Map<string, boolean>()

function risky(pattern: string): boolean {
  let verdict = judged.get(pattern)
  if (verdict === undefined) {
    if (judged.size >= 1000) judged.clear()
    verdict = judge(pattern)
    judged.set(pattern, verdict)
  }
  return verdict
}

/** A pattern the engine cannot compile is ajv's error to report, not a warning. */
function judge(pattern: string): boolean {
  try { new RegExp(pattern, 'u') } catch { try { new RegExp(pattern) } catch { return false } }
  return backtracksBadly(pattern)
}
