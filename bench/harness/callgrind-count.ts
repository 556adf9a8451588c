/**
 * Reading callgrind's counts for bench/instructions.ts: the instruction total of one dump, and the
 * per-build summary of several runs (median, extremes, spread, and each run's ratio to the first
 * build's count of the same run).
 */

/**
 * The instructions (Ir) of a callgrind dump: its `totals:` line, or `summary:` where a dump has
 * no `totals:` (callgrind writes both for one event, Ir, unless told to count more).
 */
export function callgrindTotal(dump: string): number {
  const line = /^totals: (\d+)/m.exec(dump) ?? /^summary: (\d+)/m.exec(dump)
  if (line === null) throw new Error('instructions: the callgrind dump has no totals or summary line')
  return Number(line[1])
}

export interface CountSummary {
  readonly median: number
  readonly min: number
  readonly max: number
  /** (max - min) / median: how far apart runs of one build came, the resolution of any comparison. */
  readonly spread: number
  /** This build's count ÷ the first build's, run by run; null for the first build itself. */
  readonly ratios: readonly number[] | null
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export function summarizeCounts(own: readonly number[], first: readonly number[] | null): CountSummary {
  if (own.length === 0) throw new Error('instructions: no counts to summarize')
  const median = medianOf(own)
  const min = Math.min(...own)
  const max = Math.max(...own)
  return { median, min, max, spread: (max - min) / median, ratios: first === null ? null : own.map((n, i) => n / first[i]) }
}

export function medianRatio(ratios: readonly number[]): number {
  return medianOf(ratios)
}
