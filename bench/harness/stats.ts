// Medians over rounds: one slow round (a neighbour's cron job, a GC storm) does not move them.

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Rotates `items` left by `by`: round r starts with a different contender each time. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return []
  const k = by % items.length
  return [...items.slice(k), ...items.slice(0, k)]
}
